// The element types: their names, their sizes, and the policy a run-time
// value selects.
#include <iteragpu/memory/policies/dtype.hpp>

#include <cstddef>
#include <string_view>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(dtype_policies)

BOOST_AUTO_TEST_CASE(names_sizes_and_the_policy_of_a_run_time_value) {
  BOOST_TEST((mem::parse_element_type("bfloat16") == mem::element_type::bfloat16));
  BOOST_TEST(!mem::parse_element_type("float64").has_value());
  BOOST_TEST(!mem::parse_element_type("Float32").has_value());
  BOOST_TEST(mem::name_of(mem::element_type::float16) == "float16");
  BOOST_TEST(mem::bytes_per_element(mem::element_type::float32) == 4U);
  BOOST_TEST(mem::bytes_per_element(mem::element_type::bfloat16) == 2U);
  // Every name parses back to the type it names.
  for (const std::string_view name : mem::dtype_names) {
    BOOST_TEST(mem::name_of(mem::parse_element_type(name).value()) == name);
  }
  // with_dtype calls the lambda with the policy of the value: 2 bytes for bfloat16.
  const auto bytes =
      mem::with_dtype(mem::element_type::bfloat16, []<mem::dtype_policy D>() { return D::bytes_per_element; });
  BOOST_TEST(bytes == std::size_t{2});
}

BOOST_AUTO_TEST_SUITE_END()
