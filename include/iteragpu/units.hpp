#ifndef ITERAGPU_UNITS_HPP
#define ITERAGPU_UNITS_HPP

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Bytes, GiB and GB: a byte count type, and exact decimals so that GiB and GB are never binary
/// floating point.
namespace iteragpu {

/// A count of bytes. A type of its own so that bytes, GiB and parameter
/// counts cannot be mixed up.
struct byte_count {
  std::uint64_t value{0};  ///< bytes
  // The NOLINT below: clang-tidy 14 misreads a defaulted <=>.
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(byte_count, byte_count) = default;  // NOLINT(modernize-use-nullptr)
};

/// Bytes in a KiB: 2^10.
inline constexpr std::uint64_t kibibyte = std::uint64_t{1} << 10U;
/// Bytes in a MiB: 2^20.
inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20U;
/// Bytes in a GiB: 2^30.
inline constexpr std::uint64_t gibibyte = std::uint64_t{1} << 30U;
/// Bytes in a GB: 10^9.
inline constexpr std::uint64_t bytes_per_gb = 1'000'000'000U;

/// Why a text is not an exact decimal.
enum class decimal_errc {
  empty,                     ///< no text at all
  malformed,                 ///< not `digits` or `digits.digits`
  too_many_fraction_digits,  ///< more than exact_decimal::max_fraction_digits after the point
  too_large,                 ///< whole part past 64 bits
};

/// An exact non-negative decimal number: a 64-bit whole part and at most
/// `max_fraction_digits` digits after the point. Every byte count divided by
/// 2^30 or 10^9 is such a number (2^-30 has 30 decimal digits), so GiB and GB
/// are carried exactly instead of as binary floating point. There is
/// deliberately no conversion from or to `double`.
class exact_decimal {
 public:
  static constexpr std::size_t max_fraction_digits = 40;  ///< digits kept after the point

  /// Zero.
  constexpr exact_decimal() = default;

  /// `whole` with no fraction.
  [[nodiscard]] static constexpr exact_decimal from_integer(std::uint64_t whole) noexcept {
    exact_decimal d;
    d.whole_ = whole;
    return d;
  }

  /// numerator / 2^Shift, exactly. Shift <= max_fraction_digits (each halving
  /// adds one decimal digit), checked at compile time.
  template <unsigned Shift>
    requires(Shift <= max_fraction_digits)
  [[nodiscard]] static constexpr exact_decimal from_binary_fraction(std::uint64_t numerator) noexcept {
    static_assert(max_fraction_digits < 64, "a shift within max_fraction_digits must stay below 64 bits");
    constexpr unsigned shift = Shift;
    exact_decimal d;
    const std::uint64_t mask = (std::uint64_t{1} << shift) - 1U;
    d.whole_ = numerator >> shift;
    std::uint64_t remainder = numerator & mask;
    // remainder < 2^shift <= 2^40, so remainder * 10 cannot overflow.
    while (remainder != 0) {
      remainder *= 10U;
      d.digits_[d.length_++] = static_cast<std::uint8_t>(remainder >> shift);
      remainder &= mask;
    }
    return d;
  }

  /// numerator / 10^Exponent, exactly. Exponent <= 19 (10^19 is the largest
  /// power of ten in 64 bits), checked at compile time.
  template <unsigned Exponent>
    requires(Exponent <= max_decimal_digits - 1)
  [[nodiscard]] static constexpr exact_decimal from_decimal_fraction(std::uint64_t numerator) noexcept {
    constexpr unsigned exponent = Exponent;
    std::uint64_t divisor = 1;
    for (unsigned i = 0; i < exponent; ++i) {
      divisor *= 10U;
    }
    exact_decimal d;
    d.whole_ = numerator / divisor;
    std::uint64_t remainder = numerator % divisor;
    for (unsigned i = 0; i < exponent; ++i) {
      divisor /= 10U;
      d.digits_[d.length_++] = static_cast<std::uint8_t>(remainder / divisor);
      remainder %= divisor;
    }
    d.trim();
    return d;
  }

