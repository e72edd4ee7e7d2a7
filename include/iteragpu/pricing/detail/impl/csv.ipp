#ifndef ITERAGPU_PRICING_DETAIL_IMPL_CSV_IPP
#define ITERAGPU_PRICING_DETAIL_IMPL_CSV_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/pricing/detail/csv.hpp"

// The bodies of the functions that <iteragpu/pricing/detail/csv.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::pricing::detail {

[[nodiscard]] ITERAGPU_INLINE result<std::optional<csv_record>, csv_error> csv_reader::next() {
  record_ = csv_record{};
  field_ = csv_field{};
  state_ = state::field_start;
  if (i_ >= text_.size()) {
    return std::optional<csv_record>{};
  }
  record_.position = here_;
  for (; i_ < text_.size(); ++i_) {
    if (auto error = step(); !error) {
      return unexpected{std::move(error).error()};
    }
    if (ended_line_) {
      ++i_;
      return std::optional<csv_record>{std::move(record_)};
    }
  }
  if (state_ == state::quoted) {
    return unexpected{csv_error{field_.position, catalog_errc::unclosed_quote, {}}};
  }
  // The last line may lack a line end; it still is a record.
  finish_record();
  return std::optional<csv_record>{std::move(record_)};
}

[[nodiscard]] ITERAGPU_INLINE csv_reader::fault csv_reader::step() {
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

[[nodiscard]] ITERAGPU_INLINE csv_reader::fault csv_reader::at_field_start(char c) {
  field_.position = here_;
  if (c == '"') {
    field_.quoted = true;
    state_ = state::quoted;
  } else if (c == ',' || line_end_) {
    end_field(c);
  } else if (c == '\r') {
    return unexpected{lone_cr()};
  } else {
    field_.text.push_back(c);
    state_ = state::unquoted;
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE csv_reader::fault csv_reader::in_unquoted(char c) {
  if (c == ',' || line_end_) {
    end_field(c);
  } else if (c == '"') {
    return unexpected{csv_error{here_, catalog_errc::quote_in_unquoted, {}}};
  } else if (c == '\r') {
    return unexpected{lone_cr()};
  } else {
    field_.text.push_back(c);
  }
  return {};
}

ITERAGPU_INLINE void csv_reader::in_quoted(char c) {
  if (c == '"') {
    state_ = state::quote_in_quoted;
  } else {
    field_.text.push_back(c);
  }
}

[[nodiscard]] ITERAGPU_INLINE csv_reader::fault csv_reader::after_quote(char c) {
  if (c == '"') {
    field_.text.push_back('"');
    state_ = state::quoted;
  } else if (c == ',' || line_end_) {
    end_field(c);
  } else {
    return unexpected{csv_error{here_, catalog_errc::after_closing_quote, std::string(text_.substr(i_, 1))}};
  }
  return {};
}

ITERAGPU_INLINE void csv_reader::end_field(char c) {
  if (c == ',') {
    finish_field();
  } else {
    finish_record();
    ended_line_ = true;
  }
  state_ = state::field_start;
}

ITERAGPU_INLINE void csv_reader::finish_field() {
  record_.fields.push_back(std::move(field_));
  field_ = csv_field{};
}

ITERAGPU_INLINE void csv_reader::finish_record() {
  finish_field();
  record_.end = here_;
}

[[nodiscard]] ITERAGPU_INLINE csv_error csv_reader::lone_cr() const {
  return csv_error{here_, catalog_errc::lone_carriage_return, {}};
}

}  // namespace iteragpu::pricing::detail

#endif  // ITERAGPU_PRICING_DETAIL_IMPL_CSV_IPP
