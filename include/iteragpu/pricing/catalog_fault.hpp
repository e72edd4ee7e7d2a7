#ifndef ITERAGPU_PRICING_CATALOG_FAULT_HPP
#define ITERAGPU_PRICING_CATALOG_FAULT_HPP

#include <cstdint>

/// \file
/// What a catalog file can have wrong: the kinds of catalog_error, one per rule of parse_catalog().
namespace iteragpu::pricing {

/// What is wrong at a catalog_error's position. The members of the error
/// that each kind fills are named beside it; report::describe() words them.
enum class catalog_errc : std::uint8_t {
  // The text as a whole.
  empty_file,        ///< no text at all
  byte_order_mark,   ///< a UTF-8 byte order mark before the header
  only_empty_lines,  ///< nothing but empty lines
  no_price_rows,     ///< a header and no row after it
  // The CSV syntax (RFC 4180).
  unclosed_quote,        ///< a quoted field still open at the end of the text
  quote_in_unquoted,     ///< a quote inside a field that did not start with one
  after_closing_quote,   ///< `found`: the character after a closing quote, neither a comma nor a line end
  lone_carriage_return,  ///< a CR not followed by LF
  // The header.
  header_field,        ///< field `column` of the header reads `found`
  header_field_count,  ///< the header has `number` fields
  // A row.
  empty_line,         ///< an empty line before the last row
  row_field_count,    ///< the row has `number` fields
  display_text,       ///< `found` in `column` (provider or name) is empty, has a space at an end, or holds a C0 control
  display_character,  ///< `found` in `column` holds a `character` fault (the position points at it)
  other_provider,     ///< `found`, where line `earlier_line` gave `agreed`
  currency,           ///< `found` is not catalog_currency
  date_format,        ///< `found` is not a calendar date YYYY-MM-DD
  other_date,         ///< `found`, where line `earlier_line` gave `agreed`
  gpu_id,             ///< `found` is not a GPU id
  memory_per_gpu,     ///< `found` is not a positive whole number of GB
  gpus_per_lot,       ///< `found` is not a positive whole number of GPUs
  days,               ///< `found` is not 3, 7 or 30
  price_too_large,    ///< `found` is a price past 64 bits of cents
  price,              ///< `found` is not a positive whole number of cents
  second_duration_row,   ///< `gpu` has a row for `found` days already, on line `earlier_line`
  other_gpus_per_lot,    ///< `found` for `gpu`, where line `earlier_line` gave `number`
  other_memory_per_gpu,  ///< `found` for `gpu`, where line `earlier_line` gave `number`
  other_name,            ///< `found` for `gpu`, where line `earlier_line` gave `agreed`
  missing_durations,     ///< `gpu` has rows for `days` only
};

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_CATALOG_FAULT_HPP
