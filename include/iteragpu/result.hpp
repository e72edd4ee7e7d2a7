#ifndef ITERAGPU_RESULT_HPP
#define ITERAGPU_RESULT_HPP

#include <concepts>
#include <exception>
#include <type_traits>
#include <utility>
#include <variant>

/// \file
/// The one error model of the library: a value or the reason there is none.
/// libstdc++ 12 has no std::expected, so this is the part of its interface
/// the library needs, with the same names and meanings, usable in constant
/// expressions. A failure is built with `unexpected{reason}`, so that the
/// value and the error may be of the same type (`result<std::string,
/// std::string>`).
namespace iteragpu {

/// The error side of a result, as std::unexpected.
template <class E>
class unexpected {
 public:
  /// Holds `error` as the reason of a failure.
  // cppcheck-suppress passedByValue ; a sink parameter, moved into place
  constexpr explicit unexpected(E error) noexcept(std::is_nothrow_move_constructible_v<E>) : error_(std::move(error)) {}

  ///@{
  /// The reason of the failure.
  [[nodiscard]] constexpr const E& error() const& noexcept { return error_; }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::move(error_); }
  ///@}

 private:
  E error_;
};

/// `unexpected{reason}` deduces the error type from the reason.
template <class E>
unexpected(E) -> unexpected<E>;

/// Thrown by value() on a failed result: a caller that did not look. In a constant expression the throw
/// makes the expression ill-formed, so the mistake fails to compile.
class bad_result_access : public std::exception {
 public:
  /// Says which mistake was made, for a message.
  [[nodiscard]] const char* what() const noexcept override {
    return "iteragpu::result: the value of a failed result, or the error of a successful one, was read";
  }
};

/// A value of type `T`, or the reason `E` there is none: the part of std::expected the library needs.
template <class T, class E>
class [[nodiscard]] result {
 public:
  using value_type = T;  ///< The type of the value of a success.
  using error_type = E;  ///< The type of the reason of a failure.

  /// Implicit, as std::expected's: `return value;` builds a success.
  template <class U = T>
    requires std::constructible_from<T, U&&> && (!std::same_as<std::remove_cvref_t<U>, result>) &&
             (!std::same_as<std::remove_cvref_t<U>, unexpected<E>>)
  // cppcheck-suppress noExplicitConstructor
  constexpr result(U&& value)  // NOLINT(google-explicit-constructor,bugprone-forwarding-reference-overload)
      : state_(std::in_place_index<0>, std::forward<U>(value)) {}

  ///@{
  /// A failure, from `unexpected{reason}`: implicit, as std::expected's.
  template <class G>
    requires std::constructible_from<E, const G&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(const unexpected<G>& failure)  // NOLINT(google-explicit-constructor)
      : state_(std::in_place_index<1>, failure.error()) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : state_(std::in_place_index<1>, std::move(failure).error()) {}
  ///@}

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return state_.index() == 0; }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  ///@{
  /// Checked access: bad_result_access when there is no value.
  [[nodiscard]] constexpr const T& value() const& {
    if (!has_value()) {
      throw bad_result_access();
    }
    return std::get<0>(state_);
  }
  [[nodiscard]] constexpr T& value() & {
    if (!has_value()) {
      throw bad_result_access();
    }
    return std::get<0>(state_);
  }
  [[nodiscard]] constexpr T&& value() && {
    if (!has_value()) {
      throw bad_result_access();
    }
    return std::get<0>(std::move(state_));
  }
  ///@}

  ///@{
  /// Access after has_value() was tested, as std::expected's. Reading a
  /// value that is not there is a bug that ends the program
  /// (std::bad_variant_access out of a noexcept function), never a wrong
  /// value.
  [[nodiscard]] constexpr const T& operator*() const& noexcept { return std::get<0>(state_); }
  [[nodiscard]] constexpr T& operator*() & noexcept { return std::get<0>(state_); }
  [[nodiscard]] constexpr T&& operator*() && noexcept { return std::get<0>(std::move(state_)); }
  [[nodiscard]] constexpr const T* operator->() const noexcept { return &std::get<0>(state_); }
  [[nodiscard]] constexpr T* operator->() noexcept { return &std::get<0>(state_); }
  ///@}

  ///@{
  /// The error, after has_value() was tested false, as std::expected's:
  /// reading the error of a success ends the program (see operator*).
  [[nodiscard]] constexpr const E& error() const& noexcept { return std::get<1>(state_); }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::get<1>(std::move(state_)); }
  ///@}

  ///@{
  /// The value of a success, else `fallback` converted to `T`.
  template <class U>
    requires std::convertible_to<U&&, T>
  [[nodiscard]] constexpr T value_or(U&& fallback) const& {
    return has_value() ? **this : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
    requires std::convertible_to<U&&, T>
  [[nodiscard]] constexpr T value_or(U&& fallback) && {
    return has_value() ? std::move(**this) : static_cast<T>(std::forward<U>(fallback));
  }
  ///@}

  /// Equal when both are successes with equal values, or both failures with equal reasons.
  friend constexpr bool operator==(const result&, const result&) = default;

 private:
  std::variant<T, E> state_;
};

/// Success with nothing to return, or the reason for the failure.
template <class E>
class [[nodiscard]] result<void, E> {
 public:
  using value_type = void;  ///< No value: a success only says that nothing failed.
  using error_type = E;     ///< The type of the reason of a failure.

  /// A success.
  constexpr result() noexcept = default;

  ///@{
  /// A failure, from `unexpected{reason}`: implicit, as std::expected's.
  template <class G>
    requires std::constructible_from<E, const G&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(const unexpected<G>& failure)  // NOLINT(google-explicit-constructor)
      : error_(std::in_place_index<1>, failure.error()) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : error_(std::in_place_index<1>, std::move(failure).error()) {}
  ///@}

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return error_.index() == 0; }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  /// Checked: throws bad_result_access on a failure.
  constexpr void value() const {
    if (!has_value()) {
      throw bad_result_access();
    }
  }

  ///@{
  /// The reason of the failure, after has_value() was tested false: reading the error of a
  /// success ends the program.
  [[nodiscard]] constexpr const E& error() const& noexcept { return std::get<1>(error_); }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::get<1>(std::move(error_)); }
  ///@}

  /// Equal when both are successes, or both failures with equal reasons.
  friend constexpr bool operator==(const result&, const result&) = default;

 private:
  std::variant<std::monostate, E> error_;
};

}  // namespace iteragpu

#endif  // ITERAGPU_RESULT_HPP
