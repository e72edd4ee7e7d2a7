#ifndef ITERAGPU_SWEEP_LISTS_HPP
#define ITERAGPU_SWEEP_LISTS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/parse.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The values of one axis of a sweep, as the command line gives them: a
/// comma-separated list whose items are values or doubling ranges. Every
/// message names the item at fault; the command line puts the flag in front.
namespace iteragpu::sweep {

/// What a size list accepts, as usage errors say it after "expected".
inline constexpr std::string_view accepted_size_list =
    "comma-separated positive integers or doubling ranges A..B (B = A x 2^k), e.g. 8,16 or 64..8192";
/// What a dtype list accepts, as usage errors say it after "expected".
inline constexpr std::string_view accepted_dtype_list = "comma-separated float32, float16 or bfloat16";
/// What `--repeats` accepts, as parse_repeats() says it.
inline constexpr std::string_view accepted_repeats = "a positive integer up to 10000, or auto";
static_assert(pass_limit == 10'000, "accepted_repeats quotes pass_limit");

namespace detail {

// The items of a comma-separated list, or the message when one is empty.
[[nodiscard]] inline result<std::vector<std::string_view>, std::string> list_items(std::string_view text) {
  if (text.empty()) {
    return unexpected{std::string("an empty list")};
  }
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) {
      return unexpected{quoted(text) + " has an empty item"};
    }
    items.push_back(item);
    if (comma == std::string_view::npos) {
      return items;
    }
    start = comma + 1;
  }
}

[[nodiscard]] inline result<std::uint64_t, std::string> positive_value(std::string_view text) {
  const auto parsed = parse_unsigned(text);
  if (!parsed.has_value()) {
    switch (parsed.error()) {
      case number_error::empty:
        return unexpected{std::string("a range with a missing end")};
      case number_error::too_large:
        return unexpected{quoted(text) + " does not fit in 64 bits"};
      case number_error::not_a_number:
        break;
    }
    return unexpected{quoted(text) + " is not a positive integer in digits"};
  }
  if (*parsed == 0) {
    return unexpected{quoted(text) + " is not positive"};
  }
  return *parsed;
}

}  // namespace detail

/// The values of a size axis (batch, context, width), smallest first. An
/// item is N or A..B, the doubling range A, 2A, 4A, ..., B, which must end
/// exactly on B. Values are positive integers in 64 bits; one given twice
/// is refused (a point would be measured twice). The error says what is
/// wrong: an empty list or item, an item that is no such value or range, or
/// a value given twice.
[[nodiscard]] inline result<std::vector<std::uint64_t>, std::string> parse_size_list(std::string_view text) {
  const auto items = detail::list_items(text);
  if (!items.has_value()) {
    return unexpected{items.error()};
  }
  std::vector<std::uint64_t> values;
  for (const std::string_view item : *items) {
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      const auto value = detail::positive_value(item);
      if (!value.has_value()) {
        return unexpected{value.error()};
      }
      values.push_back(*value);
      continue;
    }
    const auto first = detail::positive_value(item.substr(0, dots));
    const auto last = detail::positive_value(item.substr(dots + 2));
    if (!first.has_value() || !last.has_value()) {
      return unexpected{quoted(item) + ": " + (first.has_value() ? last.error() : first.error())};
    }
    if (*first > *last) {
      return unexpected{quoted(item) + ": the start is larger than the end"};
    }
    std::uint64_t value = *first;
    values.push_back(value);
    while (value < *last) {
      // value < last <= 2^64 - 1, so doubling overflows only past last.
      const auto doubled = checked_mul<std::uint64_t>(value, 2);
      if (!doubled || *doubled > *last) {
        return unexpected{quoted(item) + ": " + to_decimal_string(*last) + " is not " + to_decimal_string(*first) +
                          " times a power of two"};
      }
      value = *doubled;
      values.push_back(value);
    }
  }
  std::sort(values.begin(), values.end());
  if (const auto twice = std::adjacent_find(values.begin(), values.end()); twice != values.end()) {
    return unexpected{to_decimal_string(*twice) + " is given twice"};
  }
  return values;
}

/// The dtypes of a sweep, fewest bytes per element first (float16 and
/// bfloat16 in the order given, then float32). The error names an item that
/// is not float32, float16 or bfloat16, or one given twice, or says that the
/// list or an item is empty.
[[nodiscard]] inline result<std::vector<element_type>, std::string> parse_dtype_list(std::string_view text) {
  const auto items = detail::list_items(text);
  if (!items.has_value()) {
    return unexpected{items.error()};
  }
  std::vector<element_type> dtypes;
  for (const std::string_view item : *items) {
    const auto dtype = parse_element_type(item);
    if (!dtype) {
      return unexpected{quoted(item) + " is not float32, float16 or bfloat16"};
    }
    if (std::find(dtypes.begin(), dtypes.end(), *dtype) != dtypes.end()) {
      return unexpected{quoted(item) + " is given twice"};
    }
    dtypes.push_back(*dtype);
  }
  std::stable_sort(dtypes.begin(), dtypes.end(),
                   [](element_type a, element_type b) { return bytes_per_element(a) < bytes_per_element(b); });
  return dtypes;
}

/// `--repeats`: a count, or `auto` (the measuring program's stopping rule).
struct repeat_setting {
  std::optional<std::uint64_t> count;  ///< the measured passes; nothing: auto

  /// The count in decimal, or "auto": how points.tsv and `measure` write it.
  [[nodiscard]] std::string text() const { return count ? to_decimal_string(*count) : std::string("auto"); }
  /// Equal when both are auto or both have the same count.
  friend bool operator==(const repeat_setting&, const repeat_setting&) = default;
};

/// `auto`, or a positive integer in digits up to pass_limit; the error
/// quotes the text and says accepted_repeats.
[[nodiscard]] inline result<repeat_setting, std::string> parse_repeats(std::string_view text) {
  if (text == "auto") {
    return repeat_setting{};
  }
  const auto parsed = parse_unsigned(text);
  if (!parsed.has_value() || *parsed == 0 || *parsed > pass_limit) {
    return unexpected{quoted(text) + " is not " + std::string(accepted_repeats)};
  }
  return repeat_setting{*parsed};
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_LISTS_HPP
