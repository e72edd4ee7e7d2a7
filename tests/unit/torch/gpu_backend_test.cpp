// gpu_backend, the one backend of the CUDA and HIP runtimes, over a runtime
// of stand-ins: what the backend does with the raw calls (the device made
// current, the events created before the timed window, a failed call's
// message, the state found by PCI bus id) is the code CUDA and HIP share.
#include <iteragpu/torch/gpu_backend.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/environment.hpp>
#include <iteragpu/memory/protocol.hpp>
#include <iteragpu/report/gpu_state.hpp>

#include "fake_gpu_runtime.hpp"

namespace {

using fake_gpu::fake_reader;
using fake_gpu::fake_stats;
using fake_gpu::fake_status;
using fake_gpu::fake_traits;
using fake_gpu::reset;
using fake_gpu::runtime;
using iteragpu::memory::device_index;
using iteragpu::report::describe;
using iteragpu::torch_adapter::gpu_allocator_counter;
using iteragpu::torch_adapter::gpu_backend;
using iteragpu::torch_adapter::unavailable_state_reader;

using backend = gpu_backend<fake_traits>;
using counter = gpu_allocator_counter<fake_traits>;

static_assert(iteragpu::torch_adapter::gpu_runtime_traits<fake_traits>);
static_assert(iteragpu::memory::measuring_backend<backend> && iteragpu::memory::device_memory_reporting<backend> &&
              iteragpu::memory::device_inventory<backend> && iteragpu::memory::gpu_state_reporting<backend> &&
              iteragpu::memory::management_reporting<backend>);
static_assert(iteragpu::memory::memory_counter<counter>);
// What cuda_backend.hpp and hip_backend.hpp assert of their traits.
static_assert(iteragpu::torch_adapter::complete_gpu_runtime<fake_traits>);
// The state reader is the caller's to open: there is no default backend.
static_assert(!std::is_default_constructible_v<backend>);
static_assert(!std::is_convertible_v<fake_reader, backend>);

}  // namespace

BOOST_AUTO_TEST_SUITE(gpu_backend_over_traits)

BOOST_AUTO_TEST_CASE(lists_every_visible_gpu_with_its_capability_and_memory) {
  reset(2);
  const auto gpus = backend::visible_gpus();
  BOOST_TEST_REQUIRE(gpus.size() == 2U);
  BOOST_TEST(gpus[1].index.value == 1);
  BOOST_TEST(gpus[1].name == "Fake B");
  BOOST_TEST(gpus[1].capability == "9.1");
  BOOST_TEST(gpus[1].total_memory_bytes == 85'899'345'920U);
  BOOST_TEST(!backend::unavailable_reason().has_value());
  const auto build = backend::build();
  BOOST_TEST_REQUIRE(build.has_value());
  BOOST_TEST((build->platform == iteragpu::memory::gpu_platform::hip));
  BOOST_TEST(build->version == "6");
}

BOOST_AUTO_TEST_CASE(no_gpu_and_no_runtime_version_are_said) {
  reset(0);
  runtime().failing["version"] = fake_status::invalid_device;
  BOOST_TEST(backend::unavailable_reason().value() ==
             "LibTorch's FAKE runtime sees no GPU (none visible to this process, or no usable driver)");
  BOOST_TEST(!backend::build().has_value());
  BOOST_TEST(backend::visible_gpus().empty());
}

BOOST_AUTO_TEST_CASE(memory_is_read_with_the_device_current_and_the_previous_one_restored) {
  reset(3);
  const auto m = backend::memory(device_index{2});
  BOOST_TEST(m.free_bytes == 1002U);
  BOOST_TEST(m.total_bytes == 85'899'345'920U);
  BOOST_TEST(runtime().current == 0);
}

BOOST_AUTO_TEST_CASE(a_failed_call_throws_the_runtime_s_words_and_the_call) {
  reset(2);
  runtime().failing["memory"] = fake_status::out_of_memory;
  BOOST_CHECK_EXCEPTION(static_cast<void>(backend::memory(device_index{1})), std::runtime_error,
                        [](const std::runtime_error& e) {
                          return std::string(e.what()) == "FAKE error: out of memory (fakeMemGetInfo)";
                        });
  BOOST_TEST(runtime().current == 0);  // the guard ended with the throw
  runtime().failing["synchronize"] = fake_status::invalid_device;
  BOOST_CHECK_EXCEPTION(backend::synchronize(device_index{1}), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()) == "FAKE error: invalid device ordinal (fakeDeviceSynchronize)";
  });
}

