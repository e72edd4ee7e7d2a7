// The runtime of a build that cannot reach a GPU: its environment report
// names no GPU and gives the reason.
#include <iteragpu/memory/gpu_runtime.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(gpu_runtime)

BOOST_AUTO_TEST_CASE(the_unavailable_runtime_reports_its_reason_for_the_device_asked) {
  const mem::unavailable_runtime runtime{mem::libtorch_without_gpu_runtime};
  const auto report = runtime.environment(mem::device_index{3});
  BOOST_TEST(report.device.requested.value == 3);
  BOOST_TEST(!report.device.available);
  BOOST_TEST(report.device.reason.value() == std::string(mem::libtorch_without_gpu_runtime));
  BOOST_TEST(report.gpus.empty());
  BOOST_TEST(!report.libtorch_available);
  static_assert(mem::environment_runtime<mem::unavailable_runtime> &&
                !mem::synthetic_runtime<mem::unavailable_runtime>);
}

BOOST_AUTO_TEST_SUITE_END()
