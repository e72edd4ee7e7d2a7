#ifndef ITERAGPU_PARSE_HPP
#define ITERAGPU_PARSE_HPP

#include <cstdint>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The one strict reading of an unsigned integer, and of an unsigned decimal,
/// that every input takes.
namespace iteragpu {

/// Why a text is not an unsigned integer.
enum class number_errc {
  empty,         ///< no characters at all
  not_a_number,  ///< anything but the digits 0-9 (signs, spaces, points, letters)
  too_large,     ///< does not fit 64 bits
};

/// Whether `c` is one of the ASCII digits 0-9.
[[nodiscard]] constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

/// Digits only, no sign, no spaces, no base prefix: the strict form every
/// integer input of the library and its programs takes.
[[nodiscard]] constexpr result<std::uint64_t, number_errc> parse_unsigned(std::string_view text) noexcept {
  if (text.empty()) {
    return unexpected{number_errc::empty};
  }
  // Every character is checked before any overflow, so that text that is
  // not a number ("99999999999999999999x") is reported as such, not as too
  // large.
  for (const char c : text) {
    if (!is_digit(c)) {
      return unexpected{number_errc::not_a_number};
    }
  }
  std::uint64_t value = 0;
  for (const char c : text) {
    const auto times_ten = checked_mul<std::uint64_t>(value, 10);
    if (!times_ten) {
      return unexpected{number_errc::too_large};
    }
    const auto next = checked_add<std::uint64_t>(*times_ten, static_cast<std::uint64_t>(c - '0'));
    if (!next) {
      return unexpected{number_errc::too_large};
    }
    value = *next;
  }
  return value;
}

/// A decimal number as written: its whole part and the digits after its
/// point, kept as text for the caller to bound (money takes two, an exact
/// decimal forty).
struct decimal_digits {
  std::uint64_t whole{0};     ///< the whole part, as parse_unsigned() reads it
  std::string_view fraction;  ///< the digits after the point, none when there is no point
};

/// `digits` or `digits.digits`, as parse_unsigned() reads an integer: no
/// sign, exponent, spaces or bare point (`not_a_number`); the one reading
/// of a decimal that money and exact decimals share.
[[nodiscard]] constexpr result<decimal_digits, number_errc> parse_decimal_digits(std::string_view text) noexcept {
  if (text.empty()) {
    return unexpected{number_errc::empty};
  }
  const auto point = text.find('.');
  const std::string_view whole_text = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
  if (whole_text.empty() || (point != std::string_view::npos && fraction.empty())) {
    return unexpected{number_errc::not_a_number};
  }
  for (const char c : fraction) {
    if (!is_digit(c)) {
      return unexpected{number_errc::not_a_number};
    }
  }
  const auto whole = parse_unsigned(whole_text);
  if (!whole) {
    return unexpected{whole.error() == number_errc::too_large ? number_errc::too_large : number_errc::not_a_number};
  }
  return decimal_digits{*whole, fraction};
}

}  // namespace iteragpu

#endif  // ITERAGPU_PARSE_HPP
