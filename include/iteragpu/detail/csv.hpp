#ifndef ITERAGPU_DETAIL_CSV_HPP
#define ITERAGPU_DETAIL_CSV_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/detail/result.hpp"

// An RFC 4180 reader that keeps the line and column of every field.
//
// Why a state machine of our own and not Boost.Spirit X3: the catalog lives
// in the dependency-free core target, so it cannot pull in Boost; every
// validation message must name the line and column of the field at fault,
// which here is a counter beside the state instead of position-tagged
// iterators and an error handler; and the grammar is small (four states),
// so the whole of it is visible below, can be fuzzed as a plain function of
// a string_view and compiles with clang as well as g++.
namespace iteragpu::detail {

struct csv_position {
  std::size_t line{1};
  std::size_t column{1};  // 1-based, counted in bytes
  friend constexpr bool operator==(csv_position, csv_position) = default;
};

struct csv_field {
  std::string text;       // unquoted: a doubled quote "" stands for one "
  csv_position position;  // where the field starts (its opening quote, if any)
  bool quoted{false};
};

struct csv_record {
  std::vector<csv_field> fields;
  csv_position position;  // start of the record
  csv_position end;       // its line end, or the end of the text
};

struct csv_error {
  csv_position position;
  std::string found;
  std::string expected;
};

// Input as it may appear in a one-line message: printable ASCII as it is,
// any other byte (line ends included) as \xHH.
[[nodiscard]] constexpr std::string escaped(std::string_view text) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20U && byte < 0x7FU) {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(hex[byte >> 4U]);
      out.push_back(hex[byte & 0xFU]);
    }
  }
  return out;
}

// A field quoted for a message, escaped and shortened past 60 bytes, so
// that a message stays one readable line whatever the input holds.
[[nodiscard]] constexpr std::string printable(std::string_view text) {
  constexpr std::size_t longest = 60;
  return "'" + escaped(text.substr(0, longest)) + (text.size() > longest ? "...'" : "'");
}

// The state machine of RFC 4180, one character at a time. Each state has
// its own step; a step gives an error or nothing.
class csv_reader {
 public:
  constexpr explicit csv_reader(std::string_view text) noexcept : text_(text) {}

  [[nodiscard]] constexpr result<std::vector<csv_record>, csv_error> read() && {
    for (i_ = 0; i_ < text_.size(); ++i_) {
      if (auto error = step()) {
        return std::move(*error);
      }
    }
    if (state_ == state::quoted) {
      return csv_error{field_.position, "a quoted field that is never closed",
                       "a closing quote before the end of the file"};
    }
    // The last line may lack a line end; it still is a record unless empty.
    if (state_ != state::field_start || !record_.fields.empty()) {
      finish_record();
    }
    // Empty lines at the end: records of one empty, unquoted field.
    while (!records_.empty() && records_.back().fields.size() == 1 && !records_.back().fields.front().quoted &&
           records_.back().fields.front().text.empty()) {
      records_.pop_back();
    }
    return std::move(records_);
  }

 private:
  enum class state { field_start, unquoted, quoted, quote_in_quoted };
  using fault = std::optional<csv_error>;

  [[nodiscard]] constexpr fault step() {
    const char c = text_[i_];
    const bool crlf = c == '\r' && i_ + 1 < text_.size() && text_[i_ + 1] == '\n';
    line_end_ = c == '\n' || crlf;
    ended_line_ = false;
    if (state_ == state::field_start && record_.fields.empty()) {
      record_.position = here_;
    }
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

  [[nodiscard]] constexpr fault at_field_start(char c) {
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

  [[nodiscard]] constexpr fault in_unquoted(char c) {
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

  constexpr void in_quoted(char c) {
    if (c == '"') {
      state_ = state::quote_in_quoted;
    } else {
      field_.text.push_back(c);
    }
  }

  [[nodiscard]] constexpr fault after_quote(char c) {
    if (c == '"') {
      field_.text.push_back('"');
      state_ = state::quoted;
    } else if (c == ',' || line_end_) {
      end_field(c);
    } else {
      return csv_error{here_, printable(text_.substr(i_, 1)) + " after a closing quote",
                       R"(a comma or a line end after the closing quote ("" for a quote inside quotes))"};
    }
    return std::nullopt;
  }

  // A comma ends the field; a line end ends the field and the record.
  constexpr void end_field(char c) {
    if (c == ',') {
      finish_field();
    } else {
      finish_record();
      ended_line_ = true;
    }
    state_ = state::field_start;
  }

  constexpr void finish_field() {
    record_.fields.push_back(std::move(field_));
    field_ = csv_field{};
  }

  constexpr void finish_record() {
    finish_field();
    record_.end = here_;
    records_.push_back(std::move(record_));
    record_ = csv_record{};
  }

  [[nodiscard]] constexpr csv_error lone_cr() const {
    return csv_error{here_, "a carriage return (CR) not followed by a line feed", "LF or CRLF line ends"};
  }

  std::string_view text_;
  std::size_t i_{0};
  bool line_end_{false};    // the current character starts a line end (LF, or CR of CRLF)
  bool ended_line_{false};  // the current character ended a record
  csv_position here_;
  state state_{state::field_start};
  csv_field field_;
  csv_record record_;
  std::vector<csv_record> records_;
};

// Splits `text` into records. Line ends are LF or CRLF (a CR anywhere else
// outside quotes is an error); a quoted field may hold commas, line ends and
// doubled quotes, kept as they are. Empty lines at the very end are ignored;
// an empty line followed by more records is kept as a record of one empty
// field, so that the caller reports it where it is.
[[nodiscard]] constexpr result<std::vector<csv_record>, csv_error> read_csv(std::string_view text) {
  return csv_reader(text).read();
}

}  // namespace iteragpu::detail

#endif  // ITERAGPU_DETAIL_CSV_HPP
