#ifndef ITERAGPU_SWEEP_IMPL_LISTS_IPP
#define ITERAGPU_SWEEP_IMPL_LISTS_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/lists.hpp"

// The bodies of the functions that <iteragpu/sweep/lists.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<std::string_view>, list_error> list_items(std::string_view text) {
  if (text.empty()) {
    return unexpected{list_error{list_errc::empty_list, {}, {}, 0, 0}};
  }
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) {
      return unexpected{list_error{list_errc::empty_item, std::string(text), {}, 0, 0}};
    }
    items.push_back(item);
    if (comma == std::string_view::npos) {
      return items;
    }
    start = comma + 1;
  }
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, list_error> positive_value(std::string_view text) {
  const auto parsed = parse_unsigned(text);
  if (!parsed.has_value()) {
    switch (parsed.error()) {
      case number_errc::empty:
        return unexpected{list_error{list_errc::missing_range_end, {}, {}, 0, 0}};
      case number_errc::too_large:
        return unexpected{list_error{list_errc::too_large, std::string(text), {}, 0, 0}};
      case number_errc::not_a_number:
        break;
    }
    return unexpected{list_error{list_errc::not_a_number, std::string(text), {}, 0, 0}};
  }
  if (*parsed == 0) {
    return unexpected{list_error{list_errc::not_positive, std::string(text), {}, 0, 0}};
  }
  return *parsed;
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<std::uint64_t>, list_error> parse_size_list(std::string_view text) {
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
      list_error e = first.has_value() ? last.error() : first.error();
      e.range = std::string(item);
      return unexpected{std::move(e)};
    }
    if (*first > *last) {
      return unexpected{list_error{list_errc::start_after_end, {}, std::string(item), *first, *last}};
    }
    std::uint64_t value = *first;
    values.push_back(value);
    while (value < *last) {
      // value < last <= 2^64 - 1, so doubling overflows only past last.
      const auto doubled = checked_mul<std::uint64_t>(value, 2);
      if (!doubled || *doubled > *last) {
        return unexpected{list_error{list_errc::not_doubling, {}, std::string(item), *first, *last}};
      }
      value = *doubled;
      values.push_back(value);
    }
  }
  std::sort(values.begin(), values.end());
  if (const auto twice = std::adjacent_find(values.begin(), values.end()); twice != values.end()) {
    return unexpected{list_error{list_errc::given_twice, to_decimal_string(*twice), {}, 0, 0}};
  }
  return values;
}

[[nodiscard]] ITERAGPU_INLINE result<std::vector<memory::element_type>, list_error> parse_dtype_list(
    std::string_view text) {
  const auto items = detail::list_items(text);
  if (!items.has_value()) {
    return unexpected{items.error()};
  }
  std::vector<memory::element_type> dtypes;
  for (const std::string_view item : *items) {
    const auto dtype = memory::parse_element_type(item);
    if (!dtype) {
      return unexpected{list_error{list_errc::unknown_dtype, std::string(item), {}, 0, 0}};
    }
    if (std::find(dtypes.begin(), dtypes.end(), *dtype) != dtypes.end()) {
      return unexpected{list_error{list_errc::dtype_given_twice, std::string(item), {}, 0, 0}};
    }
    dtypes.push_back(*dtype);
  }
  std::stable_sort(dtypes.begin(), dtypes.end(), [](memory::element_type a, memory::element_type b) {
    return memory::bytes_per_element(a) < bytes_per_element(b);
  });
  return dtypes;
}

[[nodiscard]] ITERAGPU_INLINE result<repeat_setting, list_error> parse_repeats(std::string_view text) {
  if (text == "auto") {
    return repeat_setting{};
  }
  const auto parsed = parse_unsigned(text);
  if (!parsed.has_value() || *parsed == 0 || *parsed > memory::pass_limit) {
    return unexpected{list_error{list_errc::bad_repeats, std::string(text), {}, 0, 0}};
  }
  return repeat_setting{*parsed};
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_LISTS_IPP
