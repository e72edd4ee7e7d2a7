// The HIP runtime's traits: version text, where LibTorch has HIP.
#include <iteragpu/torch/hip_traits.hpp>

#include <string>

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

BOOST_AUTO_TEST_SUITE(torch_hip_traits)

#if defined(ITERAGPU_TORCH_HIP)
BOOST_AUTO_TEST_CASE(versions_of_the_hip_runtime) {
  // HIP numbers its versions 10000000 * major + 100000 * minor + patch.
  BOOST_TEST(ta::hip_version_text(60342134) == "6.3");
  BOOST_TEST(ta::hip_version_text(70051831) == "7.0");
}
#else
BOOST_AUTO_TEST_CASE(without_iteragpu_torch_hip_the_header_declares_nothing) {
  // A build whose LibTorch is not of this platform gets no traits from the header.
  constexpr bool complete = complete_type<ta::hip_traits>;
  BOOST_TEST(!complete);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
