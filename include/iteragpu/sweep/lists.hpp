#ifndef ITERAGPU_SWEEP_LISTS_HPP
#define ITERAGPU_SWEEP_LISTS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The values of one axis of a sweep, as the command line gives them: a
/// comma-separated list whose items are values or doubling ranges. Every
/// error carries the item at fault (list_error); report/sweep_errors.hpp
/// words it and the command line puts the flag in front.
namespace iteragpu::sweep {

/// What a size list accepts, as usage errors say it after "expected".
inline constexpr std::string_view accepted_size_list =
    "comma-separated positive integers or doubling ranges A..B (B = A x 2^k), e.g. 8,16 or 64..8192";
/// What a dtype list accepts, as usage errors say it after "expected".
inline constexpr std::string_view accepted_dtype_list = "comma-separated float32, float16 or bfloat16";
/// What `--repeats` accepts, as parse_repeats() says it.
inline constexpr std::string_view accepted_repeats = "a positive integer up to 10000, or auto";
static_assert(memory::pass_limit == 10'000, "accepted_repeats quotes pass_limit");

/// What is wrong with a list of a sweep's axis (see list_error).
enum class list_errc {
  empty_list,         ///< the list is empty
  empty_item,         ///< `text` (the list) has an empty item
  missing_range_end,  ///< a range lacks a start or an end
  too_large,          ///< `text` does not fit in 64 bits
  not_a_number,       ///< `text` is not a positive integer in digits
  not_positive,       ///< `text` is 0
  start_after_end,    ///< the range's start is larger than its end
  not_doubling,       ///< the range's end `last` is not its start `first` times a power of two
  given_twice,        ///< the value `text` (in decimal) is given twice
  dtype_given_twice,  ///< the dtype `text` is given twice
  unknown_dtype,      ///< `text` is not float32, float16 or bfloat16
  bad_repeats         ///< `text` is not accepted_repeats
};

/// A list that is refused: why, the text at fault, and, for a fault inside
/// a doubling range, the range and its ends. Words: report/sweep_errors.hpp.
struct list_error {
  list_errc code{list_errc::empty_list};  ///< why
  std::string text;                       ///< the list, item or value at fault; empty for empty_list
  std::string range;                      ///< the range A..B the fault is in; empty outside a range
  std::uint64_t first{0};                 ///< not_doubling: the range's start
  std::uint64_t last{0};                  ///< not_doubling: the range's end
  friend bool operator==(const list_error&, const list_error&) = default;
};

namespace detail {

// The items of a comma-separated list, or why it has none or an empty one.
[[nodiscard]] result<std::vector<std::string_view>, list_error> list_items(std::string_view text);

[[nodiscard]] result<std::uint64_t, list_error> positive_value(std::string_view text);

}  // namespace detail

/// The values of a size axis (batch, context, width), smallest first. An
/// item is N or A..B, the doubling range A, 2A, 4A, ..., B, which must end
/// exactly on B. Values are positive integers in 64 bits; one given twice
/// is refused (a point would be measured twice). The error says what is
/// wrong: an empty list or item, an item that is no such value or range, or
/// a value given twice.
[[nodiscard]] result<std::vector<std::uint64_t>, list_error> parse_size_list(std::string_view text);

/// The dtypes of a sweep, fewest bytes per element first (float16 and
/// bfloat16 in the order given, then float32). The error names an item that
/// is not float32, float16 or bfloat16, or one given twice, or says that the
/// list or an item is empty.
[[nodiscard]] result<std::vector<memory::element_type>, list_error> parse_dtype_list(std::string_view text);

/// `--repeats`: a count, or `auto` (the measuring program's stopping rule).
struct repeat_setting {
  std::optional<std::uint64_t> count;  ///< the measured passes; nothing: auto

  /// The count in decimal, or "auto": how points.tsv and `measure` write it.
  [[nodiscard]] std::string text() const { return count ? to_decimal_string(*count) : std::string("auto"); }
  /// Equal when both are auto or both have the same count.
  friend bool operator==(const repeat_setting&, const repeat_setting&) = default;
};

/// `auto`, or a positive integer in digits up to pass_limit; the error
/// (bad_repeats) carries the text.
[[nodiscard]] result<repeat_setting, list_error> parse_repeats(std::string_view text);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/lists.ipp"
#endif

#endif  // ITERAGPU_SWEEP_LISTS_HPP
