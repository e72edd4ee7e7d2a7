// The strict integer parser, pinned at compile time; the overflow cases
// came from the fuzz harnesses (tests/fuzz).
#include <cstdint>

#include <iteragpu/parse.hpp>
#include <iteragpu/units.hpp>

namespace {

using iteragpu::decimal_errc;
using iteragpu::exact_decimal;
using iteragpu::number_errc;
using iteragpu::parse_unsigned;

static_assert(parse_unsigned("0").value() == 0);
static_assert(parse_unsigned("0007").value() == 7);
static_assert(parse_unsigned("18446744073709551615").value() == UINT64_MAX);
static_assert(parse_unsigned("00018446744073709551615").value() == UINT64_MAX);
static_assert(parse_unsigned("18446744073709551616").error() == number_errc::too_large);
static_assert(parse_unsigned("").error() == number_errc::empty);
static_assert(parse_unsigned("+7").error() == number_errc::not_a_number);
static_assert(parse_unsigned("7 ").error() == number_errc::not_a_number);

// Text that is not a number is reported as such even when its digits alone
// would overflow.
static_assert(parse_unsigned("99999999999999999999x").error() == number_errc::not_a_number);
static_assert(exact_decimal::parse("184466666666666666666x").error() == decimal_errc::malformed);
static_assert(exact_decimal::parse("184466666666666666666.5x").error() == decimal_errc::malformed);

// One decimal reading for money and exact decimals: the whole part and the
// digits after the point, as written.
static_assert(iteragpu::parse_decimal_digits("1728.50").value().whole == 1728);
static_assert(iteragpu::parse_decimal_digits("1728.50").value().fraction == "50");
static_assert(iteragpu::parse_decimal_digits("1728.").error() == number_errc::not_a_number);
static_assert(iteragpu::parse_decimal_digits(".5").error() == number_errc::not_a_number);

// Bytes in a KiB, MiB and GiB.
static_assert(iteragpu::kibibyte == 1'024U && iteragpu::mebibyte == 1'048'576U && iteragpu::gibibyte == 1'073'741'824U);

}  // namespace
