#ifndef ITERAGPU_DETAIL_RESULT_HPP
#define ITERAGPU_DETAIL_RESULT_HPP

#include <stdexcept>
#include <utility>
#include <variant>

namespace iteragpu {

// A value or the reason there is none. C++20 has no std::expected; this is
// the small part of it the library needs, usable in constant expressions.
template <class T, class E>
class [[nodiscard]] result {
 public:
  // Implicit on purpose, like std::expected's: `return value;` and
  // `return error;` both build a result.
  // cppcheck-suppress noExplicitConstructor
  constexpr result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  // cppcheck-suppress noExplicitConstructor
  constexpr result(E error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] constexpr bool has_value() const noexcept { return state_.index() == 0; }
  constexpr explicit operator bool() const noexcept { return has_value(); }

  // Reading the value of a failed result throws: in a constant expression
  // this makes the expression ill-formed, so the mistake fails to compile.
  [[nodiscard]] constexpr const T& value() const& {
    if (!has_value()) {
      throw std::logic_error("iteragpu::result::value() called on an error");
    }
    return std::get<0>(state_);
  }
  [[nodiscard]] constexpr T&& value() && {
    if (!has_value()) {
      throw std::logic_error("iteragpu::result::value() called on an error");
    }
    return std::get<0>(std::move(state_));
  }
  [[nodiscard]] constexpr const E& error() const& {
    if (has_value()) {
      throw std::logic_error("iteragpu::result::error() called on a value");
    }
    return std::get<1>(state_);
  }

 private:
  std::variant<T, E> state_;
};

}  // namespace iteragpu

#endif  // ITERAGPU_DETAIL_RESULT_HPP
