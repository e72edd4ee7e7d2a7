#ifndef ITERAGPU_PRICING_MONEY_HPP
#define ITERAGPU_PRICING_MONEY_HPP

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// US dollars as whole cents in 64 bits, and the quotients of money to four places of a cent, with
/// checked arithmetic and no way in from floating point.
namespace iteragpu::pricing {

/// Why an amount or an operation on money was refused.
enum class money_errc {
  empty,               ///< no characters at all
  malformed,           ///< not `digits` (cents) or `digits[.d[d]]` (dollars)
  fraction_of_a_cent,  ///< more than two digits after the point
  too_large,           ///< the amount does not fit 64 bits of cents
  overflow,            ///< a sum or product past 64 bits of cents
  division_by_zero,    ///< a division of money by zero
};

/// The failure in a sentence, as messages print it.
[[nodiscard]] constexpr std::string_view describe(money_errc error) noexcept {
  switch (error) {
    case money_errc::empty:
      return "an empty amount";
    case money_errc::malformed:
      return "not an amount in digits";
    case money_errc::fraction_of_a_cent:
      return "more than two digits after the point (a fraction of a cent)";
    case money_errc::too_large:
      return "an amount past 18446744073709551615 cents (64 bits)";
    case money_errc::overflow:
      return "a result past 18446744073709551615 cents (64 bits)";
    case money_errc::division_by_zero:
      return "a division by zero";
  }
  return "unknown money error";
}

/// An integer type that counts things: neither `bool` nor a character type,
/// whose values are not amounts or counts even though they convert to one.
template <class T>
concept counting_integer =
    std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> && !std::same_as<T, wchar_t> &&
    !std::same_as<T, char8_t> && !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

/// What no amount, count or divisor of money is taken from: floating point
/// (binary fractions cannot hold 0.10), a signed integer at run time (-1
/// would wrap to 2^64 - 1), `bool` and the character types.
template <class T>
concept not_a_money_count =
    std::floating_point<T> || std::signed_integral<T> || (std::integral<T> && !counting_integer<T>);

namespace detail {

// Deliberately not constexpr: reaching it in a constant evaluation makes
// the evaluation fail, so the error is a compile error naming it.
inline void money_constant_is_negative() noexcept {}
inline void money_constant_overflows_64_bits() noexcept {}
inline void money_constant_divides_by_zero() noexcept {}

}  // namespace detail

/// A number of cents written in the program as an integer constant of any
/// integer type, `168000` as well as `168000U`: its sign is checked when the
/// program is compiled (the constructor is `consteval`), so `-1` and a
/// signed value known only at run time do not compile.
class cents_constant {
 public:
  /// `value` cents; a negative constant does not compile.
  template <counting_integer I>
  // cppcheck-suppress noExplicitConstructor ; a literal converts in place: from_cents(168000)
  consteval cents_constant(I value) noexcept  // NOLINT(google-explicit-constructor): a literal converts in place
      : cents_(checked_sign(value)) {}

  /// The cents, as an unsigned number.
  [[nodiscard]] constexpr std::uint64_t value() const noexcept { return cents_; }

 private:
  template <counting_integer I>
  [[nodiscard]] static consteval std::uint64_t checked_sign(I value) noexcept {
    if constexpr (std::signed_integral<I>) {
      if (value < 0) {
        detail::money_constant_is_negative();
      }
    }
    return static_cast<std::uint64_t>(value);
  }

  std::uint64_t cents_;
};

/// An amount of US dollars held as a whole number of cents in 64 bits. There
/// is no way in from floating point (binary fractions cannot hold 0.10
/// exactly), none from a signed integer known only at run time (-1 would
/// wrap to 2^64 - 1 cents), none from `bool` or a character, and no implicit
/// way in from an integer (a count is not money).
/// Sums and products are checked: try_add() and
/// try_multiply() return an error past 64 bits, never a wrapped value; the
/// operators `+` and `*` are `consteval`, for constants, where an overflow
/// fails to compile.
class money {
 public:
  /// Zero cents.
  constexpr money() = default;

