// The phase protocol's order of operations, checked with recording policies
// on the CPU: no LibTorch, no GPU.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/protocol.hpp>

namespace {

using iteragpu::allocator_reading;
using iteragpu::device_index;
using iteragpu::phase_kind;

// A fake device: an allocator whose bytes the workload moves, and a log of
// every call the protocol makes.
struct fake_device {
  static inline std::vector<std::string> log;
  static inline std::uint64_t allocated = 0;
  static inline std::uint64_t peak = 0;
  static inline int passes = 0;
  static inline int fail_on_pass = -1;

  static void reset() {
    log.clear();
    allocated = 0;
    peak = 0;
    passes = 0;
    fail_on_pass = -1;
  }
  static void allocate(std::uint64_t n) {
    allocated += n;
    peak = allocated > peak ? allocated : peak;
  }
};

struct recording_backend {
  static constexpr std::string_view name = "recording";
  static std::optional<std::string> runtime_unavailable_reason() { return std::nullopt; }
  static std::optional<std::string> cuda_build() { return std::nullopt; }
  static std::optional<std::string> hip_build() { return std::nullopt; }
  static std::vector<iteragpu::gpu_description> visible_gpus() { return {}; }
  static void synchronize(device_index d) { fake_device::log.push_back("sync@" + std::to_string(d.value)); }
  static iteragpu::device_memory memory(device_index) { return {}; }
  struct timer {
    void start() { fake_device::log.emplace_back("event.start"); }
    void stop() { fake_device::log.emplace_back("event.stop"); }
    [[nodiscard]] double elapsed_seconds() const { return 0.25; }
  };
  static timer make_timer(device_index) { return {}; }
};

// Reserved memory is modelled as twice the peak allocation, so the two
// counters differ and a mix-up between them shows.
struct recording_counter {
  static allocator_reading read(device_index d) {
    fake_device::log.push_back("read@" + std::to_string(d.value));
    return {fake_device::allocated, 2 * fake_device::peak, fake_device::peak, 2 * fake_device::peak};
  }
  static void reset_peaks(device_index d) {
    fake_device::log.push_back("reset@" + std::to_string(d.value));
    fake_device::peak = fake_device::allocated;
  }
};

// An output that holds 5 bytes for as long as it lives.
class fake_output {
 public:
  explicit fake_output(int pass) : pass_(pass) {
    fake_device::allocate(5);
    fake_device::log.push_back("forward#" + std::to_string(pass_));
  }
  fake_output(fake_output&& other) noexcept : pass_(other.pass_) { other.pass_ = 0; }
  fake_output(const fake_output&) = delete;
  fake_output& operator=(const fake_output&) = delete;
  fake_output& operator=(fake_output&&) = delete;
  ~fake_output() {
    if (pass_ != 0) {
      fake_device::allocated -= 5;
      fake_device::log.push_back("release#" + std::to_string(pass_));
    }
  }