  /// `digits` or `digits.digits`: no sign, exponent, spaces or bare point.
  [[nodiscard]] static constexpr result<exact_decimal, decimal_errc> parse(std::string_view text) noexcept {
    const auto digits = parse_decimal_digits(text);
    if (!digits) {
      switch (digits.error()) {
        case number_errc::empty:
          return unexpected{decimal_errc::empty};
        case number_errc::not_a_number:
          return unexpected{decimal_errc::malformed};
        case number_errc::too_large:
          return unexpected{decimal_errc::too_large};
      }
    }
    const std::string_view fraction_text = digits->fraction;
    if (fraction_text.size() > max_fraction_digits) {
      return unexpected{decimal_errc::too_many_fraction_digits};
    }
    exact_decimal d;
    d.whole_ = digits->whole;
    for (const char c : fraction_text) {
      d.digits_[d.length_++] = static_cast<std::uint8_t>(c - '0');
    }
    d.trim();
    return d;
  }

  /// The sum, or nothing when the whole part would pass 64 bits.
  [[nodiscard]] friend constexpr std::optional<exact_decimal> checked_add(const exact_decimal& a,
                                                                          const exact_decimal& b) noexcept {
    exact_decimal sum;
    sum.length_ = a.length_ > b.length_ ? a.length_ : b.length_;
    unsigned carry = 0;
    for (std::size_t i = sum.length_; i-- > 0;) {
      const unsigned column = static_cast<unsigned>(a.digit(i)) + b.digit(i) + carry;
      sum.digits_[i] = static_cast<std::uint8_t>(column % 10U);
      carry = column / 10U;
    }
    const auto whole_sum = checked_add<std::uint64_t>(a.whole_, b.whole_);
    if (!whole_sum) {
      return std::nullopt;
    }
    const auto with_carry = checked_add<std::uint64_t>(*whole_sum, carry);
    if (!with_carry) {
      return std::nullopt;
    }
    sum.whole_ = *with_carry;
    sum.trim();
    return sum;
  }

  /// The whole part.
  [[nodiscard]] constexpr std::uint64_t whole() const noexcept { return whole_; }
  /// Digits after the point, trailing zeros dropped.
  [[nodiscard]] constexpr std::size_t fraction_digits() const noexcept { return length_; }

  /// Shortest exact form: `14`, `13.03851604461669921875`.
  [[nodiscard]] constexpr fixed_text<max_decimal_digits + 1 + max_fraction_digits> text() const {
    fixed_text<max_decimal_digits + 1 + max_fraction_digits> out;
    out.append(decimal_text(whole_).view());
    if (length_ > 0) {
      out.push_back('.');
      for (std::size_t i = 0; i < length_; ++i) {
        out.push_back(static_cast<char>('0' + digits_[i]));
      }
    }
    return out;
  }
  /// text() as a std::string.
  [[nodiscard]] std::string to_string() const { return text().to_string(); }

  /// Equal when the numbers are: trailing zeros are dropped, so each number has one form.
  friend constexpr bool operator==(const exact_decimal&, const exact_decimal&) = default;
  /// Numeric order. Digits past the length are zero (see trim()), so the
  /// digit arrays compare as the fractions do.
  friend constexpr std::strong_ordering operator<=>(const exact_decimal& a, const exact_decimal& b) noexcept {
    if (const auto by_whole = a.whole_ <=> b.whole_; std::is_neq(by_whole)) {
      return by_whole;
    }
    for (std::size_t i = 0; i < max_fraction_digits; ++i) {
      if (const auto d = a.digits_[i] <=> b.digits_[i]; std::is_neq(d)) {
        return d;
      }
    }
    return std::strong_ordering::equal;
  }

  ///@{
  /// value x 2^shift as a whole number, rounded up (a need: the bytes a
  /// need in GiB takes, with shift 30) or down (a capacity), or nothing past
  /// 64 bits. Shifts above 60 are refused: the digit-by-digit products below
  /// must stay in 64 bits.
  [[nodiscard]] constexpr std::optional<std::uint64_t> times_power_of_two_rounded_up(unsigned shift) const noexcept {
    const auto scaled = times_power_of_two(shift);
    if (!scaled) {
      return std::nullopt;
    }
    return scaled->exact ? std::optional<std::uint64_t>(scaled->floor) : checked_add<std::uint64_t>(scaled->floor, 1);
  }
  [[nodiscard]] constexpr std::optional<std::uint64_t> times_power_of_two_rounded_down(unsigned shift) const noexcept {
    const auto scaled = times_power_of_two(shift);
    if (!scaled) {
      return std::nullopt;
    }
    return scaled->floor;
  }
  ///@}

