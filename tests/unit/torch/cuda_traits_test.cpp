// The CUDA runtime's traits: version text and names, where LibTorch has CUDA.
#include <iteragpu/torch/cuda_traits.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#if !defined(ITERAGPU_TORCH_CUDA)
namespace iteragpu::torch_adapter {
struct cuda_traits;  // complete only where ITERAGPU_TORCH_CUDA is defined
}  // namespace iteragpu::torch_adapter

namespace {

template <class T>
concept complete_type = requires { sizeof(T); };

}  // namespace
#endif

namespace ta = iteragpu::torch_adapter;

BOOST_AUTO_TEST_SUITE(torch_cuda_traits)

#if defined(ITERAGPU_TORCH_CUDA)
BOOST_AUTO_TEST_CASE(versions_and_names_of_the_cuda_runtime) {
  // CUDA numbers its versions 1000 * major + 10 * minor.
  BOOST_TEST(ta::cuda_version_text(13000) == "13.0");
  BOOST_TEST(ta::cuda_version_text(12040) == "12.4");
  BOOST_TEST(ta::cuda_traits::version_text(12080) == "12.8");
  BOOST_TEST(std::string(ta::cuda_traits::runtime_name) == "CUDA");
  BOOST_TEST(std::string(ta::cuda_traits::call_prefix) == "cuda");
}
#else
BOOST_AUTO_TEST_CASE(without_iteragpu_torch_cuda_the_header_declares_nothing) {
  // A build whose LibTorch is not of this platform gets no traits from the header.
  constexpr bool complete = complete_type<ta::cuda_traits>;
  BOOST_TEST(!complete);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