  /// `cents` cents, from an unsigned integer known at run time.
  template <counting_integer U>
    requires std::unsigned_integral<U>
  [[nodiscard]] static constexpr money from_cents(U cents) noexcept {
    return money{static_cast<std::uint64_t>(cents)};
  }
  /// `cents` cents, from an integer constant such as `168000`, whose sign is
  /// checked when the program is compiled.
  [[nodiscard]] static constexpr money from_cents(cents_constant cents) noexcept { return money(cents.value()); }
  ///@{
  /// No way in from floating point, `bool` or a character: these do not compile.
  template <class T>
    requires std::floating_point<T> || (std::integral<T> && !counting_integer<T>)
  static money from_cents(T) = delete;
  template <std::floating_point F>
  explicit money(F) = delete;
  ///@}

  /// Whole cents in digits, as a catalog writes prices: `172800`.
  [[nodiscard]] static constexpr result<money, money_errc> parse_cents(std::string_view text) noexcept {
    const auto digits = parse_unsigned(text);
    if (!digits) {
      return unexpected{money_errc_of(digits.error())};
    }
    return money(*digits);
  }

  /// Dollars as people write them: `1728`, `1728.5` or `1728.00`; no sign,
  /// no thousands separator, no currency symbol, no exponent.
  [[nodiscard]] static constexpr result<money, money_errc> parse_dollars(std::string_view text) noexcept {
    const auto digits = parse_decimal_digits(text);
    if (!digits) {
      return unexpected{money_errc_of(digits.error())};
    }
    const std::string_view fraction_text = digits->fraction;
    if (fraction_text.size() > 2) {
      return unexpected{money_errc::fraction_of_a_cent};
    }
    std::uint64_t fraction = 0;
    for (std::size_t i = 0; i < 2; ++i) {
      fraction = fraction * 10U + (i < fraction_text.size() ? static_cast<std::uint64_t>(fraction_text[i] - '0') : 0U);
    }
    const auto whole_cents = checked_mul<std::uint64_t>(digits->whole, 100);
    if (!whole_cents) {
      return unexpected{money_errc::too_large};
    }
    const auto total = checked_add<std::uint64_t>(*whole_cents, fraction);
    if (!total) {
      return unexpected{money_errc::too_large};
    }
    return money(*total);
  }

  /// The amount in cents.
  [[nodiscard]] constexpr std::uint64_t cents() const noexcept { return cents_; }

  /// Dollars with exactly two digits after the point: `1728.00`.
  [[nodiscard]] constexpr fixed_text<max_decimal_digits + 3> text() const {
    fixed_text<max_decimal_digits + 3> out;
    out.append(decimal_text(cents_ / 100U).view());
    out.push_back('.');
    out.push_back(static_cast<char>('0' + cents_ % 100U / 10U));
    out.push_back(static_cast<char>('0' + cents_ % 10U));
    return out;
  }
  /// text() as a std::string.
  [[nodiscard]] std::string to_string() const { return text().to_string(); }

  /// a + b, or overflow past 64 bits of cents.
  [[nodiscard]] friend constexpr result<money, money_errc> try_add(money a, money b) noexcept {
    const auto sum = checked_add(a.cents_, b.cents_);
    if (!sum) {
      return unexpected{money_errc::overflow};
    }
    return money(*sum);
  }

  /// An amount times a count (lots, GPUs): money times money has no meaning.
  [[nodiscard]] friend constexpr result<money, money_errc> try_multiply(money amount, std::uint64_t count) noexcept {
    const auto product = checked_mul(amount.cents_, count);
    if (!product) {
      return unexpected{money_errc::overflow};
    }
    return money(*product);
  }

