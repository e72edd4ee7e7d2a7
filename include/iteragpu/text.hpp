#ifndef ITERAGPU_TEXT_HPP
#define ITERAGPU_TEXT_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <string_view>

#include "iteragpu/result.hpp"

/// \file
/// Text the library produces and text it shows back to people.
///
/// - fixed_text: a string of bounded length built in constant expressions.
///   (clang 14 cannot evaluate libstdc++ 12's std::string at compile time,
///   so every constexpr formatter writes one of these; to_string() copies it
///   at run time.)
/// - decimal_text: the one integer formatter; size_text: the one size
///   formatter (bytes, KiB, MiB, GiB, as PyTorch writes sizes).
/// - escaped / quoted: the one way a user-supplied value appears in a
///   message, whatever bytes it holds, so that every message stays one line
///   and shows what was typed or read without acting on the terminal.
/// - check_display_text: the rule for text the library keeps and prints
///   again (a catalog's names): valid UTF-8 that displays as it reads.
namespace iteragpu {

/// A string of at most `Capacity` characters, built in constant expressions.
template <std::size_t Capacity>
class fixed_text {
 public:
  /// Empty.
  constexpr fixed_text() = default;

  /// Appends `c`. Precondition: size() < Capacity, which each formatter
  /// guarantees by the capacity it declares. It is checked in every build:
  /// in a constant expression a breach fails to compile, at run time it
  /// ends the program rather than write past the characters.
  constexpr void push_back(char c) noexcept {
    if (size_ == Capacity) {
      capacity_exceeded();
    }
    chars_[size_++] = c;
  }
  /// Appends every character of `text`, as push_back() (same precondition).
  constexpr void append(std::string_view text) noexcept {
    for (const char c : text) {
      push_back(c);
    }
  }

  /// The characters so far.
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars_.data(), size_}; }
  /// How many characters there are.
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  /// A copy, at run time.
  [[nodiscard]] std::string to_string() const { return std::string(view()); }

  /// Equal when the characters are those of `b`.
  friend constexpr bool operator==(const fixed_text& a, std::string_view b) noexcept { return a.view() == b; }
  /// Writes the characters to `out`.
  template <class Traits>
  friend std::basic_ostream<char, Traits>& operator<<(std::basic_ostream<char, Traits>& out, const fixed_text& t) {
    return out << t.view();
  }

 private:
  // A formatter asked for more than its declared capacity: a bug. Not
  // constexpr, so that in a constant expression the breach fails to compile.
  [[noreturn]] static void capacity_exceeded() noexcept { std::abort(); }

  std::array<char, Capacity> chars_{};
  std::size_t size_{0};
};

/// The decimal digits of any 64-bit unsigned integer fit in 20 characters.
inline constexpr std::size_t max_decimal_digits = std::numeric_limits<std::uint64_t>::digits10 + 1;

/// `value` in decimal digits, with no sign or separator: the one integer formatter.
[[nodiscard]] constexpr fixed_text<max_decimal_digits> decimal_text(std::uint64_t value) {
  std::array<char, max_decimal_digits> reversed{};
  std::size_t n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + value % 10U);
    value /= 10U;
  } while (value != 0);
  fixed_text<max_decimal_digits> text;
  while (n > 0) {
    text.push_back(reversed[--n]);
  }
  return text;
}

/// decimal_text() as a std::string.
[[nodiscard]] inline std::string to_decimal_string(std::uint64_t value) { return decimal_text(value).to_string(); }

/// A count of bytes in words, singular for one: "1 byte", "0 bytes", "512 bytes".
[[nodiscard]] inline std::string bytes_text(std::uint64_t n) {
  return to_decimal_string(n) + (n == 1 ? " byte" : " bytes");
}

/// The longest size_text(): 20 digits and " bytes".
inline constexpr std::size_t max_size_text = max_decimal_digits + 6;

