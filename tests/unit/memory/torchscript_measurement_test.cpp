// Measuring a TorchScript module through a runtime: a device that cannot be
// measured, or a runtime that cannot load TorchScript, is a failure with
// its reason before any phase.
#include <iteragpu/memory/torchscript_measurement.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/gpu_runtime.hpp>

namespace mem = iteragpu::memory;

namespace {

// A runtime whose every device is available, and which has no measure_torchscript.
struct environment_only_runtime {
  [[nodiscard]] static mem::environment_report environment(mem::device_index d) {
    mem::environment_report report;
    report.device.requested = d;
    report.device.available = true;
    return report;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(torchscript_measurement)

BOOST_AUTO_TEST_CASE(a_device_that_cannot_be_measured_is_named_with_the_reason) {
  mem::unavailable_runtime runtime{mem::built_without_libtorch};
  mem::torchscript_run run;
  run.device = mem::device_index{1};
  const auto failed = mem::measure_torchscript(runtime, run);
  BOOST_TEST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == mem::torchscript_errc::device_unavailable));
  BOOST_TEST(failed.error().message == "cuda:1 cannot be measured: " + std::string(mem::built_without_libtorch));
  BOOST_TEST(!failed.error().error.has_value());
}

BOOST_AUTO_TEST_CASE(a_runtime_without_torchscript_cannot_measure) {
  static_assert(!mem::torchscript_runtime<environment_only_runtime>);
  environment_only_runtime runtime;
  const auto failed = mem::measure_torchscript(runtime, mem::torchscript_run{});
  BOOST_TEST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == mem::torchscript_errc::cannot_measure));
  BOOST_TEST(failed.error().message == "this build cannot measure a TorchScript module");
  BOOST_TEST(mem::torchscript_run{}.input_high == 2U);  // default_input_high
}

BOOST_AUTO_TEST_SUITE_END()