BOOST_AUTO_TEST_CASE(the_timer_creates_both_events_first_and_times_between_them) {
  reset(2);
  {
    auto t = backend::make_timer(device_index{1});
    BOOST_TEST(runtime().created == 2);  // before the window opens
    BOOST_TEST_REQUIRE(runtime().live_events.size() == 2U);
    BOOST_TEST(runtime().live_events[0]->device == 1);  // created with the measured device current
    BOOST_TEST(runtime().current == 0);
    t.start();
    t.stop();
    BOOST_TEST(t.elapsed_seconds() == 0.25);
    auto moved = std::move(t);
    BOOST_TEST(moved.elapsed_seconds() == 0.25);
  }
  BOOST_TEST(runtime().destroyed == 2);  // once each, though the timer was moved
  BOOST_TEST(runtime().live_events.empty());
}

BOOST_AUTO_TEST_CASE(a_timer_whose_second_event_fails_destroys_the_first) {
  reset(1);
  runtime().failing["second event"] = fake_status::out_of_memory;
  BOOST_CHECK_EXCEPTION(static_cast<void>(backend::make_timer(device_index{0})), std::runtime_error,
                        [](const std::runtime_error& e) {
                          return std::string(e.what()) == "FAKE error: out of memory (fakeEventCreate)";
                        });
  BOOST_TEST(runtime().created == 1);
  BOOST_TEST(runtime().destroyed == 1);
  BOOST_TEST(runtime().live_events.empty());
}

BOOST_AUTO_TEST_CASE(the_gpu_state_is_found_by_the_device_s_pci_bus_id) {
  reset(2);
  const backend b{fake_reader{}};
  BOOST_TEST(backend::pci_bus_id(device_index{1}) == "00000000:11:00.0");
  const auto state = b.gpu_state(device_index{1});
  BOOST_TEST(state.sm_clock.value().value == 1017U);  // bus 0x11
  BOOST_TEST(describe(state.power_draw.error()) == "not read by the fake");
}

BOOST_AUTO_TEST_CASE(an_unreadable_bus_id_leaves_every_reading_missing_with_why) {
  reset(1);
  runtime().failing["bus id"] = fake_status::invalid_device;
  const backend b{fake_reader{}};
  const auto state = b.gpu_state(device_index{0});
  const std::string why =
      "the device's PCI bus id cannot be read: FAKE error: invalid device ordinal (fakeDeviceGetPCIBusId)";
  BOOST_TEST((state.sm_clock.error().code == iteragpu::memory::reading_errc::bus_id_unreadable));
  BOOST_TEST(describe(state.sm_clock.error()) == why);
  BOOST_TEST(describe(state.clock_events.error()) == why);
  const auto m = b.management(backend::visible_gpus());
  BOOST_TEST_REQUIRE(m.gpus.size() == 1U);
  BOOST_TEST(describe(m.gpus[0].power_limit.error()) == why);
}

BOOST_AUTO_TEST_CASE(the_management_report_has_the_reader_s_versions_and_each_gpu_s_facts) {
  reset(2);
  const backend b{fake_reader{}};
  const auto m = b.management(backend::visible_gpus());
  BOOST_TEST(m.driver_version.value() == "580.95.05");
  BOOST_TEST(m.nvml_version.value() == "13.580.95.05");
  BOOST_TEST_REQUIRE(m.gpus.size() == 2U);
  BOOST_TEST(m.gpus[0].power_limit.value().value == 0x10U);
  BOOST_TEST(m.gpus[1].power_limit.value().value == 0x11U);
}