/// A size as PyTorch's messages write one, the one size formatter of text:
/// bytes under 1 KiB ("512 bytes"), else KiB, MiB or GiB (powers of 1024)
/// with two decimals rounded half up ("98.00 MiB", "17.04 GiB"); a value
/// that rounds to 1024.00 of a unit is written in the next one ("1.00 MiB").
[[nodiscard]] constexpr fixed_text<max_size_text> size_text(std::uint64_t bytes) {
  fixed_text<max_size_text> text;
  if (bytes < 1024U) {
    text.append(decimal_text(bytes).view());
    text.append(bytes == 1U ? " byte" : " bytes");
    return text;
  }
  constexpr std::array<std::string_view, 3> units{" KiB", " MiB", " GiB"};
  std::size_t unit = 0;
  std::uint64_t whole = 0;
  std::uint64_t hundredths = 0;
  for (;; ++unit) {
    const std::uint64_t shift = 10U * (unit + 1U);
    const std::uint64_t one = std::uint64_t{1} << shift;
    whole = bytes >> shift;
    // The rest is below 2^30, so x 100 stays in 64 bits; GiB stay below 2^34.
    hundredths = ((bytes & (one - 1U)) * 100U + one / 2U) >> shift;
    if (hundredths == 100U) {
      hundredths = 0;
      ++whole;
    }
    if (whole < 1024U || unit + 1U == units.size()) {
      break;
    }
  }
  text.append(decimal_text(whole).view());
  text.push_back('.');
  text.push_back(static_cast<char>('0' + hundredths / 10U));
  text.push_back(static_cast<char>('0' + hundredths % 10U));
  text.append(units[unit]);
  return text;
}

/// A count of bytes exactly, then as size_text() for reading when it is 1 KiB
/// or more: "102760448 bytes (98.00 MiB)", "512 bytes".
[[nodiscard]] inline std::string bytes_and_size_text(std::uint64_t n) {
  return n < 1024U ? bytes_text(n) : bytes_text(n) + " (" + size_text(n).to_string() + ")";
}

/// The largest 64-bit unsigned integer, as messages print it.
inline constexpr std::string_view largest_u64_text = "18446744073709551615";

namespace detail {

// One code point of UTF-8 text, or the reason the bytes at `at` are not one.
struct utf8_step {
  char32_t code_point{0};
  std::size_t length{0};  // 0: the byte at `at` starts no valid sequence
};

// Decodes the sequence starting at text[at] as RFC 3629 defines valid UTF-8:
// no overlong forms, no surrogates, nothing past U+10FFFF.
[[nodiscard]] constexpr utf8_step decode_utf8(std::string_view text, std::size_t at) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80U) {
    return {lead, 1};
  }
  std::size_t length = 0;
  char32_t value = 0;
  char32_t smallest = 0;
  if ((lead & 0xE0U) == 0xC0U) {
    length = 2;
    value = lead & 0x1FU;
    smallest = 0x80;
  } else if ((lead & 0xF0U) == 0xE0U) {
    length = 3;
    value = lead & 0x0FU;
    smallest = 0x800;
  } else if ((lead & 0xF8U) == 0xF0U) {
    length = 4;
    value = lead & 0x07U;
    smallest = 0x10000;
  } else {
    return {};
  }
  if (at + length > text.size()) {
    return {};
  }
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0U) != 0x80U) {
      return {};
    }
    value = (value << 6U) | (byte(i) & 0x3FU);
  }
  if (value < smallest || value > 0x10FFFFU || (value >= 0xD800U && value <= 0xDFFFU)) {
    return {};
  }
  return {value, length};
}

// C0 controls, DEL and the C1 controls (U+0080 to U+009F, which some
// terminals obey as escape sequences).
[[nodiscard]] constexpr bool is_control(char32_t c) noexcept { return c < 0x20U || (c >= 0x7FU && c <= 0x9FU); }

