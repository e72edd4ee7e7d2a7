#ifndef ITERAGPU_PARSE_HPP
#define ITERAGPU_PARSE_HPP

#include <cstdint>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The one strict reading of an unsigned integer that every input takes.
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

}  // namespace iteragpu

#endif  // ITERAGPU_PARSE_HPP
