#ifndef ITERAGPU_ONE_OF_HPP
#define ITERAGPU_ONE_OF_HPP

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

/// \file
/// `one_of<Ts...>`: a value of one of a few types, the data of an error
/// whose shape depends on its code (a file's name for one code, a line and
/// a column for another).
///
/// What `std::variant` offers for that use, at a small part of its cost to
/// compile (each distinct `std::variant` is a deep tree of class templates;
/// the library's reasons hold seven of them, and every translation unit that
/// includes the umbrella paid for them): every alternative is a member,
/// built empty, and the one `index()` names is the value. The others cannot
/// be read: `get_if` gives a null pointer for them, and assigning a value
/// empties them again, so two equal values compare equal. Hence the
/// alternatives must be default-constructible (error data is: figures and
/// text), the size is the sum of theirs rather than the largest, and there
/// is no valueless state. A default `one_of` holds its first alternative,
/// empty; reasons put `std::monostate` first, for "no data".
///
///     one_of<std::monostate, line_number, file_name> where = file_name{"a.csv"};
///     if (const auto* file = where.get_if<file_name>()) { ... }   // set
///     where.get_if<line_number>();                                   // nullptr
namespace iteragpu {

namespace detail {

template <std::size_t I, class T>
struct one_of_slot {
  T item{};
};

template <class Indices, class... Ts>
struct one_of_slots;

template <std::size_t... I, class... Ts>
struct one_of_slots<std::index_sequence<I...>, Ts...> : one_of_slot<I, Ts>... {};

// How many of Ts are T: an alternative is named by its type, so it must be there once.
template <class T, class... Ts>
inline constexpr std::size_t count_of = (std::size_t{std::is_same_v<T, Ts>} + ... + 0);

// The position of T among Ts, where it is there once.
template <class T, class... Ts>
[[nodiscard]] consteval std::size_t position_of() noexcept {
  std::size_t at = 0;
  std::size_t i = 0;
  static_cast<void>(((std::is_same_v<T, Ts> ? (at = i, true) : (++i, false)) || ...));
  return at;
}

}  // namespace detail

/// One of `Ts` (each type once, each default-constructible); see the file's comment.
template <class... Ts>
  requires(sizeof...(Ts) > 0) && (std::default_initializable<Ts> && ...)
class one_of {
 public:
  /// An alternative of this `one_of`, by its type.
  template <class T>
  static constexpr bool alternative = detail::count_of<T, Ts...> == 1;

  /// The first alternative, empty.
  constexpr one_of() = default;

  /// `value`, of the alternative of its type.
  template <class T>
    requires alternative<std::remove_cvref_t<T>>
  // cppcheck-suppress noExplicitConstructor
  constexpr one_of(T&& value)  // NOLINT(google-explicit-constructor,bugprone-forwarding-reference-overload)
      : index_(detail::position_of<std::remove_cvref_t<T>, Ts...>()) {
    slot<std::remove_cvref_t<T>>() = std::forward<T>(value);
  }

  /// Now `value`; the alternative held before is emptied.
  template <class T>
    requires alternative<std::remove_cvref_t<T>>
  constexpr one_of& operator=(T&& value) {
    *this = one_of(std::forward<T>(value));
    return *this;
  }

  /// The position of the alternative held, in `Ts`.
  [[nodiscard]] constexpr std::size_t index() const noexcept { return index_; }

  /// Whether the alternative held is `T`.
  template <class T>
    requires alternative<T>
  [[nodiscard]] constexpr bool holds() const noexcept {
    return index_ == detail::position_of<T, Ts...>();
  }

  /// The value, where the alternative held is `T`; else a null pointer.
  template <class T>
    requires alternative<T>
  [[nodiscard]] constexpr const T* get_if() const noexcept {
    return holds<T>() ? &slot<T>() : nullptr;
  }
  /// \copydoc get_if() const
  template <class T>
    requires alternative<T>
  [[nodiscard]] constexpr T* get_if() noexcept {
    return holds<T>() ? &slot<T>() : nullptr;
  }

  /// The same alternative, with equal values.
  friend constexpr bool operator==(const one_of& a, const one_of& b)
    requires(std::equality_comparable<Ts> && ...)
  {
    return a.index_ == b.index_ && a.same_value(b, std::index_sequence_for<Ts...>{});
  }

 private:
  template <class T>
  using slot_of = detail::one_of_slot<detail::position_of<T, Ts...>(), T>;

  template <class T>
  [[nodiscard]] constexpr const T& slot() const noexcept {
    return static_cast<const slot_of<T>&>(slots_).item;
  }
  template <class T>
  [[nodiscard]] constexpr T& slot() noexcept {
    return static_cast<slot_of<T>&>(slots_).item;
  }

  template <std::size_t... I>
  [[nodiscard]] constexpr bool same_value(const one_of& other, std::index_sequence<I...> /*positions*/) const {
    return ((index_ == I && slot<Ts>() == other.slot<Ts>()) || ...);
  }

  std::size_t index_{0};
  detail::one_of_slots<std::index_sequence_for<Ts...>, Ts...> slots_{};
};

/// The alternative `Data` of `what`, or a `Data{}` where `what` holds
/// another: how the words of a reason read its data, so that they never
/// read a side that is not there (a reason built by hand with another
/// pairing reads as an empty one).
template <class Data, class... Alternatives>
[[nodiscard]] constexpr Data data_of(const one_of<Alternatives...>& what) {
  const auto* data = what.template get_if<Data>();
  return data != nullptr ? *data : Data{};
}

}  // namespace iteragpu

#endif  // ITERAGPU_ONE_OF_HPP