 private:
  struct scaled_value {
    std::uint64_t floor{0};
    bool exact{true};
  };

  [[nodiscard]] constexpr std::optional<scaled_value> times_power_of_two(unsigned shift) const noexcept {
    if (shift > 60U) {
      return std::nullopt;
    }
    const auto whole_scaled = checked_mul<std::uint64_t>(whole_, std::uint64_t{1} << shift);
    if (!whole_scaled) {
      return std::nullopt;
    }
    // The fraction f = 0.d1d2...dn times 2^shift: its whole part and
    // whether a remainder is left, digit by digit from the last one, keeping
    // only the running value of (digits so far) x 2^shift / 10^k, which stays
    // below 2^shift.
    std::uint64_t carry = 0;      // floor(suffix x 2^shift), below 2^shift
    bool remainder_left = false;  // whether that floor dropped something
    for (std::size_t i = length_; i-- > 0;) {
      // (digit x 2^shift + carry) / 10 without forming the sum, which
      // could pass 64 bits: quotients and remainders of each term.
      const std::uint64_t high = std::uint64_t{digits_[i]} << shift;  // < 10 x 2^60
      const std::uint64_t numerator_quotient = high / 10U + carry / 10U;
      const std::uint64_t numerator_rest = high % 10U + carry % 10U;
      carry = numerator_quotient + numerator_rest / 10U;
      remainder_left = remainder_left || numerator_rest % 10U != 0;
    }
    const auto total = checked_add<std::uint64_t>(*whole_scaled, carry);
    if (!total) {
      return std::nullopt;
    }
    return scaled_value{*total, !remainder_left};
  }

  [[nodiscard]] constexpr std::uint8_t digit(std::size_t i) const noexcept { return i < length_ ? digits_[i] : 0; }

  // Trailing zeros carry no value; dropping them keeps one representation
  // per number, so that defaulted equality is value equality.
  constexpr void trim() noexcept {
    while (length_ > 0 && digits_[length_ - 1] == 0) {
      --length_;
    }
    for (std::size_t i = length_; i < max_fraction_digits; ++i) {
      digits_[i] = 0;
    }
  }

  std::uint64_t whole_{0};
  std::array<std::uint8_t, max_fraction_digits> digits_{};
  std::size_t length_{0};
};

/// `bytes` in GiB (2^30 bytes), exactly.
[[nodiscard]] constexpr exact_decimal to_gib(byte_count bytes) noexcept {
  return exact_decimal::from_binary_fraction<30>(bytes.value);
}
/// The bytes of an amount in GiB, rounded up to a whole byte: a need never
/// shrinks in the conversion. Nothing when it passes 64 bits.
[[nodiscard]] constexpr std::optional<byte_count> gib_to_bytes_rounded_up(const exact_decimal& gib) noexcept {
  const auto bytes = gib.times_power_of_two_rounded_up(30);
  if (!bytes) {
    return std::nullopt;
  }
  return byte_count{*bytes};
}
/// The bytes of a capacity in GiB, rounded down to a whole byte: a card never
/// grows in the conversion. Nothing when it passes 64 bits.
[[nodiscard]] constexpr std::optional<byte_count> gib_to_bytes_rounded_down(const exact_decimal& gib) noexcept {
  const auto bytes = gib.times_power_of_two_rounded_down(30);
  if (!bytes) {
    return std::nullopt;
  }
  return byte_count{*bytes};
}
/// `bytes` in GB (10^9 bytes), exactly.
[[nodiscard]] constexpr exact_decimal to_gb(byte_count bytes) noexcept {
  return exact_decimal::from_decimal_fraction<9>(bytes.value);
}

/// `bytes` in GiB with two decimals, "1.50", rounded down or (`round_up`)
/// up, for tables and messages: whole GiB and the hundredths of the rest,
/// which is below 2^30, so that x 100 stays in 64 bits.
[[nodiscard]] std::string gib_two_places(byte_count bytes, bool round_up);

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/impl/units.ipp"
#endif

#endif  // ITERAGPU_UNITS_HPP
