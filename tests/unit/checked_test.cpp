// Checked arithmetic: a sum, difference, product or narrowing that does not fit is no
// value rather than a wrapped one.
#include <iteragpu/checked.hpp>

#include <cstdint>
#include <limits>
#include <optional>

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

BOOST_AUTO_TEST_CASE(a_difference_below_zero_is_no_unsigned_value) {
  BOOST_TEST(iteragpu::checked_sub<std::uint8_t>(200, 200).value() == 0U);
  BOOST_TEST(iteragpu::checked_sub<std::uint8_t>(255, 1).value() == 254U);
  BOOST_TEST(!iteragpu::checked_sub<std::uint8_t>(0, 1).has_value());
  BOOST_TEST(!iteragpu::checked_sub<std::uint64_t>(5, 6).has_value());
}

// Every pair of 8-bit operands against the exact result in int: the check
// says "no value" exactly where the exact result leaves [-128, 127].
BOOST_AUTO_TEST_CASE(signed_sums_differences_and_products_agree_with_exact_arithmetic_on_every_8_bit_pair) {
  constexpr int lowest = -128;  // std::int8_t's limits, as int
  constexpr int highest = 127;
  const auto agrees = [](std::optional<std::int8_t> checked, int exact) {
    return exact < lowest || exact > highest ? !checked.has_value() : checked == static_cast<std::int8_t>(exact);
  };
  int disagreements = 0;
  int refused = 0;
  for (int a = lowest; a <= highest; ++a) {
    for (int b = lowest; b <= highest; ++b) {
      const auto x = static_cast<std::int8_t>(a);
      const auto y = static_cast<std::int8_t>(b);
      const auto sum = iteragpu::checked_add(x, y);
      const auto difference = iteragpu::checked_sub(x, y);
      const auto product = iteragpu::checked_mul(x, y);
      disagreements += static_cast<int>(!agrees(sum, a + b)) + static_cast<int>(!agrees(difference, a - b)) +
                       static_cast<int>(!agrees(product, a * b));
      refused += static_cast<int>(!sum) + static_cast<int>(!difference) + static_cast<int>(!product);
    }
  }
  BOOST_TEST(disagreements == 0);
  // 16,384 sums, 16,384 differences and 62,463 products (of 65,536 pairs each) leave the type.
  BOOST_TEST(refused == 16'384 + 16'384 + 62'463);
}

BOOST_AUTO_TEST_CASE(signed_64_bit_arithmetic_at_its_limits) {
  using i64 = std::int64_t;
  constexpr i64 max = std::numeric_limits<i64>::max();
  constexpr i64 min = std::numeric_limits<i64>::min();
  BOOST_TEST(iteragpu::checked_add<i64>(max - 1, 1).value() == max);
  BOOST_TEST(!iteragpu::checked_add<i64>(max, 1).has_value());
  BOOST_TEST(iteragpu::checked_add<i64>(min, max).value() == -1);
  BOOST_TEST(!iteragpu::checked_add<i64>(min, -1).has_value());
  BOOST_TEST(iteragpu::checked_sub<i64>(-1, max).value() == min);
  BOOST_TEST(!iteragpu::checked_sub<i64>(-2, max).has_value());
  BOOST_TEST(!iteragpu::checked_sub<i64>(0, min).has_value());  // -min is max + 1
  BOOST_TEST(iteragpu::checked_sub<i64>(-1, min).value() == max);
  BOOST_TEST(!iteragpu::checked_mul<i64>(min, -1).has_value());
  BOOST_TEST(iteragpu::checked_mul<i64>(max, -1).value() == min + 1);
  // 3037000499^2 = 9223372030926249001 fits; 3037000500^2 does not.
  BOOST_TEST(iteragpu::checked_mul<i64>(-3'037'000'499, -3'037'000'499).value() == 9'223'372'030'926'249'001);
  BOOST_TEST(!iteragpu::checked_mul<i64>(-3'037'000'500, -3'037'000'500).has_value());
  BOOST_TEST(iteragpu::checked_mul<i64>(min / 2, 2).value() == min);
  BOOST_TEST(!iteragpu::checked_mul<i64>(min / 2 - 1, 2).has_value());
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
