#ifndef ITERAGPU_ERROR_CODE_HPP
#define ITERAGPU_ERROR_CODE_HPP

#include <concepts>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

/// \file
/// A kind of failure as a std::error_code, for the interfaces that carry
/// only a code, such as Boost.JSON's `try_value_to()` (the readers of
/// memory/files/ and report/compare.hpp convert that way). The code's
/// value is the kind plus one (0 is success to std::error_code), its
/// category is named by the enumeration, and its message is the kind's
/// name. The library's own error values carry more than their kind (the
/// row, the key, the value found); a code keeps the kind only.
namespace iteragpu {

/// An enumeration of failure kinds that can travel as a std::error_code:
/// `name_of(kind)` names a kind and `failure_category_name(kind)` the
/// enumeration, both found by argument-dependent lookup.
template <class E>
concept failure_kind = std::is_enum_v<E> && requires(E kind) {
  { name_of(kind) } -> std::convertible_to<std::string_view>;
  { failure_category_name(kind) } -> std::convertible_to<const char*>;
};

namespace detail {

// The std::error_category of the kinds `E`.
template <failure_kind E>
class failure_category final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return failure_category_name(E{}); }
  [[nodiscard]] std::string message(int value) const override {
    return std::string(name_of(static_cast<E>(value - 1)));
  }
};

}  // namespace detail

/// The category of the kinds `E`, one object in a program.
template <failure_kind E>
[[nodiscard]] const std::error_category& failure_category() noexcept {
  static const detail::failure_category<E> category;
  return category;
}

/// `kind` as a std::error_code, never 0: its value is the kind plus one.
template <failure_kind E>
[[nodiscard]] std::error_code to_error_code(E kind) noexcept {
  return {static_cast<int>(kind) + 1, failure_category<E>()};
}

}  // namespace iteragpu

#endif  // ITERAGPU_ERROR_CODE_HPP
