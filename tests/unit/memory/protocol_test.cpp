// The phase protocol's order of operations, checked with recording policies
// on the CPU: no LibTorch, no GPU.
#include <iteragpu/memory/protocol.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace {

using iteragpu::memory::allocator_reading;
using iteragpu::memory::device_index;
using iteragpu::memory::phase_kind;

// A fake device: an allocator whose bytes the workload moves, and a log of
// every call the protocol makes. The policies below share one by
// reference: their state lives in objects, not in globals.
struct fake_device {
  std::vector<std::string> log;
  std::uint64_t allocated = 0;
  std::uint64_t peak = 0;
  int passes = 0;
  int fail_on_pass = -1;
  int host_out_of_memory_on_pass = -1;

  void allocate(std::uint64_t n) {
    allocated += n;
    peak = allocated > peak ? allocated : peak;
  }
};

// A clock whose time moves only when the protocol reads it: each reading
// is 0.5 s after the last, so every phase lasts exactly 0.5 s.
struct fake_clock {
  using duration = std::chrono::duration<double>;
  using time_point = std::chrono::time_point<std::chrono::steady_clock, duration>;
  double now_seconds = 0;
  time_point now() {
    now_seconds += 0.5;
    return time_point(duration(now_seconds));
  }
};

struct recording_backend {
  fake_device& device;
  void synchronize(device_index d) { device.log.push_back("sync@" + std::to_string(d.value)); }
  struct timer {
    fake_device* device;
    void start() { device->log.emplace_back("event.start"); }
    void stop() { device->log.emplace_back("event.stop"); }
    [[nodiscard]] double elapsed_seconds() const { return 0.25; }
  };
  timer make_timer(device_index) { return timer{&device}; }
};

// Reserved memory is modelled as twice the peak allocation, so the two
// counters differ and a mix-up between them shows.
struct recording_counter {
  fake_device& device;
  allocator_reading read(device_index d) {
    device.log.push_back("read@" + std::to_string(d.value));
    return {device.allocated, 2 * device.peak, device.peak, 2 * device.peak};
  }
  void reset_peaks(device_index d) {
    device.log.push_back("reset@" + std::to_string(d.value));
    device.peak = device.allocated;
  }
};

// An output that holds 5 bytes for as long as it lives.
class fake_output {
 public:
  fake_output(fake_device& device, int pass) : device_(&device), pass_(pass) {
    device_->allocate(5);
    device_->log.push_back("forward#" + std::to_string(pass_));
  }
  fake_output(fake_output&& other) noexcept : device_(other.device_), pass_(std::exchange(other.pass_, 0)) {}
  fake_output(const fake_output&) = delete;
  fake_output& operator=(const fake_output&) = delete;
  fake_output& operator=(fake_output&&) = delete;
  ~fake_output() {
    if (pass_ != 0) {
      device_->allocated -= 5;
      device_->log.push_back("release#" + std::to_string(pass_));
    }
  }

 private:
  fake_device* device_;
  int pass_;
};

struct fake_workload {
  fake_device& device;
  void load_model() {
    device.log.emplace_back("load_model");
    device.allocate(100);
  }
  void make_inputs() {
    device.log.emplace_back("make_inputs");
    device.allocate(10);
  }
  fake_output forward() {
    const int pass = ++device.passes;
    if (pass == device.fail_on_pass) {
      throw std::runtime_error("out of memory on pass " + std::to_string(pass) + "\nstack trace line");
    }
    if (pass == device.host_out_of_memory_on_pass) {
      throw std::bad_alloc();
    }
    return fake_output(device, pass);
  }
};

static_assert(iteragpu::memory::workload<fake_workload>);
static_assert(iteragpu::memory::measuring_backend<recording_backend>);
static_assert(!iteragpu::memory::device_memory_reporting<recording_backend>);
static_assert(iteragpu::memory::memory_counter<recording_counter>);
static_assert(iteragpu::memory::phase_clock<fake_clock>);

// The three policies over one fake device, and a run of the protocol.
struct bench {
  fake_device device;
  recording_backend backend{device};
  recording_counter counter{device};
  fake_workload work{device};
  fake_clock clock;

  iteragpu::result<iteragpu::memory::measurement, iteragpu::memory::measure_error> run(
      int d, iteragpu::memory::protocol_plan plan) {
    return iteragpu::memory::measure(backend, counter, work, device_index{d}, plan, clock);
  }
  std::vector<iteragpu::memory::phase_row> rows(int d, iteragpu::memory::protocol_plan plan) {
    auto m = run(d, plan);
    BOOST_REQUIRE_MESSAGE(m.has_value(), "the protocol failed");  // cppcheck-suppress unusedScopedObject
    return std::move(m->phases);
  }
};

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
  bench b;
  const auto rows = b.rows(3, {.warmup = 2, .repeats = 2});

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
  BOOST_TEST(b.device.log == expected, boost::test_tools::per_element());
  BOOST_TEST(rows.size() == 6U);
}

