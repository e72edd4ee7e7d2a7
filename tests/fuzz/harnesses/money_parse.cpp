// money::parse_cents and money::parse_dollars against an independent
// oracle: cents are `digits`; dollars are `digits` or `digits.d` or
// `digits.dd`; both fit 64 bits of cents. Parsed amounts print as dollars
// with two decimals, and the print parses back to the same amount.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <iteragpu/parse.hpp>
#include <iteragpu/pricing/money.hpp>

#include "fuzz_input.hpp"

namespace {

using iteragpu::pricing::money;
using iteragpu::pricing::money_errc;

[[nodiscard]] bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), iteragpu::is_digit);
}

// The digits as a number when they fit 64 bits, else nothing (no overflow:
// the comparison is on the text).
[[nodiscard]] bool fits(std::string_view digits, std::uint64_t& value) {
  const auto first = digits.find_first_not_of('0');
  const std::string_view significant = first == std::string_view::npos ? std::string_view{} : digits.substr(first);
  constexpr std::string_view max = "18446744073709551615";
  if (significant.size() > max.size() || (significant.size() == max.size() && significant > max)) {
    return false;
  }
  value = 0;
  for (const char c : significant) {
    value = value * 10U + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

void check_cents(std::string_view text) {
  const auto parsed = money::parse_cents(text);
  std::uint64_t value = 0;
  if (text.empty()) {
    fuzz::require(!parsed && parsed.error() == money_errc::empty, "empty cents are empty");
  } else if (!all_digits(text)) {
    fuzz::require(!parsed && parsed.error() == money_errc::malformed, "cents with a non-digit are malformed");
  } else if (!fits(text, value)) {
    fuzz::require(!parsed && parsed.error() == money_errc::too_large, "cents past 64 bits are too large");
  } else {
    fuzz::require(parsed.has_value() && parsed.value().cents() == value, "digits are that many cents");
  }
}

void check_dollars(std::string_view text) {
  const auto parsed = money::parse_dollars(text);
  const auto point = text.find('.');
  const auto whole = text.substr(0, point);
  const auto fraction = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
  std::uint64_t dollars = 0;
  if (text.empty()) {
    fuzz::require(!parsed && parsed.error() == money_errc::empty, "empty dollars are empty");
    return;
  }
  if (!all_digits(whole) || (point != std::string_view::npos && !all_digits(fraction))) {
    fuzz::require(!parsed && parsed.error() == money_errc::malformed, "dollars not digits[.digits] are malformed");
    return;
  }
  if (!fits(whole, dollars)) {
    fuzz::require(!parsed && parsed.error() == money_errc::too_large, "whole dollars past 64 bits are too large");
    return;
  }
  if (fraction.size() > 2) {
    fuzz::require(!parsed && parsed.error() == money_errc::fraction_of_a_cent,
                  "three decimals are a fraction of a cent");
    return;
  }
  std::uint64_t cents = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    cents = cents * 10U + (i < fraction.size() ? static_cast<std::uint64_t>(fraction.at(i) - '0') : 0U);
  }
  constexpr std::uint64_t max_dollars = UINT64_MAX / 100U;
  constexpr std::uint64_t max_cents_at_max_dollars = UINT64_MAX % 100U;
  if (dollars > max_dollars || (dollars == max_dollars && cents > max_cents_at_max_dollars)) {
    fuzz::require(!parsed && parsed.error() == money_errc::too_large, "an amount past 64 bits of cents is too large");
    return;
  }
  fuzz::require(parsed.has_value() && parsed.value().cents() == dollars * 100U + cents, "dollars.cc are exact cents");
  const std::string shown = parsed.value().to_string();
  const auto again = money::parse_dollars(shown);
  fuzz::require(again.has_value() && again.value().cents() == parsed.value().cents(),
                "to_string parses back to the same amount");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  check_cents(text);
  check_dollars(text);
  return 0;
}
