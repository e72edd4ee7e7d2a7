#ifndef ITERAGPU_PRICING_IMPL_CATALOG_ERRORS_IPP
#define ITERAGPU_PRICING_IMPL_CATALOG_ERRORS_IPP

#include <string_view>
#include <variant>

#include "iteragpu/config.hpp"
#include "iteragpu/one_of.hpp"
#include "iteragpu/pricing/catalog_errors.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/pricing/catalog_errors.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::pricing::detail {

inline constexpr std::string_view positive_integer_text =
    "a positive whole number in digits (no sign, point or space, 1 to 18446744073709551615)";

// The field the error points at; an empty first field for a code that names none.
[[nodiscard]] ITERAGPU_INLINE catalog_field field_or_empty(const catalog_error& e) {
  const auto* field = field_of(e);
  return field != nullptr ? *field : catalog_field{};
}

// The column's name and the field's text, quoted: `days '14'`.
[[nodiscard]] ITERAGPU_INLINE std::string field_words(const catalog_error& e) {
  const auto field = field_or_empty(e);
  return std::string(catalog_columns[field.column]) + " " + quoted_excerpt(field.found);
}

// Which display text a column holds: the provider's name or the GPU's.
[[nodiscard]] ITERAGPU_INLINE std::string display_text_name(const catalog_error& e) {
  return field_or_empty(e).column == 0 ? "a provider name" : "a name";
}

[[nodiscard]] ITERAGPU_INLINE std::string header_hint() { return "the header " + std::string(catalog_header); }

[[nodiscard]] ITERAGPU_INLINE std::string as_on_earlier_line(std::size_t line, const std::string& value,
                                                             std::string_view why) {
  return value + " as on line " + to_decimal_string(line) + " (" + std::string(why) + ")";
}

}  // namespace iteragpu::pricing::detail

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE std::string found_words(const catalog_error& e) {
  switch (e.code) {
    case catalog_errc::empty_file:
      return "an empty file";
    case catalog_errc::byte_order_mark:
      return "a UTF-8 byte order mark";
    case catalog_errc::only_empty_lines:
      return "only empty lines";
    case catalog_errc::no_price_rows:
      return "no price rows after the header";
    case catalog_errc::unclosed_quote:
      return "a quoted field that is never closed";
    case catalog_errc::quote_in_unquoted:
      return "a quote inside an unquoted field";
    case catalog_errc::after_closing_quote:
      return quoted_excerpt(data_of<stray_character>(e.what).found) + " after a closing quote";
    case catalog_errc::lone_carriage_return:
      return "a carriage return (CR) not followed by a line feed";
    case catalog_errc::header_field:
      return "header field " + to_decimal_string(detail::field_or_empty(e).column + 1) + " " +
             quoted_excerpt(detail::field_or_empty(e).found);
    case catalog_errc::header_field_count:
      return "a header of " + to_decimal_string(data_of<field_count>(e.what).fields) + " fields";
    case catalog_errc::empty_line:
      return "an empty line";
    case catalog_errc::row_field_count:
      return "a row of " + to_decimal_string(data_of<field_count>(e.what).fields) + " fields";
    case catalog_errc::display_character:
      return std::string(describe(data_of<bad_character>(e.what).character)) + " in " + detail::field_words(e);
    case catalog_errc::second_duration_row: {
      const auto row = data_of<second_row>(e.what);
      return "a second " + row.gpu + " row for " + row.field.found + " days";
    }
    case catalog_errc::other_gpus_per_lot:
    case catalog_errc::other_memory_per_gpu:
      return detail::field_words(e) + " for " + data_of<other_figure>(e.what).gpu;
    case catalog_errc::other_name:
      return detail::field_words(e) + " for " + data_of<other_text>(e.what).gpu;
    case catalog_errc::missing_durations: {
      const auto rows = data_of<missing_rows>(e.what);
      return rows.gpu + " with rows for " + join_days(rows.days, "and") + " days only";
    }
    case catalog_errc::display_text:
    case catalog_errc::other_provider:
    case catalog_errc::currency:
    case catalog_errc::date_format:
    case catalog_errc::other_date:
    case catalog_errc::gpu_id:
    case catalog_errc::memory_per_gpu:
    case catalog_errc::gpus_per_lot:
    case catalog_errc::days:
    case catalog_errc::price_too_large:
    case catalog_errc::price:
      break;
  }
  return detail::field_words(e);
}

