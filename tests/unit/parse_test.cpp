// parse_unsigned: the digits 0-9 only, up to 2^64 - 1.
#include <iteragpu/parse.hpp>

#include <cstdint>

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

BOOST_AUTO_TEST_SUITE_END()
