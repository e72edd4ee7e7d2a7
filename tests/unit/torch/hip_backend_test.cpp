// The HIP backend: gpu_backend over the HIP traits, where LibTorch has HIP.
#include <iteragpu/torch/hip_backend.hpp>

#include <string>
#include <type_traits>

#include <boost/test/unit_test.hpp>

#if !defined(ITERAGPU_TORCH_HIP)
namespace iteragpu::torch_adapter {
struct hip_traits;  // complete only where ITERAGPU_TORCH_HIP is defined
}  // namespace iteragpu::torch_adapter

namespace {

template <class T>
concept complete_type = requires { sizeof(T); };

}  // namespace
#endif

namespace ta = iteragpu::torch_adapter;

BOOST_AUTO_TEST_SUITE(torch_hip_backend)

#if defined(ITERAGPU_TORCH_HIP)
BOOST_AUTO_TEST_CASE(the_backend_is_gpu_backend_over_hip) {
  static_assert(std::is_same_v<ta::hip_backend, ta::gpu_backend<ta::hip_traits>>);
  BOOST_TEST((ta::hip_traits::platform == iteragpu::memory::gpu_platform::hip));
}
#else
BOOST_AUTO_TEST_CASE(without_iteragpu_torch_hip_the_header_declares_nothing) {
  // A build whose LibTorch is not of this platform gets no traits from the header.
  constexpr bool complete = complete_type<ta::hip_traits>;
  BOOST_TEST(!complete);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
