#ifndef ITERAGPU_RESULT_HPP
#define ITERAGPU_RESULT_HPP

#include <cassert>
#include <concepts>
#include <optional>
#include <type_traits>
#include <utility>

/// \file
/// The one error model of the library: a value or the reason there is none.
/// libstdc++ 12 has no std::expected, so this is the part of its interface
/// the library needs, with the same names and meanings, usable in constant
/// expressions. A failure is built with `unexpected{reason}`, so that the
/// value and the error may be of the same type (`result<std::string,
/// std::string>`). No exception comes out of here: reading the value of a failure, or
/// the error of a success, breaks a precondition, which an assertion checks
/// in debug builds and which, in a constant expression, fails to compile.
namespace iteragpu {

/// The error side of a result, as std::unexpected.
template <class E>
class unexpected {
 public:
  /// Holds `error` as the reason of a failure.
  // cppcheck-suppress passedByValue ; a sink parameter, moved into place
  constexpr explicit unexpected(E error) noexcept(noexcept(E{std::declval<E&&>()})) : error_(std::move(error)) {}

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

/// A value of type `T`, or the reason `E` there is none: the part of std::expected the library needs.
/// Each side is a std::optional, exactly one of them engaged, so that every
/// access is a plain read that raises no exception: reading the wrong side
/// breaks a precondition.
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
      : value_(std::in_place, std::forward<U>(value)) {}

  ///@{
  /// A failure, from `unexpected{reason}`: implicit, as std::expected's.
  template <class G>
    requires std::constructible_from<E, const G&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(const unexpected<G>& failure)  // NOLINT(google-explicit-constructor)
      : error_(std::in_place, failure.error()) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : error_(std::in_place, std::move(failure).error()) {}
  ///@}

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return value_.has_value(); }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  ///@{
  /// The value, after has_value() was tested, as std::expected's operator*.
  /// Precondition: has_value(); checked by an assertion in debug builds, and
  /// in a constant expression a failure fails to compile.
  [[nodiscard]] constexpr const T& value() const& noexcept { return **this; }
  [[nodiscard]] constexpr T& value() & noexcept { return **this; }
  [[nodiscard]] constexpr T&& value() && noexcept { return *std::move(*this); }
  ///@}

  ///@{
  /// The value, after has_value() was tested. Precondition: has_value()
  /// (see value()).
  [[nodiscard]] constexpr const T& operator*() const& noexcept { return *success(); }
  [[nodiscard]] constexpr T& operator*() & noexcept { return *success(); }
  [[nodiscard]] constexpr T&& operator*() && noexcept { return std::move(*success()); }
  [[nodiscard]] constexpr const T* operator->() const noexcept { return success(); }
  [[nodiscard]] constexpr T* operator->() noexcept { return success(); }
  ///@}

  ///@{
  /// The error, after has_value() was tested false. Precondition: !has_value(),
  /// checked as value()'s.
  [[nodiscard]] constexpr const E& error() const& noexcept { return *failure(); }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::move(*failure()); }
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
  // The engaged side, where the precondition holds. std::optional's
  // operator* checks nothing that raises an exception; in a constant expression,
  // reading an empty one is not a constant, so the mistake fails to compile.
  [[nodiscard]] constexpr const T* success() const noexcept {
    assert(has_value() && "iteragpu::result: the value of a failure was read");
    return value_.operator->();
  }
  [[nodiscard]] constexpr T* success() noexcept {
    assert(has_value() && "iteragpu::result: the value of a failure was read");
    return value_.operator->();
  }
  [[nodiscard]] constexpr const E* failure() const noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return error_.operator->();
  }
  [[nodiscard]] constexpr E* failure() noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return error_.operator->();
  }

  std::optional<T> value_;  // engaged for a success
  std::optional<E> error_;  // engaged for a failure
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
      : error_(failure.error()) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : error_(std::move(failure).error()) {}
  ///@}

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return !error_.has_value(); }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  /// Nothing to read, as std::expected<void, E>'s. Precondition: has_value(),
  /// checked as result<T, E>::value()'s.
  constexpr void value() const noexcept { assert(has_value() && "iteragpu::result: the value of a failure was read"); }

  ///@{
  /// The reason of the failure, after has_value() was tested false. Precondition:
  /// !has_value(), checked as result<T, E>::error()'s.
  [[nodiscard]] constexpr const E& error() const& noexcept { return *failure(); }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::move(*failure()); }
  ///@}

  /// Equal when both are successes, or both failures with equal reasons.
  friend constexpr bool operator==(const result&, const result&) = default;

 private:
  // std::optional's operator* reads the held value with no check that raises
  // an exception; in a constant expression, reading an empty one fails to compile.
  [[nodiscard]] constexpr const E* failure() const noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return error_.operator->();
  }
  [[nodiscard]] constexpr E* failure() noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return error_.operator->();
  }

  std::optional<E> error_;
};

}  // namespace iteragpu

#endif  // ITERAGPU_RESULT_HPP
