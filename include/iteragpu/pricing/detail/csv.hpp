#ifndef ITERAGPU_PRICING_DETAIL_CSV_HPP
#define ITERAGPU_PRICING_DETAIL_CSV_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  std::string text;       // unquoted: a doubled quote "" stands for one "
  text_position position;  // where the field starts (its opening quote, if any)
  bool quoted{false};
};

struct csv_record {
  std::vector<csv_field> fields;
  text_position position;  // start of the record
  text_position end;       // its line end, or the end of the text
};

struct csv_error {
  text_position position;
  std::string found;
  std::string expected;
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
  [[nodiscard]] result<std::optional<csv_record>, csv_error> next() {
    record_ = csv_record{};
    field_ = csv_field{};
    state_ = state::field_start;
    if (i_ >= text_.size()) {
      return std::optional<csv_record>{};
    }
    record_.position = here_;
    for (; i_ < text_.size(); ++i_) {
      if (auto error = step()) {
        return unexpected{std::move(*error)};
      }
      if (ended_line_) {
        ++i_;
        return std::optional<csv_record>{std::move(record_)};
      }
    }
    if (state_ == state::quoted) {
      return unexpected{csv_error{field_.position, "a quoted field that is never closed",
                                  "a closing quote before the end of the file"}};
    }
    // The last line may lack a line end; it still is a record.
    finish_record();
    return std::optional<csv_record>{std::move(record_)};
  }

 private:
  enum class state { field_start, unquoted, quoted, quote_in_quoted };
  using fault = std::optional<csv_error>;

  // Reads text_[i_]; ended_line_ tells whether it ended the record.
  [[nodiscard]] fault step() {
    const char c = text_[i_];
    const bool crlf = c == '\r' && i_ + 1 < text_.size() && text_[i_ + 1] == '\n';
    line_end_ = c == '\n' || crlf;
    ended_line_ = false;
    fault error;
    switch (state_) {
      case state::field_start:
        error = at_field_start(c);
        break;
      case state::unquoted:
        error = in_unquoted(c);
        break;
      case state::quoted:
        in_quoted(c);
        break;
      case state::quote_in_quoted:
        error = after_quote(c);
        break;
    }
    if (ended_line_ && crlf) {
      ++i_;  // the LF of this CRLF is part of the same line end
    }
    if (ended_line_ || c == '\n') {
      ++here_.line;
      here_.column = 1;
    } else {
      ++here_.column;
    }
    return error;
  }

  [[nodiscard]] fault at_field_start(char c) {
    field_.position = here_;
    if (c == '"') {
      field_.quoted = true;
      state_ = state::quoted;
    } else if (c == ',' || line_end_) {
      end_field(c);
    } else if (c == '\r') {
      return lone_cr();
    } else {
      field_.text.push_back(c);
      state_ = state::unquoted;
    }
    return std::nullopt;
  }

  [[nodiscard]] fault in_unquoted(char c) {
    if (c == ',' || line_end_) {
      end_field(c);
    } else if (c == '"') {
      return csv_error{here_, "a quote inside an unquoted field",
                       R"(a field either wholly in quotes ("...", with "" for a quote) or without any quote)"};
    } else if (c == '\r') {
      return lone_cr();
    } else {
      field_.text.push_back(c);
    }
    return std::nullopt;
  }

  void in_quoted(char c) {
    if (c == '"') {
      state_ = state::quote_in_quoted;
    } else {
      field_.text.push_back(c);
    }
  }

  [[nodiscard]] fault after_quote(char c) {
    if (c == '"') {
      field_.text.push_back('"');
      state_ = state::quoted;
    } else if (c == ',' || line_end_) {
      end_field(c);
    } else {
      return csv_error{here_, quoted_excerpt(text_.substr(i_, 1)) + " after a closing quote",
                       R"(a comma or a line end after the closing quote ("" for a quote inside quotes))"};
    }
    return std::nullopt;
  }

  // A comma ends the field; a line end ends the field and the record.
  void end_field(char c) {
    if (c == ',') {
      finish_field();
    } else {
      finish_record();
      ended_line_ = true;
    }
    state_ = state::field_start;
  }

  void finish_field() {
    record_.fields.push_back(std::move(field_));
    field_ = csv_field{};
  }

  void finish_record() {
    finish_field();
    record_.end = here_;
  }

  [[nodiscard]] csv_error lone_cr() const {
    return csv_error{here_, "a carriage return (CR) not followed by a line feed", "LF or CRLF line ends"};
  }

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

#endif  // ITERAGPU_PRICING_DETAIL_CSV_HPP
