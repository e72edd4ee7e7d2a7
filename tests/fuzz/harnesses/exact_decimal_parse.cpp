// exact_decimal::parse against an independent oracle (`digits` or
// `digits.digits`, a 64-bit whole part, at most 40 fraction digits), then
// the parsed value through to_string, parse again and checked_add.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <iteragpu/parse.hpp>
#include <iteragpu/units.hpp>

#include "fuzz_input.hpp"

namespace {

using iteragpu::decimal_errc;
using iteragpu::exact_decimal;

[[nodiscard]] bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), iteragpu::is_digit);
}

[[nodiscard]] std::string_view strip_leading_zeros(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view{"0"} : digits.substr(first);
}

[[nodiscard]] std::string_view strip_trailing_zeros(std::string_view digits) {
  const auto last = digits.find_last_not_of('0');
  return last == std::string_view::npos ? std::string_view{} : digits.substr(0, last + 1);
}

[[nodiscard]] bool fits_64_bits(std::string_view digits) {
  constexpr std::string_view max = "18446744073709551615";
  const auto s = strip_leading_zeros(digits);
  return s.size() < max.size() || (s.size() == max.size() && s <= max);
}

struct oracle {
  bool accepted{false};
  decimal_errc error{decimal_errc::empty};
  std::string canonical;  // the shortest form, when accepted
};

[[nodiscard]] oracle expected(std::string_view text) {
  if (text.empty()) {
    return {false, decimal_errc::empty, {}};
  }
  const auto point = text.find('.');
  const auto whole = text.substr(0, point);
  const auto fraction = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
  if (!all_digits(whole) || (point != std::string_view::npos && !all_digits(fraction))) {
    return {false, decimal_errc::malformed, {}};
  }
  if (!fits_64_bits(whole)) {
    return {false, decimal_errc::too_large, {}};
  }
  if (fraction.size() > exact_decimal::max_fraction_digits) {
    return {false, decimal_errc::too_many_fraction_digits, {}};
  }
  std::string canonical(strip_leading_zeros(whole));
  const auto significant_fraction = strip_trailing_zeros(fraction);
  if (!significant_fraction.empty()) {
    canonical.push_back('.');
    canonical.append(significant_fraction);
  }
  return {true, decimal_errc::empty, canonical};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  const auto parsed = exact_decimal::parse(text);
  const oracle want = expected(text);
  fuzz::require(parsed.has_value() == want.accepted, "accepts exactly the plain decimals that fit");
  if (!parsed) {
    fuzz::require(parsed.error() == want.error, "the error names what is wrong");
    return 0;
  }
  const exact_decimal& d = parsed.value();
  const std::string shown = d.to_string();
  fuzz::require(shown == want.canonical, "to_string is the shortest exact form");
  const auto again = exact_decimal::parse(shown);
  fuzz::require(again.has_value() && again.value() == d, "to_string parses back to the same value");

  const auto plus_zero = checked_add(d, exact_decimal{});
  fuzz::require(plus_zero.has_value() && *plus_zero == d, "adding zero changes nothing");
  // d + d: the whole part doubles, plus one when the fraction is at least
  // one half; the sum fails exactly when that passes 64 bits (d >= 2^63).
  const auto doubled = checked_add(d, d);
  constexpr std::uint64_t two_to_63 = std::uint64_t{1} << 63U;
  fuzz::require(doubled.has_value() == (d.whole() < two_to_63), "doubling fails only past 64 bits");
  if (doubled) {
    const auto point = shown.find('.');
    const std::uint64_t carry = point != std::string::npos && shown.at(point + 1) >= '5' ? 1U : 0U;
    fuzz::require(doubled->whole() == 2U * d.whole() + carry, "doubling carries from the fraction");
    fuzz::require(doubled->fraction_digits() <= d.fraction_digits(), "doubling adds no fraction digits");
  }
  return 0;
}