BOOST_AUTO_TEST_CASE(rows_come_in_phase_order_with_repeats_numbered_from_zero) {
  bench b;
  const auto rows = b.rows(0, {.warmup = 1, .repeats = 3});
  const std::vector<phase_kind> expected{phase_kind::model_load,  phase_kind::inputs,       phase_kind::cold_forward,
                                         phase_kind::warmup,      phase_kind::warm_forward, phase_kind::warm_forward,
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
    // The fake clock moves 0.5 s per reading, and a phase reads it twice.
    BOOST_TEST(rows[i].seconds == 0.5);
    BOOST_TEST(!rows[i].baseline_device_used_bytes.has_value());
  }
}

BOOST_AUTO_TEST_CASE(readings_show_the_output_alive_at_the_end_and_released_before_the_next_pass) {
  bench b;
  const auto rows = b.rows(0, {.warmup = 2, .repeats = 2});
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
  BOOST_TEST(b.device.allocated == 110U);  // weights and inputs outlive the protocol run
}

BOOST_AUTO_TEST_CASE(warmup_of_zero_passes_still_has_its_row_and_runs_nothing) {
  bench b;
  const auto rows = b.rows(0, {.warmup = 0, .repeats = 1});
  BOOST_REQUIRE_EQUAL(rows.size(), 5U);
  BOOST_TEST((rows[3].phase == phase_kind::warmup));
  BOOST_TEST(b.device.passes == 2);  // cold_forward and one repeat
  BOOST_TEST(rows[3].end_allocated_bytes == rows[3].baseline_allocated_bytes);
}

BOOST_AUTO_TEST_CASE(warmup_passes_are_never_counted_as_repeats) {
  bench b;
  const auto rows = b.rows(0, {.warmup = 7, .repeats = 2});
  std::size_t warm_rows = 0;
  for (const auto& r : rows) {
    warm_rows += r.phase == phase_kind::warm_forward ? 1U : 0U;
  }
  BOOST_TEST(warm_rows == 2U);
  BOOST_TEST(b.device.passes == 1 + 7 + 2);
}

BOOST_AUTO_TEST_CASE(a_failure_names_its_phase_and_keeps_only_the_first_line) {
  bench cold;
  cold.device.fail_on_pass = 1;
  const auto failed = cold.run(0, {.warmup = 1, .repeats = 1});
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().phase == phase_kind::cold_forward));
  BOOST_TEST((failed.error().code == iteragpu::memory::measure_errc::policy_failed));
  BOOST_TEST(failed.error().message == "out of memory on pass 1");
  bench warm;
  warm.device.fail_on_pass = 3;
  const auto in_warmup = warm.run(0, {.warmup = 2, .repeats = 1});
  BOOST_REQUIRE(!in_warmup.has_value());
  BOOST_TEST((in_warmup.error().phase == phase_kind::warmup));
  bench repeat;
  repeat.device.fail_on_pass = 4;
  const auto in_repeat = repeat.run(0, {.warmup = 1, .repeats = 3});
  BOOST_REQUIRE(!in_repeat.has_value());
  BOOST_TEST((in_repeat.error().phase == phase_kind::warm_forward));
}

BOOST_AUTO_TEST_CASE(the_host_out_of_memory_is_no_failure_of_a_phase_and_says_so) {
  bench host;
  host.device.host_out_of_memory_on_pass = 2;
  const auto failed = host.run(0, {.warmup = 1, .repeats = 1});
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == iteragpu::memory::measure_errc::host_out_of_memory));
  BOOST_TEST((failed.error().phase == phase_kind::warmup));
  BOOST_TEST(failed.error().message.empty());
}

// A workload that reports its failures as values: load_model() may refuse,
// and forward() refuses on a chosen pass, with no exception anywhere.
enum class refusal { no_room_for_weights, no_room_for_pass };

[[nodiscard]] std::string_view describe(refusal r) {
  return r == refusal::no_room_for_weights ? "no room for the weights\nmore detail" : "no room for the pass";
}

struct refusing_workload {
  fake_device& device;
  bool refuse_weights = false;
  int refuse_on_pass = 0;
  iteragpu::result<void, refusal> load_model() {
    if (refuse_weights) {
      return iteragpu::unexpected{refusal::no_room_for_weights};
    }
    device.allocate(100);
    return {};
  }
  void make_inputs() { device.allocate(10); }
  iteragpu::result<int, refusal> forward() {
    const int pass = ++device.passes;
    if (pass == refuse_on_pass) {
      return iteragpu::unexpected{refusal::no_room_for_pass};
    }
    return pass;
  }
};

