// The AOTInductor package workload, where LibTorch has its loader (2.6 and
// later): a package that cannot be read is refused as not loadable.
#include <iteragpu/torch/aoti_workload.hpp>

#include <stdexcept>

#include <torch/version.h>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(torch_aoti_workload)

#if defined(ITERAGPU_TORCH_HAS_AOTI)
BOOST_AUTO_TEST_CASE(a_package_that_cannot_be_read_is_not_loadable) {
  iteragpu::torch_adapter::aoti_workload work(torch::Device(torch::kCPU), "/nonexistent-iteragpu-folder/model.pt2", {});
  BOOST_CHECK_THROW(work.load_model(), std::invalid_argument);
  BOOST_TEST_REQUIRE(!work.accepted().has_value());
  BOOST_TEST((work.accepted().error() == iteragpu::memory::torchscript_run_errc::not_loadable));
}
#else
BOOST_AUTO_TEST_CASE(only_a_libtorch_before_2_6_lacks_the_loader) {
  // The loader came with LibTorch 2.6: a later LibTorch without it is a packaging fault.
  BOOST_TEST((TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 6)));
}
#endif

BOOST_AUTO_TEST_SUITE_END()