// The formatting characters of the Unicode bidirectional algorithm
// (embeddings, overrides, isolates and marks): they change the order in
// which the text around them is displayed.
[[nodiscard]] constexpr bool is_bidi_control(char32_t c) noexcept {
  return c == 0x061CU || c == 0x200EU || c == 0x200FU || (c >= 0x202AU && c <= 0x202EU) ||
         (c >= 0x2066U && c <= 0x2069U);
}

inline constexpr std::string_view hex_digits = "0123456789ABCDEF";

}  // namespace detail

/// `text` as it may appear in a one-line message: valid UTF-8 that displays
/// as it reads is kept; every other byte (line ends, tabs, C0 controls, DEL,
/// bytes of invalid UTF-8) is written `\xHH`, and C1 and bidirectional controls
/// `\uHHHH`. The result is valid UTF-8 with no control character.
[[nodiscard]] std::string escaped(std::string_view text);

/// `text` with each byte that starts no valid UTF-8 sequence replaced by
/// U+FFFD (the replacement character): how a JSON output holds a name or a
/// setting that came as raw bytes, since JSON text is UTF-8.
[[nodiscard]] std::string valid_utf8(std::string_view text);

/// `text` escaped and between single quotes: how a message names a value.
[[nodiscard]] inline std::string quoted(std::string_view text) { return "'" + escaped(text) + "'"; }

/// Exact-match overloads: without them, an unqualified call with a
/// std::string or a string literal would pick std::quoted through
/// argument-dependent lookup wherever `<iomanip>` is visible.
[[nodiscard]] inline std::string quoted(const std::string& text) { return quoted(std::string_view{text}); }
/// Exact match for a string literal (see the std::string overload).
[[nodiscard]] inline std::string quoted(const char* text) { return quoted(std::string_view{text}); }

/// Like quoted(), shortened to its first `longest` bytes (never inside a
/// UTF-8 sequence) with `...` before the closing quote when it was longer,
/// for values read from files, which may be of any length.
[[nodiscard]] std::string quoted_excerpt(std::string_view text, std::size_t longest = 60);

/// The text up to its first line feed (all of it when there is none): the
/// one line an exception's message or a child's error output is reduced to.
[[nodiscard]] std::string first_line(std::string_view text);

/// What breaks the rule of display text: invalid UTF-8, a control character, or a bidirectional control.
enum class display_text_errc { invalid_utf8, control, bidi_control };

/// Where display text breaks the rule, and why.
struct display_text_error {
  std::size_t offset{0};                                    ///< byte offset of the first offending character
  display_text_errc code{display_text_errc::invalid_utf8};  ///< what is wrong there
};

/// The kind of fault in words, as messages print it.
[[nodiscard]] constexpr std::string_view describe(display_text_errc k) noexcept {
  switch (k) {
    case display_text_errc::invalid_utf8:
      return "a byte that is not valid UTF-8";
    case display_text_errc::control:
      return "a control character";
    case display_text_errc::bidi_control:
      return "a bidirectional control character";
  }
  return "an unacceptable character";
}

/// A success when `text` is display text, else its first character that is
/// not valid UTF-8, a control character (C0, DEL, C1) or a bidirectional
/// control.
[[nodiscard]] constexpr result<void, display_text_error> check_display_text(std::string_view text) noexcept {
  for (std::size_t at = 0; at < text.size();) {
    const auto step = detail::decode_utf8(text, at);
    if (step.length == 0) {
      return unexpected{display_text_error{at, display_text_errc::invalid_utf8}};
    }
    if (detail::is_control(step.code_point)) {
      return unexpected{display_text_error{at, display_text_errc::control}};
    }
    if (detail::is_bidi_control(step.code_point)) {
      return unexpected{display_text_error{at, display_text_errc::bidi_control}};
    }
    at += step.length;
  }
  return {};
}

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/impl/text.ipp"
#endif

#endif  // ITERAGPU_TEXT_HPP
