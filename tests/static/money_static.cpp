// Money and the unit-cost decimal, pinned at compile time.
#include <concepts>
#include <cstdint>
#include <limits>

#include <iteragpu/pricing/money.hpp>

namespace {

using iteragpu::pricing::divide;
using iteragpu::pricing::fractional_cents;
using iteragpu::pricing::money;
using iteragpu::pricing::money_errc;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
constexpr money cents(std::uint64_t n) { return money::from_cents(n); }

// Formatting: dollars with two digits after the point.
static_assert(cents(0).text() == "0.00");
static_assert(cents(1).text() == "0.01");
static_assert(cents(10).text() == "0.10");
static_assert(cents(172800).text() == "1728.00");
static_assert(cents(123456).text() == "1234.56");
static_assert(cents(u64_max).text() == "184467440737095516.15");

// Parsing whole cents.
static_assert(money::parse_cents("172800").value() == cents(172800));
static_assert(money::parse_cents("0").value() == cents(0));
static_assert(money::parse_cents("18446744073709551615").value() == cents(u64_max));
static_assert(money::parse_cents("18446744073709551616").error() == money_errc::too_large);
static_assert(money::parse_cents("").error() == money_errc::empty);
static_assert(money::parse_cents("-1").error() == money_errc::malformed);
static_assert(money::parse_cents("+1").error() == money_errc::malformed);
static_assert(money::parse_cents("17.5").error() == money_errc::malformed);
static_assert(money::parse_cents(" 1").error() == money_errc::malformed);
static_assert(money::parse_cents("1e3").error() == money_errc::malformed);

// Parsing dollars.
static_assert(money::parse_dollars("1234.56").value() == cents(123456));
static_assert(money::parse_dollars("1234.5").value() == cents(123450));
static_assert(money::parse_dollars("1234").value() == cents(123400));
static_assert(money::parse_dollars("0.07").value() == cents(7));
static_assert(money::parse_dollars("184467440737095516.15").value() == cents(u64_max));
static_assert(money::parse_dollars("184467440737095516.16").error() == money_errc::too_large);
static_assert(money::parse_dollars("184467440737095517").error() == money_errc::too_large);
static_assert(money::parse_dollars("0.125").error() == money_errc::fraction_of_a_cent);
static_assert(money::parse_dollars("").error() == money_errc::empty);
static_assert(money::parse_dollars(".5").error() == money_errc::malformed);
static_assert(money::parse_dollars("5.").error() == money_errc::malformed);
static_assert(money::parse_dollars("1,234.56").error() == money_errc::malformed);
static_assert(money::parse_dollars("$5").error() == money_errc::malformed);
static_assert(money::parse_dollars("-5").error() == money_errc::malformed);
static_assert(money::parse_dollars("5.-1").error() == money_errc::malformed);

// Checked sums and products: the largest that fit, the first that do not.
static_assert((cents(172800) + cents(27)).cents() == 172827);
static_assert((cents(168000) * 2U).cents() == 336000);
static_assert((cents(u64_max - 1) + cents(1)).cents() == u64_max);
static_assert(try_add(cents(u64_max), cents(1)).error() == money_errc::overflow);
static_assert((cents(u64_max / 2) * 2U).cents() == u64_max - 1);
static_assert(try_multiply(cents(u64_max / 2 + 1), 2U).error() == money_errc::overflow);
static_assert((cents(u64_max) * 1U).cents() == u64_max);
static_assert((cents(u64_max) * 0U).cents() == 0);
static_assert(try_multiply(cents(0), u64_max).value() == cents(0));
static_assert(try_multiply(cents(3), u64_max / 3 + 1).error() == money_errc::overflow);

// Division, half to even at the fourth place of a cent.
static_assert(divide(cents(1), 32U).text() == "0.0312");  // 0.03125: tie, 2 is even
static_assert(divide(cents(3), 32U).text() == "0.0938");  // 0.09375: tie, 7 is odd
static_assert(divide(cents(5), 32U).text() == "0.1562");  // 0.15625
static_assert(divide(cents(7), 32U).text() == "0.2188");  // 0.21875
static_assert(divide(cents(1), 3U).text() == "0.3333");
static_assert(divide(cents(2), 3U).text() == "0.6667");
static_assert(divide(cents(1), 7U).text() == "0.1429");  // 0.142857...
static_assert(divide(cents(336000), 3U).text() == "112000.0000");
static_assert(divide(cents(336001), 3U).text() == "112000.3333");
static_assert(divide(cents(336002), 3U).text() == "112000.6667");
static_assert(divide(cents(172800), 1U).text() == "172800.0000");
static_assert(divide(cents(0), 5U).text() == "0.0000");
static_assert(divide(cents(19999), 20000U).text() == "1.0000");   // 0.99995: tie, 9 is odd, carries to the cent
static_assert(divide(cents(19997), 20000U).text() == "0.9998");   // 0.99985: tie, 8 is even
static_assert(divide(cents(39997), 40000U).text() == "0.9999");   // 0.999925: below the tie
static_assert(divide(cents(99999), 100000U).text() == "1.0000");  // 0.99999: above the tie, carries
static_assert(divide(cents(1), 20000U).text() == "0.0000");       // 0.00005: tie, 0 is even
static_assert(divide(cents(3), 20000U).text() == "0.0002");       // 0.00015: tie, 1 is odd
static_assert(divide(cents(1), 19999U).text() == "0.0001");       // just above the tie
static_assert(divide(cents(1), 20001U).text() == "0.0000");       // just below the tie
static_assert(divide(cents(1), u64_max).text() == "0.0000");
static_assert(divide(cents(u64_max), u64_max).text() == "1.0000");
static_assert(divide(cents(u64_max - 1), u64_max).text() == "1.0000");
static_assert(divide(cents(u64_max), 1U).text() == "18446744073709551615.0000");
static_assert(divide(cents(u64_max), 2U).text() == "9223372036854775807.5000");
static_assert(divide(cents(u64_max), 3U).text() == "6148914691236517205.0000");
static_assert(divide(cents(u64_max), 7U).text() == "2635249153387078802.1429");
// Remainders near 2^64 where ten times the remainder would not fit 64 bits.
static_assert(divide(cents(u64_max - 1), u64_max).ten_thousandths() == 0);
static_assert(divide(cents(u64_max / 2), u64_max).text() == "0.5000");
static_assert(divide(cents(u64_max / 3), u64_max).text() == "0.3333");
static_assert(divide(cents(u64_max / 3 * 2), u64_max).text() == "0.6667");
static_assert(divide(cents(1), 32U).whole_cents() == 0);
static_assert(divide(cents(1), 32U).ten_thousandths() == 312);
static_assert(try_divide(cents(1), 0U).error() == money_errc::division_by_zero);
static_assert(divide(cents(1), 3U) < divide(cents(2), 3U));

// No way in from floating point, and no implicit way in from a count.
static_assert(!std::constructible_from<money, double>);
static_assert(!std::constructible_from<money, float>);
static_assert(!std::convertible_to<std::uint64_t, money>);
static_assert(!std::constructible_from<money, std::uint64_t>);
static_assert(!std::constructible_from<fractional_cents, double>);
template <class T>
concept from_cents_takes = requires(T value) { money::from_cents(value); };
template <class T>
concept quotient_takes = requires(T value) { fractional_cents::quotient(money{}, value); };
template <class A, class B>
concept addable = requires(A a, B b) { a + b; };
// clang-format reads `a * b` here as a declaration.
// clang-format off
template <class A, class B>
concept multipliable = requires(A a, B b) { a * b; };
// clang-format on

static_assert(from_cents_takes<std::uint64_t>);
static_assert(!from_cents_takes<double>);
static_assert(!from_cents_takes<float>);
static_assert(!from_cents_takes<long double>);
static_assert(!from_cents_takes<bool>);
static_assert(!from_cents_takes<char>);
static_assert(!from_cents_takes<char8_t>);
static_assert(from_cents_takes<unsigned char>);
// An integer constant is taken whatever its type, its sign checked when
// compiled (a negative one, or a signed value at run time, is in
// tests/compile_fail: a requires-expression does not evaluate the check).
static_assert(money::from_cents(168000).cents() == 168000U);
static_assert(money::from_cents(std::int64_t{1}) == money::from_cents(1U));
static_assert(quotient_takes<std::uint64_t>);
static_assert(!quotient_takes<int>);
static_assert(!quotient_takes<bool>);
static_assert(!quotient_takes<double>);
static_assert(addable<money, money>);
static_assert(!addable<money, std::uint64_t>);
static_assert(multipliable<money, std::uint64_t>);
static_assert(!multipliable<money, money>);
static_assert(!multipliable<money, double>);
static_assert(!multipliable<money, int>);
static_assert(!multipliable<money, bool>);

}  // namespace
