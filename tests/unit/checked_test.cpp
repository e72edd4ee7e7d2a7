// Checked arithmetic: a sum, product or narrowing that does not fit is no
// value rather than a wrapped one.
#include <iteragpu/checked.hpp>

#include <cstdint>
#include <limits>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(checked_arithmetic)

BOOST_AUTO_TEST_CASE(sums_and_products_at_the_edge_of_the_type) {
  constexpr auto max8 = std::numeric_limits<std::uint8_t>::max();  // 255
  // 200 + 55 = 255 fits; 200 + 56 = 256 does not.
  BOOST_TEST(iteragpu::checked_add<std::uint8_t>(200, 55).value() == 255U);
  BOOST_TEST(!iteragpu::checked_add<std::uint8_t>(200, 56).has_value());
  BOOST_TEST(!iteragpu::checked_add<std::uint8_t>(max8, 1).has_value());
  // 15 * 17 = 255 fits; 16 * 16 = 256 does not; anything times 0 is 0.
  BOOST_TEST(iteragpu::checked_mul<std::uint8_t>(15, 17).value() == 255U);
  BOOST_TEST(!iteragpu::checked_mul<std::uint8_t>(16, 16).has_value());
  BOOST_TEST(iteragpu::checked_mul<std::uint8_t>(0, max8).value() == 0U);
  // 2^32 * 2^32 = 2^64 overflows 64 bits; 2^32 * (2^32 - 1) = 2^64 - 2^32 does not.
  constexpr std::uint64_t two32 = std::uint64_t{1} << 32U;
  BOOST_TEST(!iteragpu::checked_mul<std::uint64_t>(two32, two32).has_value());
  BOOST_TEST(iteragpu::checked_mul<std::uint64_t>(two32, two32 - 1).value() ==
             std::numeric_limits<std::uint64_t>::max() - (two32 - 1));
}

BOOST_AUTO_TEST_CASE(narrowing_keeps_values_in_range_of_the_target) {
  BOOST_TEST(iteragpu::narrow<std::int8_t>(127).value() == 127);
  BOOST_TEST(!iteragpu::narrow<std::int8_t>(128).has_value());
  BOOST_TEST(iteragpu::narrow<std::int8_t>(-128).value() == -128);
  BOOST_TEST(!iteragpu::narrow<std::uint32_t>(-1).has_value());  // a negative is out of any unsigned range
  BOOST_TEST(iteragpu::narrow<std::uint32_t>(std::int64_t{4'294'967'295}).value() == 4'294'967'295U);
  BOOST_TEST(!iteragpu::narrow<std::uint32_t>(std::int64_t{4'294'967'296}).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
