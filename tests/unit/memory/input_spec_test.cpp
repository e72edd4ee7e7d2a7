// The input specs of `measure --torchscript`: what parses, into what, and
// where each malformed spec is refused.
#include <iteragpu/memory/input_spec.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/torchscript.hpp>

namespace mem = iteragpu::memory;

namespace {

mem::input_spec_error error_of(const std::string& text) {
  const auto parsed = mem::parse_input_spec(text);
  BOOST_REQUIRE(!parsed.has_value());
  return parsed.error();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(input_spec)

BOOST_AUTO_TEST_CASE(token_ids_images_and_bfloat16_parse_into_shape_and_dtype) {
  const auto tokens = mem::parse_input_spec("8x512:int64").value();
  BOOST_TEST(tokens.shape == (std::vector<std::int64_t>{8, 512}), boost::test_tools::per_element());
  BOOST_TEST((tokens.dtype == mem::input_dtype::int64));
  const auto images = mem::parse_input_spec("16x3x224x224:float32").value();
  BOOST_TEST(images.shape == (std::vector<std::int64_t>{16, 3, 224, 224}), boost::test_tools::per_element());
  BOOST_TEST((images.dtype == mem::input_dtype::float32));
  const auto half = mem::parse_input_spec("4x128:bfloat16").value();
  BOOST_TEST((half.dtype == mem::input_dtype::bfloat16));
  BOOST_TEST(mem::parse_input_spec("7:uint8").value().shape == (std::vector<std::int64_t>{7}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_spec_is_written_back_as_it_was_given) {
  for (const std::string text : {"8x512:int64", "16x3x224x224:float32", "4x128:bfloat16", "1:float64", "2x2:int8"}) {
    BOOST_TEST(mem::to_string(mem::parse_input_spec(text).value()) == text);
  }
}

BOOST_AUTO_TEST_CASE(bytes_follow_the_dtype) {
  BOOST_TEST(mem::bytes_of(mem::parse_input_spec("8x512:int64").value()).value() == 8U * 512U * 8U);
  BOOST_TEST(mem::bytes_of(mem::parse_input_spec("4x128:bfloat16").value()).value() == 4U * 128U * 2U);
  BOOST_TEST(mem::bytes_of(mem::parse_input_spec("3:uint8").value()).value() == 3U);
}

BOOST_AUTO_TEST_CASE(floating_types_are_normal_and_integer_types_have_a_largest_high) {
  BOOST_TEST(mem::is_floating(mem::input_dtype::bfloat16));
  BOOST_TEST(!mem::is_floating(mem::input_dtype::int64));
  BOOST_TEST(!mem::largest_input_high(mem::input_dtype::float32).has_value());
  BOOST_TEST(mem::largest_input_high(mem::input_dtype::int8).value() == 128U);
  BOOST_TEST(mem::largest_input_high(mem::input_dtype::uint8).value() == 256U);
  BOOST_TEST(mem::largest_input_high(mem::input_dtype::int32).value() == 2147483648U);
}

BOOST_AUTO_TEST_CASE(malformed_specs_are_refused_with_the_problem_and_its_column) {
  BOOST_TEST((error_of("") == mem::input_spec_error{mem::input_spec_errc::empty, 0}));
  BOOST_TEST((error_of("8x512") == mem::input_spec_error{mem::input_spec_errc::no_dtype, 5}));
  BOOST_TEST((error_of("8x512:long") == mem::input_spec_error{mem::input_spec_errc::unknown_dtype, 6}));
  BOOST_TEST((error_of("8x512:") == mem::input_spec_error{mem::input_spec_errc::unknown_dtype, 6}));
  BOOST_TEST((error_of("8x0:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 2}));
  BOOST_TEST((error_of("8x-1:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 2}));
  BOOST_TEST((error_of("8xx2:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 2}));
  BOOST_TEST((error_of("8x:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 2}));
  BOOST_TEST((error_of(":int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 0}));
  BOOST_TEST((error_of("8 x512:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 0}));
  BOOST_TEST((error_of("8X512:int64") == mem::input_spec_error{mem::input_spec_errc::bad_size, 0}));
}

BOOST_AUTO_TEST_CASE(specs_past_what_libtorch_indexes_are_refused) {
  BOOST_TEST(
      (error_of("9223372036854775808:uint8") == mem::input_spec_error{mem::input_spec_errc::too_many_elements, 0}));
  BOOST_TEST(
      (error_of("4294967296x4294967296:uint8") == mem::input_spec_error{mem::input_spec_errc::too_many_elements, 0}));
  // 2^62 elements fit; their 8-byte elements do not.
  BOOST_TEST(mem::parse_input_spec("4611686018427387904:uint8").has_value());
  BOOST_TEST(
      (error_of("4611686018427387904:int64") == mem::input_spec_error{mem::input_spec_errc::too_many_elements, 0}));
}

BOOST_AUTO_TEST_CASE(the_words_name_the_problem_and_its_column) {
  BOOST_TEST(iteragpu::report::describe(error_of("8x0:int64")) ==
             "has a size that is not a positive integer at column 3");
  BOOST_TEST(iteragpu::report::describe(error_of("8x512")) == "has no ':DTYPE'");
  BOOST_TEST(iteragpu::report::describe(error_of("8:long")) == "has an unknown dtype at column 3");
}

BOOST_AUTO_TEST_SUITE_END()
