#ifndef ITERAGPU_CHECKED_HPP
#define ITERAGPU_CHECKED_HPP

#include <concepts>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

/// \file
/// Arithmetic that checks instead of wrapping or truncating. Every check has
/// one shape: the value, or an empty optional when it does not fit (the only
/// way these can fail, so there is no reason to carry).
namespace iteragpu {

/// Checked arithmetic on integers, signed or unsigned: a + b, or an empty
/// optional where the sum leaves `T`. Portable C++: each bound is a limit
/// minus an operand that cannot overflow, no compiler builtin.
template <std::integral T>
[[nodiscard]] constexpr std::optional<T> checked_add(T a, T b) noexcept {
  // Two tests, not one condition a < min - b : a > max - b, which cppcheck
  // 2.10 reads as a template's angle brackets (and crashes on).
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a < std::numeric_limits<T>::min() - b) {
        return std::nullopt;
      }
    } else if (a > std::numeric_limits<T>::max() - b) {
      return std::nullopt;
    }
  } else if (a > std::numeric_limits<T>::max() - b) {
    return std::nullopt;
  }
  return static_cast<T>(a + b);
}

/// a - b, or an empty optional where the difference leaves `T` (unsigned:
/// where b > a).
template <std::integral T>
[[nodiscard]] constexpr std::optional<T> checked_sub(T a, T b) noexcept {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0 ? a > std::numeric_limits<T>::max() + b : a < std::numeric_limits<T>::min() + b) {
      return std::nullopt;
    }
  } else if (b > a) {
    return std::nullopt;
  }
  return static_cast<T>(a - b);
}

/// a x b, or an empty optional where the product leaves `T`.
template <std::integral T>
[[nodiscard]] constexpr std::optional<T> checked_mul(T a, T b) noexcept {
  constexpr T highest = std::numeric_limits<T>::max();
  if constexpr (std::is_signed_v<T>) {
    // The bound is a limit divided by a non-zero operand, which cannot
    // overflow; the signs say which limit the product runs toward, and
    // truncation toward zero keeps each comparison exact.
    constexpr T lowest = std::numeric_limits<T>::min();
    if (a != 0 && b != 0 &&
        (a > 0 ? (b > 0 ? a > highest / b : b < lowest / a) : (b > 0 ? a < lowest / b : a < highest / b))) {
      return std::nullopt;
    }
  } else if (a != 0 && b > highest / a) {
    return std::nullopt;
  }
  return static_cast<T>(a * b);
}

/// A conversion that checks instead of truncating (after GSL's narrow): `value`
/// as a `To`, or an empty optional when `To` cannot hold it.
template <std::integral To, std::integral From>
[[nodiscard]] constexpr std::optional<To> narrow(From value) noexcept {
  if (!std::in_range<To>(value)) {
    return std::nullopt;
  }
  return static_cast<To>(value);
}

}  // namespace iteragpu

#endif  // ITERAGPU_CHECKED_HPP