  /// a + b of two constants; a sum past 64 bits of cents does not compile.
  /// At run time, try_add() says so instead.
  [[nodiscard]] friend consteval money operator+(money a, money b) noexcept {
    const auto sum = try_add(a, b);
    if (!sum) {
      detail::money_constant_overflows_64_bits();
      return money{};
    }
    return *sum;
  }

  /// amount x count of constants; a product past 64 bits of cents does not
  /// compile. At run time, try_multiply() says so instead.
  [[nodiscard]] friend consteval money operator*(money amount, std::uint64_t count) noexcept {
    const auto product = try_multiply(amount, count);
    if (!product) {
      detail::money_constant_overflows_64_bits();
      return money{};
    }
    return *product;
  }
  ///@{
  /// A floating-point, signed, `bool` or character factor would otherwise
  /// convert silently to a count (-2 to 2^64 - 2).
  template <not_a_money_count T>
  friend money operator*(money, T) = delete;
  template <not_a_money_count T>
  friend result<money, money_errc> try_multiply(money, T) = delete;
  ///@}

  // The NOLINT below: clang-tidy 14 misreads a defaulted <=>.
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(money, money) = default;  // NOLINT(modernize-use-nullptr)

 private:
  constexpr explicit money(std::uint64_t cents) noexcept : cents_(cents) {}

  // A number that parse_unsigned() or parse_decimal_digits() refused, as an amount.
  [[nodiscard]] static constexpr money_errc money_errc_of(number_errc e) noexcept {
    switch (e) {
      case number_errc::empty:
        return money_errc::empty;
      case number_errc::not_a_number:
        return money_errc::malformed;
      case number_errc::too_large:
        break;
    }
    return money_errc::too_large;
  }

  std::uint64_t cents_{0};
};

/// A non-negative number of cents with exactly four decimal places: the
/// quotient of a division of money, such as a cost per accepted result.
/// Rounding rule: half to even at the fourth place (0.03125 -> 0.0312,
/// 0.09375 -> 0.0938), applied once, to the exact quotient.
class fractional_cents {
  // `whole.digits`: `after` written with as many digits as `unit` has
  // zeros (unit 10^4: `after` in [0, 9999] gives four digits). Defined
  // before its first use: clang 14 cannot evaluate a member template in a
  // constant expression when its definition comes later in the class.
  template <std::size_t N>
  [[nodiscard]] static constexpr fixed_text<N> with_point(std::uint64_t whole, std::uint64_t after,
                                                          std::uint64_t unit) {
    fixed_text<N> out;
    out.append(decimal_text(whole).view());
    out.push_back('.');
    for (std::uint64_t divisor = unit / 10U; divisor != 0; divisor /= 10U) {
      out.push_back(static_cast<char>('0' + after / divisor % 10U));
    }
    return out;
  }

 public:
  static constexpr unsigned places = 4;           ///< digits after the point
  static constexpr std::uint64_t scale = 10'000;  ///< 10^places

  /// Zero.
  constexpr fractional_cents() = default;
  /// No way in from floating point: this does not compile.
  template <std::floating_point F>
  explicit fractional_cents(F) = delete;

  /// The whole cents, before the point.
  [[nodiscard]] constexpr std::uint64_t whole_cents() const noexcept { return whole_; }
  /// The four digits after the point, as one number in [0, 9999].
  [[nodiscard]] constexpr std::uint64_t ten_thousandths() const noexcept { return fraction_; }

  /// `0.0312`, `112000.0000`: always four digits after the point.
  [[nodiscard]] constexpr fixed_text<max_decimal_digits + 1 + places> text() const {
    return with_point<max_decimal_digits + 1 + places>(whole_, fraction_, scale);
  }
  /// text() as a std::string.
  [[nodiscard]] std::string to_string() const { return text().to_string(); }

