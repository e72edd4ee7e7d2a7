#ifndef ITERAGPU_DETAIL_CSV_HPP
#define ITERAGPU_DETAIL_CSV_HPP

#include <cstddef>
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

// Splits `text` into records. Line ends are LF or CRLF (a CR anywhere else
// outside quotes is an error); a quoted field may hold commas, line ends and
// doubled quotes, kept as they are. Empty lines at the very end are ignored;
// an empty line followed by more records is kept as a record of one empty
// field, so that the caller reports it where it is.
[[nodiscard]] constexpr result<std::vector<csv_record>, csv_error> read_csv(std::string_view text) {
  enum class state { field_start, unquoted, quoted, quote_in_quoted };

  std::vector<csv_record> records;
  csv_record record;
  csv_field field;
  csv_position here;
  state s = state::field_start;

  const auto finish_field = [&] {
    record.fields.push_back(std::move(field));
    field = csv_field{};
  };
  const auto finish_record = [&] {
    finish_field();
    record.end = here;
    records.push_back(std::move(record));
    record = csv_record{};
  };
  const auto lone_cr = [&] {
    return csv_error{here, "a carriage return (CR) not followed by a line feed", "LF or CRLF line ends"};
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool crlf = c == '\r' && i + 1 < text.size() && text[i + 1] == '\n';
    const bool line_end = c == '\n' || crlf;
    bool ends_line_here = false;  // a line end outside quotes, consumed whole
    if (s == state::field_start && record.fields.empty()) {
      record.position = here;
    }
    switch (s) {
      case state::field_start:
        field.position = here;
        if (c == '"') {
          field.quoted = true;
          s = state::quoted;
        } else if (c == ',') {
          finish_field();
        } else if (line_end) {
          finish_record();
          ends_line_here = true;
        } else if (c == '\r') {
          return lone_cr();
        } else {
          field.text.push_back(c);
          s = state::unquoted;
        }
        break;
      case state::unquoted:
        if (c == ',') {
          finish_field();
          s = state::field_start;
        } else if (line_end) {
          finish_record();
          s = state::field_start;
          ends_line_here = true;
        } else if (c == '"') {
          return csv_error{here, "a quote inside an unquoted field",
                           "a field either wholly in quotes (\"...\", with \"\" for a quote) or without any quote"};
        } else if (c == '\r') {
          return lone_cr();
        } else {
          field.text.push_back(c);
        }
        break;
      case state::quoted:
        if (c == '"') {
          s = state::quote_in_quoted;
        } else {
          field.text.push_back(c);
        }
        break;
      case state::quote_in_quoted:
        if (c == '"') {
          field.text.push_back('"');
          s = state::quoted;
        } else if (c == ',') {
          finish_field();
          s = state::field_start;
        } else if (line_end) {
          finish_record();
          s = state::field_start;
          ends_line_here = true;
        } else {
          return csv_error{here, printable(text.substr(i, 1)) + " after a closing quote",
                           "a comma or a line end after the closing quote (\"\" for a quote inside quotes)"};
        }
        break;
    }
    if (ends_line_here && crlf) {
      ++i;  // the LF of this CRLF is part of the same line end
    }
    if (ends_line_here || c == '\n') {
      ++here.line;
      here.column = 1;
    } else {
      ++here.column;
    }
  }

  if (s == state::quoted) {
    return csv_error{field.position, "a quoted field that is never closed",
                     "a closing quote before the end of the file"};
  }
  // The last line may lack a line end; it still is a record unless empty.
  if (s != state::field_start || !record.fields.empty()) {
    finish_record();
  }
  // Empty lines at the end: records of one empty, unquoted field.
  while (!records.empty() && records.back().fields.size() == 1 && !records.back().fields.front().quoted &&
         records.back().fields.front().text.empty()) {
    records.pop_back();
  }
  return records;
}

}  // namespace iteragpu::detail

#endif  // ITERAGPU_DETAIL_CSV_HPP
