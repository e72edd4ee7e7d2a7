// Each element type's LibTorch scalar type, of the same size.
#include <iteragpu/torch/dtype.hpp>

#include <c10/core/ScalarType.h>

#include <boost/test/unit_test.hpp>

namespace ta = iteragpu::torch_adapter;
namespace dtypes = iteragpu::memory::dtypes;

BOOST_AUTO_TEST_SUITE(torch_dtypes)

BOOST_AUTO_TEST_CASE(scalar_types_match_the_element_types) {
  BOOST_TEST((ta::scalar_type<dtypes::float32>() == c10::ScalarType::Float));
  BOOST_TEST((ta::scalar_type<dtypes::float16>() == c10::ScalarType::Half));
  BOOST_TEST((ta::scalar_type<dtypes::bfloat16>() == c10::ScalarType::BFloat16));
  BOOST_TEST(c10::elementSize(ta::scalar_type<dtypes::bfloat16>()) == dtypes::bfloat16::bytes_per_element);
  BOOST_TEST(c10::elementSize(ta::scalar_type<dtypes::float32>()) == dtypes::float32::bytes_per_element);
}

BOOST_AUTO_TEST_SUITE_END()
