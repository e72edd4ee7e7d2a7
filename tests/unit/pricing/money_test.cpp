#include <iteragpu/pricing/money.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <boost/test/unit_test.hpp>

namespace {

using iteragpu::pricing::money;
using iteragpu::pricing::money_errc;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

// Values from a run-time source, not a constant expression.
money runtime_cents(std::uint64_t n) {
  volatile std::uint64_t v = n;
  return money::from_cents(v);
}

// The run-time flavours: a sum, a product and a quotient that must succeed.
money sum(money a, money b) { return try_add(a, b).value(); }
money product(money a, std::uint64_t n) { return try_multiply(a, n).value(); }
std::string quotient_text(money a, std::uint64_t divisor) { return try_divide(a, divisor).value().to_string(); }

// Half to even at four places, computed another way: scale first, then
// divide once. Exact only while amount x 10^4 fits 64 bits, which is why the
// library does not do it this way.
std::string reference_quotient(std::uint64_t amount, std::uint64_t divisor) {
  const std::uint64_t scaled = amount * 10'000U;
  std::uint64_t q = scaled / divisor;
  const std::uint64_t r = scaled % divisor;
  if (2 * r > divisor || (2 * r == divisor && q % 2 == 1)) {
    ++q;
  }
  std::string fraction = std::to_string(q % 10'000U);
  fraction.insert(0, 4 - fraction.size(), '0');
  return std::to_string(q / 10'000U) + "." + fraction;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(money_arithmetic)

BOOST_AUTO_TEST_CASE(sums_and_products_are_exact_at_run_time) {
  BOOST_TEST(product(runtime_cents(168000), 2U).cents() == 336000U);
  BOOST_TEST(product(runtime_cents(168000), 2U).to_string() == "3360.00");
  BOOST_TEST(sum(runtime_cents(10), runtime_cents(20)).to_string() == "0.30");
  BOOST_TEST(sum(runtime_cents(u64_max - 1), runtime_cents(1)).cents() == u64_max);
  BOOST_TEST(product(runtime_cents(u64_max / 2), 2U).cents() == u64_max - 1);
}

BOOST_AUTO_TEST_CASE(overflow_is_an_error_instead_of_a_wrapped_value) {
  BOOST_TEST((try_add(runtime_cents(u64_max), runtime_cents(1)).error() == money_errc::overflow));
  BOOST_TEST((try_multiply(runtime_cents(u64_max / 2 + 1), 2U).error() == money_errc::overflow));
  BOOST_TEST((try_multiply(runtime_cents(2), u64_max / 2 + 1).error() == money_errc::overflow));
  BOOST_TEST((try_multiply(runtime_cents(168000), u64_max).error() == money_errc::overflow));
  BOOST_TEST(try_multiply(runtime_cents(0), u64_max).value().cents() == 0U);
}

BOOST_AUTO_TEST_CASE(text_round_trips_through_dollars) {
  for (const std::uint64_t cents :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{99}, std::uint64_t{100}, std::uint64_t{123456}, u64_max}) {
    const auto m = runtime_cents(cents);
    BOOST_TEST(money::parse_dollars(m.to_string()).value().cents() == cents, m.to_string());
    BOOST_TEST(money::parse_cents(std::to_string(cents)).value().cents() == cents);
  }
  BOOST_TEST(money::parse_dollars("7.5").value().cents() == 750U);
  BOOST_TEST((money::parse_dollars("0.125").error() == money_errc::fraction_of_a_cent));
  BOOST_TEST((money::parse_cents("99999999999999999999").error() == money_errc::too_large));
  BOOST_TEST((money::parse_cents("12 ").error() == money_errc::malformed));
}

BOOST_AUTO_TEST_CASE(rounding_ties_go_to_the_even_digit) {
  BOOST_TEST(quotient_text(runtime_cents(1), 32U) == "0.0312");
  BOOST_TEST(quotient_text(runtime_cents(3), 32U) == "0.0938");
  BOOST_TEST(quotient_text(runtime_cents(19999), 20000U) == "1.0000");
  BOOST_TEST(quotient_text(runtime_cents(19997), 20000U) == "0.9998");
  BOOST_TEST(quotient_text(runtime_cents(336000), 3U) == "112000.0000");
}

BOOST_AUTO_TEST_CASE(division_agrees_with_a_scaled_reference) {
  // Every amount up to 3000 cents by every divisor up to 400: all ties,
  // carries and repeating fractions of that range.
  std::uint64_t disagreements = 0;
  for (std::uint64_t amount = 0; amount <= 3000; ++amount) {
    for (std::uint64_t divisor = 1; divisor <= 400; ++divisor) {
      if (quotient_text(runtime_cents(amount), divisor) != reference_quotient(amount, divisor)) {
        ++disagreements;
        BOOST_TEST_MESSAGE(amount << " / " << divisor);
      }
    }
  }
  BOOST_TEST(disagreements == 0U);
  // Large amounts with small divisors, and the reverse.
  for (const std::uint64_t amount : {std::uint64_t{1'000'000'007}, std::uint64_t{1'844'674'407'370'955}}) {
    for (const std::uint64_t divisor :
         {std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{32}, std::uint64_t{999'983}}) {
      BOOST_TEST(quotient_text(runtime_cents(amount), divisor) == reference_quotient(amount, divisor),
                 amount << " / " << divisor);
    }
  }
}

BOOST_AUTO_TEST_CASE(division_near_64_bits_needs_no_wider_type) {
  BOOST_TEST(quotient_text(runtime_cents(u64_max), 1U) == "18446744073709551615.0000");
  BOOST_TEST(quotient_text(runtime_cents(u64_max), 7U) == "2635249153387078802.1429");
  BOOST_TEST(quotient_text(runtime_cents(u64_max - 1), u64_max) == "1.0000");
  BOOST_TEST(quotient_text(runtime_cents(u64_max / 2), u64_max) == "0.5000");
  BOOST_TEST(quotient_text(runtime_cents(u64_max / 2 + 1), u64_max) == "0.5000");
  BOOST_TEST(quotient_text(runtime_cents(1), u64_max) == "0.0000");
  BOOST_TEST(quotient_text(runtime_cents(u64_max), u64_max - 1) == "1.0000");
}

BOOST_AUTO_TEST_CASE(a_quotient_in_dollars_moves_the_point_two_places) {
  const auto in_dollars = [](money a, std::uint64_t divisor) {
    return try_divide(a, divisor).value().dollars_string();
  };
  BOOST_TEST(in_dollars(runtime_cents(1), 32U) == "0.000312");
  BOOST_TEST(in_dollars(runtime_cents(336000), 3U) == "1120.000000");
  BOOST_TEST(in_dollars(runtime_cents(4872), 168U) == "0.290000");
  BOOST_TEST(in_dollars(runtime_cents(100), 3U) == "0.333333");
  BOOST_TEST(in_dollars(runtime_cents(1234567), 10U) == "1234.567000");
  BOOST_TEST(in_dollars(runtime_cents(u64_max), 7U) == "26352491533870788.021429");
  BOOST_TEST(in_dollars(runtime_cents(u64_max), 1U) == "184467440737095516.150000");
}

BOOST_AUTO_TEST_CASE(division_by_zero_is_an_error) {
  BOOST_TEST((try_divide(runtime_cents(100), 0U).error() == money_errc::division_by_zero));
  BOOST_TEST((try_divide(runtime_cents(0), 0U).error() == money_errc::division_by_zero));
}

BOOST_AUTO_TEST_CASE(errors_are_described) {
  BOOST_TEST(std::string(describe(money_errc::overflow)).find("64 bits") != std::string::npos);
  BOOST_TEST(std::string(describe(money_errc::fraction_of_a_cent)).find("cent") != std::string::npos);
  BOOST_TEST(std::string(describe(money_errc::division_by_zero)) == "a division by zero");
}

BOOST_AUTO_TEST_SUITE_END()