  /// The same amount in dollars, exactly: six digits after the point (the
  /// four places of a cent are six places of a dollar), so that `386.4000`
  /// cents reads `3.864000` and a price per unit sits beside a price in
  /// dollars in one unit.
  [[nodiscard]] constexpr fixed_text<max_decimal_digits + 1 + places + 2> dollars_text() const {
    return with_point<max_decimal_digits + 1 + places + 2>(whole_ / 100U, whole_ % 100U * scale + fraction_,
                                                           scale * 100U);
  }
  /// dollars_text() as a std::string.
  [[nodiscard]] std::string dollars_string() const { return dollars_text().to_string(); }

  /// amount / divisor, rounded half to even to four places of a cent. Long
  /// division one decimal digit at a time keeps every intermediate value
  /// below the divisor, so nothing wider than 64 bits is needed.
  [[nodiscard]] static constexpr result<fractional_cents, money_errc> quotient(money amount,
                                                                               std::uint64_t divisor) noexcept {
    if (divisor == 0) {
      return unexpected{money_errc::division_by_zero};
    }
    fractional_cents q;
    q.whole_ = amount.cents() / divisor;
    std::uint64_t remainder = amount.cents() % divisor;
    for (unsigned i = 0; i < places; ++i) {
      const auto [digit, next] = next_digit(remainder, divisor);
      q.fraction_ = q.fraction_ * 10U + digit;
      remainder = next;
    }
    // Compare remainder / divisor with one half without computing 2 x remainder.
    const std::uint64_t rest_to_one = divisor - remainder;
    const bool round_up = remainder > rest_to_one || (remainder == rest_to_one && q.fraction_ % 2U == 1U);
    if (round_up) {
      ++q.fraction_;
      if (q.fraction_ == scale) {
        q.fraction_ = 0;
        // A fraction exists only when divisor >= 2, so whole_ <= (2^64 - 1) / 2
        // here and the carry cannot pass 64 bits.
        ++q.whole_;
      }
    }
    return q;
  }
  /// A signed, floating-point, `bool` or character divisor would convert
  /// silently (-1 to 2^64 - 1): this does not compile.
  template <not_a_money_count T>
  static result<fractional_cents, money_errc> quotient(money, T) = delete;

  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(const fractional_cents&, const fractional_cents&) = default;

 private:
  struct digit_step {
    std::uint64_t digit;
    std::uint64_t remainder;
  };

  // floor(10 x remainder / divisor) and its remainder, for remainder <
  // divisor, by ten modular additions that never leave [0, divisor).
  [[nodiscard]] static constexpr digit_step next_digit(std::uint64_t remainder, std::uint64_t divisor) noexcept {
    digit_step step{0, 0};
    for (unsigned i = 0; i < 10; ++i) {
      if (step.remainder >= divisor - remainder) {
        step.remainder -= divisor - remainder;
        ++step.digit;
      } else {
        step.remainder += remainder;
      }
    }
    return step;
  }

  std::uint64_t whole_{0};
  std::uint64_t fraction_{0};
};

/// amount / divisor, rounded half to even to four places of a cent, or division_by_zero.
[[nodiscard]] constexpr result<fractional_cents, money_errc> try_divide(money amount, std::uint64_t divisor) noexcept {
  return fractional_cents::quotient(amount, divisor);
}

/// A signed, floating-point, `bool` or character divisor would convert
/// silently (-1 to 2^64 - 1): this does not compile.
template <not_a_money_count T>
result<fractional_cents, money_errc> try_divide(money, T) = delete;

/// amount / divisor of constants; a division by zero does not compile. At
/// run time, try_divide() says so instead.
[[nodiscard]] consteval fractional_cents divide(money amount, std::uint64_t divisor) noexcept {
  const auto q = try_divide(amount, divisor);
  if (!q) {
    detail::money_constant_divides_by_zero();
    return fractional_cents{};
  }
  return *q;
}
/// A signed, floating-point, `bool` or character divisor would convert
/// silently (-1 to 2^64 - 1): this does not compile.
template <not_a_money_count T>
fractional_cents divide(money, T) = delete;

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_MONEY_HPP
