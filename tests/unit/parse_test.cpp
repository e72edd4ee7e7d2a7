// parse_unsigned: the digits 0-9 only, up to 2^64 - 1; parse_decimal_digits:
// the same whole part, then the digits after one point.
#include <iteragpu/parse.hpp>

#include <cstdint>
#include <string_view>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(parse_unsigned)

BOOST_AUTO_TEST_CASE(digits_read_up_to_the_largest_64_bit_value) {
  BOOST_TEST(iteragpu::parse_unsigned("0").value() == 0U);
  BOOST_TEST(iteragpu::parse_unsigned("007").value() == 7U);
  // 2^64 - 1 = 18446744073709551615 fits; one more does not.
  BOOST_TEST(iteragpu::parse_unsigned("18446744073709551615").value() == UINT64_MAX);
  BOOST_TEST((iteragpu::parse_unsigned("18446744073709551616").error() == iteragpu::number_errc::too_large));
  BOOST_TEST((iteragpu::parse_unsigned("").error() == iteragpu::number_errc::empty));
  for (const char* bad : {"-1", "+1", " 1", "1.0", "1e3", "0x10"}) {
    BOOST_TEST((iteragpu::parse_unsigned(bad).error() == iteragpu::number_errc::not_a_number), bad);
  }
  static_assert(iteragpu::is_digit('0') && iteragpu::is_digit('9') && !iteragpu::is_digit('a'));
}

BOOST_AUTO_TEST_CASE(a_decimal_is_a_whole_part_and_the_digits_after_its_point_as_written) {
  const auto d = iteragpu::parse_decimal_digits("0012.3400");
  BOOST_TEST(d->whole == 12U);
  BOOST_TEST(d->fraction == std::string_view("3400"));  // as written: the caller bounds and reads them
  BOOST_TEST(iteragpu::parse_decimal_digits("18446744073709551615").value().fraction.empty());
  BOOST_TEST((iteragpu::parse_decimal_digits("18446744073709551616.5").error() == iteragpu::number_errc::too_large));
  BOOST_TEST((iteragpu::parse_decimal_digits("").error() == iteragpu::number_errc::empty));
  for (const char* bad : {".5", "5.", "1.2.3", "-1.5", "1.5e3", "1,5", " 1.5", "1.5 ", "9999999999999999999999x.5"}) {
    BOOST_TEST((iteragpu::parse_decimal_digits(bad).error() == iteragpu::number_errc::not_a_number), bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()