 private:
  int pass_;
};

struct fake_workload {
  using dtype = iteragpu::dtypes::bfloat16;
  void load_model() {
    fake_device::log.emplace_back("load_model");
    fake_device::allocate(100);
  }
  void make_inputs() {
    fake_device::log.emplace_back("make_inputs");
    fake_device::allocate(10);
  }
  fake_output forward() {
    const int pass = ++fake_device::passes;
    if (pass == fake_device::fail_on_pass) {
      throw std::runtime_error("out of memory on pass " + std::to_string(pass) + "\nstack trace line");
    }
    return fake_output(pass);
  }
};

static_assert(iteragpu::workload<fake_workload>);
static_assert(iteragpu::measuring_backend<recording_backend>);
static_assert(iteragpu::memory_counter<recording_counter>);

using protocol = iteragpu::phase_protocol<iteragpu::dtypes::bfloat16, recording_backend, recording_counter>;

std::vector<std::string> phase_calls(const std::vector<std::string>& operation, int device) {
  const std::string at = "@" + std::to_string(device);
  std::vector<std::string> calls{"sync" + at, "read" + at, "reset" + at, "event.start"};
  calls.insert(calls.end(), operation.begin(), operation.end());
  calls.insert(calls.end(), {"event.stop", "sync" + at, "read" + at});
  return calls;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(protocol_order)

BOOST_AUTO_TEST_CASE(every_phase_synchronises_reads_resets_runs_synchronises_reads_in_that_order) {
  fake_device::reset();
  fake_workload work;
  const auto rows = protocol(device_index{3}).run(work, {.warmup = 2, .repeats = 2});

  std::vector<std::string> expected;
  append(expected, phase_calls({"load_model"}, 3));
  append(expected, phase_calls({"make_inputs"}, 3));
  append(expected, phase_calls({"forward#1"}, 3));
  expected.emplace_back("release#1");
  // Warm-up: each pass released before the next; the last kept until the end reading.
  append(expected, phase_calls({"forward#2", "release#2", "forward#3"}, 3));
  expected.emplace_back("release#3");
  append(expected, phase_calls({"forward#4"}, 3));
  expected.emplace_back("release#4");
  append(expected, phase_calls({"forward#5"}, 3));
  expected.emplace_back("release#5");
  BOOST_TEST(fake_device::log == expected, boost::test_tools::per_element());
  BOOST_TEST(rows.size() == 6U);
}

BOOST_AUTO_TEST_CASE(rows_come_in_phase_order_with_repeats_numbered_from_zero) {
  fake_device::reset();
  fake_workload work;
  const auto rows = protocol(device_index{0}).run(work, {.warmup = 1, .repeats = 3});
  const std::vector<phase_kind> expected{phase_kind::model_load,   phase_kind::inputs,       phase_kind::cold_forward,
                                         phase_kind::warmup,       phase_kind::warm_forward, phase_kind::warm_forward,
                                         phase_kind::warm_forward};
  BOOST_REQUIRE_EQUAL(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BOOST_TEST((rows[i].phase == expected[i]), "row " << i);
    if (rows[i].phase == phase_kind::warm_forward) {
      BOOST_TEST(rows[i].repeat.value() == i - 4);
    } else {
      BOOST_TEST(!rows[i].repeat.has_value());
    }
    BOOST_TEST(rows[i].gpu_seconds == 0.25);
    BOOST_TEST(rows[i].seconds >= 0.0);
  }
}

BOOST_AUTO_TEST_CASE(readings_show_the_output_alive_at_the_end_and_released_before_the_next_pass) {
  fake_device::reset();
  fake_workload work;
  const auto rows = protocol(device_index{0}).run(work, {.warmup = 2, .repeats = 2});
  const auto& load = rows[0];
  BOOST_TEST(load.baseline_allocated_bytes == 0U);
  BOOST_TEST(load.end_allocated_bytes == 100U);
  BOOST_TEST(load.peak_allocated_bytes == 100U);
  BOOST_TEST(load.peak_reserved_bytes == 200U);
  const auto& inputs = rows[1];
  BOOST_TEST(inputs.baseline_allocated_bytes == 100U);
  BOOST_TEST(inputs.end_allocated_bytes == 110U);
  // The peak was reset to the current value at the start of the phase.
  BOOST_TEST(inputs.peak_allocated_bytes == 110U);
  const auto& cold = rows[2];
  BOOST_TEST(cold.baseline_allocated_bytes == 110U);
  BOOST_TEST(cold.end_allocated_bytes == 115U);  // the output still exists
  BOOST_TEST(cold.peak_allocated_bytes == 115U);
  const auto& warmup = rows[3];
  BOOST_TEST(warmup.baseline_allocated_bytes == 110U);  // released before the phase
  BOOST_TEST(warmup.end_allocated_bytes == 115U);
  BOOST_TEST(warmup.peak_allocated_bytes == 115U);  // never two outputs at once
  for (std::size_t i = 4; i < rows.size(); ++i) {
    BOOST_TEST(rows[i].baseline_allocated_bytes == 110U);
    BOOST_TEST(rows[i].end_allocated_bytes == 115U);
  }
  BOOST_TEST(fake_device::allocated == 110U);  // weights and inputs outlive the protocol run
}

BOOST_AUTO_TEST_CASE(warmup_of_zero_passes_still_has_its_row_and_runs_nothing) {
  fake_device::reset();
  fake_workload work;
  const auto rows = protocol(device_index{0}).run(work, {.warmup = 0, .repeats = 1});
  BOOST_REQUIRE_EQUAL(rows.size(), 5U);
  BOOST_TEST((rows[3].phase == phase_kind::warmup));
  BOOST_TEST(fake_device::passes == 2);  // cold_forward and one repeat
  BOOST_TEST(rows[3].end_allocated_bytes == rows[3].baseline_allocated_bytes);
}

BOOST_AUTO_TEST_CASE(warmup_passes_are_never_counted_as_repeats) {
  fake_device::reset();
  fake_workload work;
  const auto rows = protocol(device_index{0}).run(work, {.warmup = 7, .repeats = 2});
  std::size_t warm_rows = 0;
  for (const auto& r : rows) {
    warm_rows += r.phase == phase_kind::warm_forward ? 1U : 0U;
  }
  BOOST_TEST(warm_rows == 2U);
  BOOST_TEST(fake_device::passes == 1 + 7 + 2);
}

BOOST_AUTO_TEST_CASE(a_failure_names_its_phase_and_keeps_only_the_first_line) {
  fake_device::reset();
  fake_device::fail_on_pass = 1;
  fake_workload work;
  try {
    static_cast<void>(protocol(device_index{0}).run(work, {.warmup = 1, .repeats = 1}));
    BOOST_FAIL("the protocol did not report the failure");
  } catch (const iteragpu::measurement_failure& e) {
    BOOST_TEST((e.phase() == phase_kind::cold_forward));
    BOOST_TEST(std::string(e.what()) == "out of memory on pass 1");
  }
  fake_device::reset();
  fake_device::fail_on_pass = 3;
  try {
    static_cast<void>(protocol(device_index{0}).run(work, {.warmup = 2, .repeats = 1}));
    BOOST_FAIL("the protocol did not report the failure");
  } catch (const iteragpu::measurement_failure& e) {
    BOOST_TEST((e.phase() == phase_kind::warmup));
  }
}

BOOST_AUTO_TEST_SUITE_END()
