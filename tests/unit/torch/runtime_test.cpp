// gpu_measuring_runtime, the runtime of the CUDA and HIP builds, compiled and
// run over gpu_backend and a runtime of stand-ins (tests/unit/fake_gpu_runtime.hpp):
// where LibTorch has no GPU, this is where the runtime's template is compiled.
#include <iteragpu/torch/runtime.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/gpu_runtime.hpp>
#include <iteragpu/torch/gpu_backend.hpp>

#include "fake_gpu_runtime.hpp"

namespace ta = iteragpu::torch_adapter;

using fake_backend = ta::gpu_backend<fake_gpu::fake_traits>;
using fake_counter = ta::gpu_allocator_counter<fake_gpu::fake_traits>;

// Every member of the runtime compiled, measure_synthetic and measure_torchscript included.
template struct ta::gpu_measuring_runtime<fake_backend, fake_counter>;

namespace {

using fake_runtime = ta::gpu_measuring_runtime<fake_backend, fake_counter>;
static_assert(iteragpu::memory::synthetic_runtime<fake_runtime>);

}  // namespace

BOOST_AUTO_TEST_SUITE(gpu_measuring_runtime_over_traits)

BOOST_AUTO_TEST_CASE(the_environment_reports_the_runtime_the_gpus_and_the_state_reader) {
  fake_gpu::reset(2);
  fake_runtime runtime{fake_backend{fake_gpu::fake_reader{}}};
  const auto report = runtime.environment(iteragpu::memory::device_index{1});
  BOOST_TEST(report.libtorch_version.value() == ta::libtorch_version());
  BOOST_TEST(report.build_of(iteragpu::memory::gpu_platform::hip).value() == "6");
  BOOST_TEST(report.gpus.size() == 2U);
  BOOST_TEST(report.device.available);
  BOOST_TEST(report.device.name.value() == "Fake B");
  BOOST_TEST(report.device.free_memory_bytes.value() == 1001U);
  BOOST_TEST_REQUIRE(report.management.has_value());
  BOOST_TEST(report.management->driver_version.value() == "580.95.05");
  BOOST_TEST(report.management->gpus.at(1).power_limit.value().value == 0x11U);
}

BOOST_AUTO_TEST_CASE(a_device_that_is_not_visible_is_named_with_those_that_are) {
  fake_gpu::reset(1);
  fake_runtime runtime{fake_backend{fake_gpu::fake_reader{}}};
  const auto report = runtime.environment(iteragpu::memory::device_index{3});
  BOOST_TEST(!report.device.available);
  BOOST_TEST(report.device.reason.value().find("cuda:3 is not visible") == 0U);
}

BOOST_AUTO_TEST_SUITE_END()