static_assert(iteragpu::memory::workload<refusing_workload>);

BOOST_AUTO_TEST_CASE(an_operation_that_returns_a_failed_result_ends_the_measurement_in_its_phase) {
  fake_device device;
  recording_backend backend{device};
  recording_counter counter{device};
  fake_clock clock;
  refusing_workload weights{device, true, 0};
  const auto at_load =
      iteragpu::memory::measure(backend, counter, weights, device_index{0}, {.warmup = 1, .repeats = 1}, clock);
  BOOST_REQUIRE(!at_load.has_value());
  BOOST_TEST((at_load.error().phase == phase_kind::model_load));
  BOOST_TEST((at_load.error().code == iteragpu::memory::measure_errc::policy_failed));
  BOOST_TEST(at_load.error().message == "no room for the weights");
  BOOST_TEST(device.passes == 0);

  fake_device second;
  recording_backend backend2{second};
  recording_counter counter2{second};
  refusing_workload in_warmup{second, false, 3};
  const auto at_warmup =
      iteragpu::memory::measure(backend2, counter2, in_warmup, device_index{0}, {.warmup = 4, .repeats = 1}, clock);
  BOOST_REQUIRE(!at_warmup.has_value());
  BOOST_TEST((at_warmup.error().phase == phase_kind::warmup));
  BOOST_TEST(at_warmup.error().message == "no room for the pass");
  BOOST_TEST(second.passes == 3);  // the warmup stopped at the refused pass

  fake_device third;
  recording_backend backend3{third};
  recording_counter counter3{third};
  refusing_workload none{third, false, 0};
  const auto whole =
      iteragpu::memory::measure(backend3, counter3, none, device_index{0}, {.warmup = 2, .repeats = 2}, clock);
  BOOST_REQUIRE(whole.has_value());
  BOOST_TEST(whole->phases.size() == 6U);
  BOOST_TEST(third.passes == 5);
}

BOOST_AUTO_TEST_CASE(a_huge_count_of_repeats_asks_for_no_memory_up_front) {
  // The workload fails on its second pass, so the count is never run: only
  // the reservation of the rows could fail on the count.
  bench huge;
  huge.device.fail_on_pass = 2;
  const auto failed = huge.run(0, {.warmup = 0, .repeats = std::numeric_limits<std::uint64_t>::max() - 4});
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().phase == phase_kind::warm_forward));
  BOOST_TEST(failed.error().message == "out of memory on pass 2");
}

// A backend that also reports the device's memory: used = total - free is
// read at each baseline and end, outside the timed window.
struct memory_reporting_backend {  // NOLINT(cppcoreguidelines-pro-type-member-init): an aggregate, initialized whole
  recording_backend recording;
  fake_device& device;
  std::uint64_t total = 1000;
  void synchronize(device_index d) { recording.synchronize(d); }
  recording_backend::timer make_timer(device_index d) { return recording.make_timer(d); }
  iteragpu::memory::device_memory memory(device_index d) {
    device.log.push_back("memory@" + std::to_string(d.value));
    return {total - 7 * device.allocated, total};
  }
};
static_assert(iteragpu::memory::device_memory_reporting<memory_reporting_backend>);

BOOST_AUTO_TEST_CASE(a_backend_that_reports_device_memory_has_it_recorded_at_baseline_and_end) {
  fake_device device;
  memory_reporting_backend backend{{device}, device, 1000};
  recording_counter counter{device};
  fake_workload work{device};
  fake_clock clock;
  const auto m = iteragpu::memory::measure(backend, counter, work, device_index{1}, {.warmup = 0, .repeats = 1}, clock);
  BOOST_REQUIRE(m.has_value());
  const auto& load = m->phases[0];
  BOOST_TEST(load.baseline_device_used_bytes.value() == 0U);
  BOOST_TEST(load.end_device_used_bytes.value() == 700U);  // 7 x the 100 bytes of weights
  BOOST_TEST(m->phases[2].end_device_used_bytes.value() == 7U * 115U);
  const std::vector<std::string> first_phase{"sync@1",     "read@1",     "memory@1", "reset@1", "event.start",
                                             "load_model", "event.stop", "sync@1",   "read@1",  "memory@1"};
  BOOST_TEST(std::vector<std::string>(device.log.begin(), device.log.begin() + 10) == first_phase,
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_default_clock_is_the_steady_clock) {
  bench b;
  const auto m = iteragpu::memory::measure(b.backend, b.counter, b.work, device_index{0}, {.warmup = 0, .repeats = 1});
  BOOST_REQUIRE(m.has_value());
  BOOST_TEST(m->phases.size() == 5U);
  for (const auto& row : m->phases) {
    BOOST_TEST(row.seconds >= 0.0);
    BOOST_TEST(row.seconds < 60.0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
