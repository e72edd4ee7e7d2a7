#ifndef ITERAGPU_CHECKED_HPP
#define ITERAGPU_CHECKED_HPP

#include <concepts>
#include <limits>
#include <optional>
#include <utility>

/// \file
/// Arithmetic that checks instead of wrapping or truncating. Every check has
/// one shape: the value, or an empty optional when it does not fit (the only
/// way these can fail, so there is no reason to carry).
namespace iteragpu {

/// Checked arithmetic on unsigned integers: an empty optional instead of a
/// wrapped value.
template <std::unsigned_integral T>
[[nodiscard]] constexpr std::optional<T> checked_add(T a, T b) noexcept {
  if (a > std::numeric_limits<T>::max() - b) {
    return std::nullopt;
  }
  return static_cast<T>(a + b);
}

/// a x b, or an empty optional when the product wraps.
template <std::unsigned_integral T>
[[nodiscard]] constexpr std::optional<T> checked_mul(T a, T b) noexcept {
  if (a != 0 && b > std::numeric_limits<T>::max() / a) {
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
