#ifndef ITERAGPU_RESULT_HPP
#define ITERAGPU_RESULT_HPP

#include <cassert>
#include <concepts>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

/// \file
/// The one error model of the library: a value or the reason there is none.
/// libstdc++ 12 has no std::expected, so this is the part of its interface
/// the library needs, with the same names and meanings, usable in constant
/// expressions. A failure is built with `unexpected{reason}`, so that the
/// value and the error may be of the same type (`result<std::string,
/// std::string>`). No exception comes out of here. `value()` is checked in
/// every build: a failure's value() ends the program (std::abort), where
/// std::expected's would throw bad_expected_access. `operator*`, `->` and
/// `error()` are unchecked, as std::expected's: reading the value of a
/// failure, or the error of a success, breaks a precondition, which an
/// assertion checks in debug builds. In a constant expression, either
/// mistake fails to compile.
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

namespace detail {

/// Which side of a result's storage is built.
struct success_side {};
/// Which side of a result's storage is built.
struct failure_side {};
/// The value side of a `result<void, E>`: nothing.
struct no_value {
  /// All alike.
  friend constexpr bool operator==(no_value, no_value) noexcept = default;
};

/// The storage of a result: a value or an error, one of them alive, which
/// the result tracks. Its owner builds it through a side's constructor and
/// ends the live member's lifetime itself.
template <class T, class E>
union either {
  T value;  ///< alive for a success
  E error;  ///< alive for a failure

  /// Builds the value from `args`.
  template <class... A>
  constexpr explicit either(success_side /*side*/, A&&... args) : value(std::forward<A>(args)...) {}
  /// Builds the error from `args`.
  template <class... A>
  constexpr explicit either(failure_side /*side*/, A&&... args) : error(std::forward<A>(args)...) {}
  either(const either&) = delete;
  either(either&&) = delete;
  either& operator=(const either&) = delete;
  either& operator=(either&&) = delete;
  /// Ends no member's lifetime: the owner does.
  constexpr ~either() {}  // NOLINT(modernize-use-equals-default): not trivial for members that are not
};

// A side whose move construction is declared noexcept: the assignments
// need one, since they end the old side before the new one is moved in.
template <class T>
concept moves_without_failing = std::move_constructible<T> && noexcept(T(std::declval<T&&>()));

}  // namespace detail