BOOST_AUTO_TEST_CASE(the_counter_reads_the_aggregate_entry_and_resets_the_peaks) {
  reset(2);
  runtime().stats[1] = fake_stats{{{4096, 8192}, {1, 1}}, {{2U << 20U, 4U << 20U}, {1, 1}}};
  const auto r = counter::read(device_index{1});
  BOOST_TEST(r.allocated_bytes == 4096U);
  BOOST_TEST(r.peak_allocated_bytes == 8192U);
  BOOST_TEST(r.reserved_bytes == 2U << 20U);
  BOOST_TEST(r.peak_reserved_bytes == 4U << 20U);
  counter::reset_peaks(device_index{1});
  BOOST_TEST(runtime().peaks_reset == std::vector<int>{1});
}

// A workload that allocates 1 KiB with its model, 2 KiB with its inputs and
// holds 512 bytes of output per pass, in the fake allocator's counters of
// device 1.
struct counted_workload {
  static void grow(std::int64_t bytes) {
    auto& allocated = runtime().stats.at(1).allocated_bytes[0];
    allocated.current += bytes;
    allocated.peak = std::max(allocated.peak, allocated.current);
  }
  void load_model() { grow(1024); }
  void make_inputs() { grow(2048); }
  struct output {
    output() { grow(512); }
    output(const output&) = delete;
    output& operator=(const output&) = delete;
    output(output&& other) noexcept : held(std::exchange(other.held, false)) {}
    output& operator=(output&&) = delete;
    ~output() {
      if (held) {
        grow(-512);
      }
    }
    bool held{true};
  };
  [[nodiscard]] output forward() { return {}; }  // NOLINT(readability-convert-member-functions-to-static)
};

BOOST_AUTO_TEST_CASE(measure_runs_every_phase_through_the_backend_on_the_device) {
  reset(2);
  runtime().stats[1] = fake_stats{{{0, 0}}, {{0, 0}}};
  backend b{fake_reader{}};
  counter c;
  counted_workload work;
  const auto m = iteragpu::memory::measure(b, c, work, device_index{1},
                                           iteragpu::memory::protocol_plan{.warmup = 1, .repeats = 2});
  BOOST_TEST_REQUIRE(m.has_value());
  BOOST_TEST_REQUIRE(m->phases.size() == 6U);
  const auto& warm = m->phases[5];
  BOOST_TEST(warm.baseline_allocated_bytes == 3072U);
  BOOST_TEST(warm.end_allocated_bytes == 3584U);  // the pass's output still held
  BOOST_TEST(warm.gpu_seconds == 0.25);
  BOOST_TEST(warm.end_device_used_bytes.value() == 85'899'345'920U - 1001U);  // read on device 1
  BOOST_TEST(warm.state_at_end.value().sm_clock.value().value == 1017U);      // bus 0x11, device 1's
  BOOST_TEST(runtime().live_events.empty());
  BOOST_TEST(runtime().peaks_reset.size() == 6U);
}

BOOST_AUTO_TEST_CASE(a_failed_runtime_call_ends_the_measurement_naming_the_phase) {
  reset(1);
  runtime().stats[0] = fake_stats{{{0, 0}}, {{0, 0}}};
  runtime().failing["elapsed"] = fake_status::out_of_memory;
  backend b{fake_reader{}};
  counter c;
  struct nothing {
    void load_model() {}
    void make_inputs() {}
    int forward() { return 0; }  // NOLINT(readability-convert-member-functions-to-static)
  } work;
  const auto m = iteragpu::memory::measure(b, c, work, device_index{0}, iteragpu::memory::protocol_plan{});
  BOOST_TEST_REQUIRE(!m.has_value());
  BOOST_TEST((m.error().phase == iteragpu::memory::phase_kind::model_load));
  BOOST_TEST(m.error().message == "FAKE error: out of memory (fakeEventElapsedTime)");
  BOOST_TEST(runtime().live_events.empty());
}

BOOST_AUTO_TEST_CASE(a_runtime_without_a_state_reader_reports_every_reading_not_available) {
  const unavailable_state_reader reader{"not available: no reader"};
  const auto state = reader.sample("00000000:1B:00.0");
  BOOST_TEST(describe(state.sm_clock.error()) == "not available: no reader");
  BOOST_TEST(describe(state.temperature.error()) == "not available: no reader");
  BOOST_TEST(describe(reader.facts("00000000:1B:00.0").mig_mode.error()) == "not available: no reader");
  BOOST_TEST(describe(reader.driver_version().error()) == "not available: no reader");
}

BOOST_AUTO_TEST_SUITE_END()
