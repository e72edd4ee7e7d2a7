#ifndef ITERAGPU_PRICING_DETAIL_CSV_HPP
#define ITERAGPU_PRICING_DETAIL_CSV_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/pricing/catalog_fault.hpp"
#include "iteragpu/pricing/text_position.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

// An RFC 4180 reader that keeps the line and column of every field.
//
// Why a state machine of our own and not Boost.Spirit X3: the catalog lives
// in the dependency-free core target, so it cannot pull in Boost; every
// validation message must name the line and column of the field at fault,
// which here is a counter beside the state instead of position-tagged
// iterators and an error handler; and the grammar is small (four states),
// so the whole of it is visible below, can be fuzzed as a plain function of
// a string_view and compiles with clang as well as g++.
namespace iteragpu::pricing::detail {

struct csv_field {
  std::string text;        // unquoted: a doubled quote "" stands for one "
  text_position position;  // where the field starts (its opening quote, if any)
  bool quoted{false};
};

struct csv_record {
  std::vector<csv_field> fields;
  text_position position;  // start of the record
  text_position end;       // its line end, or the end of the text
};

// A CSV syntax fault: one of the four kinds of catalog_errc the reader
// finds, and the character found for after_closing_quote.
struct csv_error {
  text_position position;
  catalog_errc code{catalog_errc::unclosed_quote};
  std::string found;
};

// A line with nothing on it: one empty field, not quoted ("" is a field).
[[nodiscard]] inline bool is_empty_line(const csv_record& record) noexcept {
  return record.fields.size() == 1 && record.fields.front().text.empty() && !record.fields.front().quoted;
}

// Line ends are LF or CRLF (a CR anywhere else outside quotes is an error);
// a quoted field may hold commas, line ends and doubled quotes, kept as
// they are.
//
// The state machine of RFC 4180 reads one character at a time and gives one
// record at a time: the caller keeps only what it needs of each, so reading
// takes the memory of one record whatever the length of the text, and every
// character is looked at once.
class csv_reader {
 public:
  explicit csv_reader(std::string_view text) noexcept : text_(text) {}

  // The next record, nothing at the end of the text, or the first fault.
  // Every line is a record, an empty one too (see is_empty_line()).
  [[nodiscard]] result<std::optional<csv_record>, csv_error> next();

 private:
  enum class state { field_start, unquoted, quoted, quote_in_quoted };
  using fault = result<void, csv_error>;

  // Reads text_[i_]; ended_line_ tells whether it ended the record.
  [[nodiscard]] fault step();

  [[nodiscard]] fault at_field_start(char c);

  [[nodiscard]] fault in_unquoted(char c);

  void in_quoted(char c);

  [[nodiscard]] fault after_quote(char c);

  // A comma ends the field; a line end ends the field and the record.
  void end_field(char c);

  void finish_field();

  void finish_record();

  [[nodiscard]] csv_error lone_cr() const;

  std::string_view text_;
  std::size_t i_{0};
  bool line_end_{false};    // the current character starts a line end (LF, or CR of CRLF)
  bool ended_line_{false};  // the current character ended a record
  text_position here_;
  state state_{state::field_start};
  csv_field field_;
  csv_record record_;
};

}  // namespace iteragpu::pricing::detail

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/pricing/detail/impl/csv.ipp"
#endif

#endif  // ITERAGPU_PRICING_DETAIL_CSV_HPP