/// A value of type `T`, or the reason `E` there is none: the part of std::expected the library needs.
/// The value and the error share one storage, exactly one of them alive, so
/// that every access is a plain read that raises no exception: reading the
/// wrong side breaks a precondition. Copyable and movable when both sides are;
/// assignable when, in addition, both move with a noexcept constructor.
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
      : both_(detail::success_side{}, std::forward<U>(value)), ok_(true) {}

  ///@{
  /// A failure, from `unexpected{reason}`: implicit, as std::expected's.
  template <class G>
    requires std::constructible_from<E, const G&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(const unexpected<G>& failure)  // NOLINT(google-explicit-constructor)
      : both_(detail::failure_side{}, failure.error()) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : both_(detail::failure_side{}, std::move(failure).error()) {}
  ///@}

  ///@{
  /// A copy of the side `other` holds.
  constexpr result(const result& other)
    requires std::copy_constructible<T> && std::copy_constructible<E>
      : both_(other.ok_ ? storage(detail::success_side{}, other.value_side())
                        : storage(detail::failure_side{}, other.error_side())),
        ok_(other.ok_) {}
  constexpr result(result&& other) noexcept(detail::moves_without_failing<T> && detail::moves_without_failing<E>)
    requires std::move_constructible<T> && std::move_constructible<E>
      : both_(other.ok_ ? storage(detail::success_side{}, std::move(other.value_side()))
                        : storage(detail::failure_side{}, std::move(other.error_side()))),
        ok_(other.ok_) {}
  ///@}

  ///@{
  /// Holds a copy of the side `other` holds. If that copy fails with an
  /// exception, this result is unchanged. Only for sides whose move is noexcept: the
  /// old side ends before the new one is moved in. Not in a constant
  /// expression.
  result& operator=(const result& other)
    requires std::copy_constructible<T> && std::copy_constructible<E> && detail::moves_without_failing<T> &&
             detail::moves_without_failing<E>
  {
    if (this != &other) {
      result copy(other);
      rebuild_from(std::move(copy));
    }
    return *this;
  }
  result& operator=(result&& other) noexcept
    requires detail::moves_without_failing<T> && detail::moves_without_failing<E>
  {
    if (this != &other) {
      rebuild_from(std::move(other));
    }
    return *this;
  }
  ///@}

  /// Ends the life of the side it holds.
  constexpr ~result() { end_side(); }

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return ok_; }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  ///@{
  /// The value, checked in every build: a failure's value() ends the
  /// program (std::abort), where std::expected's throws; in a constant
  /// expression it fails to compile.
  /// in a constant expression a failure fails to compile.
  [[nodiscard]] constexpr const T& value() const& noexcept { return (require_value(), value_side()); }
  [[nodiscard]] constexpr T& value() & noexcept { return (require_value(), value_side()); }
  [[nodiscard]] constexpr T&& value() && noexcept { return (require_value(), std::move(value_side())); }
  ///@}

  ///@{
  /// The value, after has_value() was tested. Precondition: has_value(),
  /// checked by an assertion in debug builds (value() checks it always).
  [[nodiscard]] constexpr const T& operator*() const& noexcept { return *success(); }
  [[nodiscard]] constexpr T& operator*() & noexcept { return *success(); }
  [[nodiscard]] constexpr T&& operator*() && noexcept { return std::move(*success()); }
  [[nodiscard]] constexpr const T* operator->() const noexcept { return success(); }
  [[nodiscard]] constexpr T* operator->() noexcept { return success(); }
  ///@}

  ///@{
  /// The error, after has_value() was tested false. Precondition: !has_value(),
  /// checked by an assertion in debug builds.
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
  friend constexpr bool operator==(const result& a, const result& b)
    requires std::equality_comparable<T> && std::equality_comparable<E>
  {
    if (a.ok_ != b.ok_) {
      return false;
    }
    return a.ok_ ? a.value_side() == b.value_side() : a.error_side() == b.error_side();
  }

 private:
  using storage = detail::either<T, E>;

  // value()'s check, in every build.
  constexpr void require_value() const noexcept {
    if (!has_value()) {
      std::abort();
    }
  }

  // The live side, where the precondition holds. In a constant expression,
  // reading the side that is not alive is not a constant, so the mistake
  // fails to compile.
  [[nodiscard]] constexpr const T* success() const noexcept {
    assert(has_value() && "iteragpu::result: the value of a failure was read");
    return &value_side();
  }
  [[nodiscard]] constexpr T* success() noexcept {
    assert(has_value() && "iteragpu::result: the value of a failure was read");
    return &value_side();
  }
  [[nodiscard]] constexpr const E* failure() const noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return &error_side();
  }
  [[nodiscard]] constexpr E* failure() noexcept {
    assert(!has_value() && "iteragpu::result: the error of a success was read");
    return &error_side();
  }

  // The one place the storage's members are read.
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-union-access)
  [[nodiscard]] constexpr const T& value_side() const noexcept { return both_.value; }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-union-access)
  [[nodiscard]] constexpr T& value_side() noexcept { return both_.value; }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-union-access)
  [[nodiscard]] constexpr const E& error_side() const noexcept { return both_.error; }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-union-access)
  [[nodiscard]] constexpr E& error_side() noexcept { return both_.error; }

  constexpr void end_side() noexcept {
    if (ok_) {
      value_side().~T();
    } else {
      error_side().~E();
    }
  }

  // This result becomes `other`'s side, moved: the assignments ask for
  // sides whose move is noexcept (the copy assignment moves its own
  // copy), so nothing is left half-built. A new result in place of this
  // one, so not in a constant expression.
  void rebuild_from(result&& other) noexcept {
    this->~result();
    ::new (static_cast<void*>(this)) result(std::move(other));
  }

  storage both_;
  bool ok_{false};
};

/// Success with nothing to return, or the reason for the failure.
template <class E>
class [[nodiscard]] result<void, E> {
 public:
  using value_type = void;  ///< No value: a success only says that nothing failed.
  using error_type = E;     ///< The type of the reason of a failure.

  /// A success.
  constexpr result() noexcept : inner_(detail::no_value{}) {}

  ///@{
  /// A failure, from `unexpected{reason}`: implicit, as std::expected's.
  template <class G>
    requires std::constructible_from<E, const G&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(const unexpected<G>& failure)  // NOLINT(google-explicit-constructor)
      : inner_(failure) {}

  template <class G>
    requires std::constructible_from<E, G&&>
  // cppcheck-suppress noExplicitConstructor
  constexpr result(unexpected<G>&& failure)  // NOLINT(google-explicit-constructor)
      : inner_(std::move(failure)) {}
  ///@}

  /// Whether this is a success.
  [[nodiscard]] constexpr bool has_value() const noexcept { return inner_.has_value(); }
  /// has_value(), for `if (r)`.
  constexpr explicit operator bool() const noexcept { return has_value(); }

  /// Nothing to read; checked by result<T, E>'s: a failure's value() ends the program.
  constexpr void value() const noexcept { static_cast<void>(inner_.value()); }

  ///@{
  /// The error, after has_value() was tested false. Precondition:
  /// !has_value(); checked by an assertion in debug builds.
  [[nodiscard]] constexpr const E& error() const& noexcept { return inner_.error(); }
  [[nodiscard]] constexpr E&& error() && noexcept { return std::move(inner_).error(); }
  ///@}

  /// Equal when both are successes, or both failures with equal reasons.
  friend constexpr bool operator==(const result& a, const result& b)
    requires std::equality_comparable<E>
  {
    return a.inner_ == b.inner_;
  }

 private:
  result<detail::no_value, E> inner_;
};

}  // namespace iteragpu

#endif  // ITERAGPU_RESULT_HPP