[[nodiscard]] ITERAGPU_INLINE std::string expected_words(const catalog_error& e) {
  switch (e.code) {
    case catalog_errc::empty_file:
    case catalog_errc::only_empty_lines:
      return detail::header_hint();
    case catalog_errc::byte_order_mark:
      return detail::header_hint() + " at the very start of the file (UTF-8 without byte order mark)";
    case catalog_errc::no_price_rows:
      return "at least one GPU with rows for 3, 7 and 30 days";
    case catalog_errc::unclosed_quote:
      return "a closing quote before the end of the file";
    case catalog_errc::quote_in_unquoted:
      return R"(a field either wholly in quotes ("...", with "" for a quote) or without any quote)";
    case catalog_errc::after_closing_quote:
      return R"(a comma or a line end after the closing quote ("" for a quote inside quotes))";
    case catalog_errc::lone_carriage_return:
      return "LF or CRLF line ends";
    case catalog_errc::header_field:
      return quoted_excerpt(catalog_columns[detail::field_or_empty(e).column]) + " (" + detail::header_hint() + ")";
    case catalog_errc::header_field_count:
      return "9 fields: " + detail::header_hint();
    case catalog_errc::empty_line:
      return "a row of 9 fields (" + std::string(catalog_header) + ")";
    case catalog_errc::row_field_count:
      return "9 fields (" + std::string(catalog_header) + ")";
    case catalog_errc::display_text:
      return detail::display_text_name(e) + ": printable, non-empty, no space at either end";
    case catalog_errc::display_character:
      return detail::display_text_name(e) + " of valid UTF-8 without control or bidirectional control characters";
    case catalog_errc::other_provider: {
      const auto other = data_of<other_text>(e.what);
      return detail::as_on_earlier_line(other.line, quoted_excerpt(other.agreed), "one provider per catalog");
    }
    case catalog_errc::currency:
      return std::string(catalog_currency) + " (prices are US cents; there is no currency conversion)";
    case catalog_errc::date_format:
      return "an ISO 8601 calendar date YYYY-MM-DD";
    case catalog_errc::other_date: {
      const auto other = data_of<other_text>(e.what);
      return detail::as_on_earlier_line(other.line, quoted_excerpt(other.agreed), "one snapshot per catalog");
    }
    case catalog_errc::gpu_id:
      return "a GPU id of lower-case letters, digits and '-', not starting with '-'";
    case catalog_errc::memory_per_gpu:
      return std::string(detail::positive_integer_text) + " of GB per GPU";
    case catalog_errc::gpus_per_lot:
      return std::string(detail::positive_integer_text) + " of GPUs in one lot";
    case catalog_errc::days:
      return "3, 7 or 30 (days of a package)";
    case catalog_errc::price_too_large:
      return "a price that fits 64 bits (at most " + std::string(largest_u64_text) + " cents)";
    case catalog_errc::price:
      return std::string(detail::positive_integer_text) + " of US cents";
    case catalog_errc::second_duration_row:
      return "one row per GPU and duration (the first is on line " +
             to_decimal_string(data_of<second_row>(e.what).line) + ")";
    case catalog_errc::other_gpus_per_lot:
    case catalog_errc::other_memory_per_gpu: {
      const auto other = data_of<other_figure>(e.what);
      return detail::as_on_earlier_line(other.line, to_decimal_string(other.agreed), "the same on a GPU's three rows");
    }
    case catalog_errc::other_name: {
      const auto other = data_of<other_text>(e.what);
      return detail::as_on_earlier_line(other.line, quoted_excerpt(other.agreed), "the same on a GPU's three rows");
    }
    case catalog_errc::missing_durations:
      return "one row each for 3, 7 and 30 days per GPU";
  }
  return "a catalog as parse_catalog() describes it";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const catalog_error& e) {
  return e.file + ":" + to_decimal_string(e.position.line) + ":" + to_decimal_string(e.position.column) + ": " +
         found_words(e) + "; expected " + expected_words(e);
}

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_IMPL_CATALOG_ERRORS_IPP
