// The CUDA backend: gpu_backend over the CUDA traits, where LibTorch has CUDA.
#include <iteragpu/torch/cuda_backend.hpp>

#include <string>
#include <type_traits>

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

BOOST_AUTO_TEST_SUITE(torch_cuda_backend)

#if defined(ITERAGPU_TORCH_CUDA)
BOOST_AUTO_TEST_CASE(the_backend_is_gpu_backend_over_cuda) {
  static_assert(std::is_same_v<ta::cuda_backend, ta::gpu_backend<ta::cuda_traits>>);
  BOOST_TEST((ta::cuda_traits::platform == iteragpu::memory::gpu_platform::cuda));
  BOOST_TEST(std::string(ta::cuda_traits::runtime_name) == "CUDA");
}
#else
BOOST_AUTO_TEST_CASE(without_iteragpu_torch_cuda_the_header_declares_nothing) {
  // A build whose LibTorch is not of this platform gets no traits from the header.
  constexpr bool complete = complete_type<ta::cuda_traits>;
  BOOST_TEST(!complete);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
