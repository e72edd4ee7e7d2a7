#ifndef ITERAGPU_CATALOG_HPP
#define ITERAGPU_CATALOG_HPP

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/detail/csv.hpp"
#include "iteragpu/detail/parse.hpp"
#include "iteragpu/detail/result.hpp"
#include "iteragpu/money.hpp"

namespace iteragpu {

// The length of a package in days. Packages are billed whole: there is no
// proration by the hour, so only the durations a catalog lists exist.
struct package_days {
  std::uint64_t value{0};
  friend constexpr auto operator<=>(package_days, package_days) = default;
};

// Every GPU of a catalog comes in exactly these durations.
inline constexpr std::array<package_days, 3> package_durations{package_days{3}, package_days{7}, package_days{30}};

struct gpu_count {
  std::uint64_t value{0};
  friend constexpr auto operator<=>(gpu_count, gpu_count) = default;
};

// Memory per GPU in decimal GB (10^9 bytes), as the vendor's datasheet states it.
struct memory_gb {
  std::uint64_t value{0};
  friend constexpr auto operator<=>(memory_gb, memory_gb) = default;
};

inline constexpr std::string_view catalog_header =
    "provider,currency,snapshot_date,gpu,name,memory_gb_per_gpu,gpus_per_lot,days,lot_price_cents";
inline constexpr std::array<std::string_view, 9> catalog_columns{
    "provider", "currency", "snapshot_date", "gpu", "name", "memory_gb_per_gpu", "gpus_per_lot", "days", "lot_price_cents"};
inline constexpr std::string_view catalog_currency = "USD";
// A catalog whose provider is this is derived from public list prices, not
// taken from a provider's offer; every result computed from it says so.
inline constexpr std::string_view illustrative_provider = "illustrative";

// One package: a lot of `gpus_per_lot` GPUs for `days` days at `lot_price`.
struct catalog_row {
  std::string gpu;
  std::string name;
  memory_gb memory_per_gpu;
  gpu_count gpus_per_lot;
  package_days days;
  money lot_price;
  std::size_t line{0};  // where the row is in its file
  friend constexpr bool operator==(const catalog_row&, const catalog_row&) = default;
};

struct catalog {
  std::string file;
  std::string provider;
  std::string currency;
  std::string snapshot_date;  // ISO 8601, YYYY-MM-DD
  std::vector<catalog_row> rows;

  [[nodiscard]] constexpr bool illustrative() const noexcept { return provider == illustrative_provider; }

  [[nodiscard]] constexpr const catalog_row* find(std::string_view gpu, package_days days) const noexcept {
    for (const auto& row : rows) {
      if (row.gpu == gpu && row.days == days) {
        return &row;
      }
    }
    return nullptr;
  }

  // GPU ids in the order of their first row.
  [[nodiscard]] constexpr std::vector<std::string> gpu_ids() const {
    std::vector<std::string> ids;
    for (const auto& row : rows) {
      bool seen = false;
      for (const auto& id : ids) {
        seen = seen || id == row.gpu;
      }
      if (!seen) {
        ids.push_back(row.gpu);
      }
    }
    return ids;
  }

  // The durations of one GPU, shortest first (empty for an unknown GPU).
  [[nodiscard]] constexpr std::vector<package_days> durations_of(std::string_view gpu) const {
    std::vector<package_days> days;
    for (const auto d : package_durations) {
      if (find(gpu, d) != nullptr) {
        days.push_back(d);
      }
    }
    return days;
  }
};

// Why a catalog was refused, at the line and column of the fault.
struct catalog_error {
  std::string file;
  detail::csv_position position;
  std::string found;
  std::string expected;

  // `FILE:LINE:COLUMN: what was found; expected ...`
  [[nodiscard]] constexpr std::string message() const {
    return file + ":" + detail::decimal_digits(position.line) + ":" + detail::decimal_digits(position.column) + ": " +
           found + "; expected " + expected;
  }
};

namespace detail {

[[nodiscard]] constexpr bool is_leap_year(std::uint64_t year) noexcept {
  return (year % 4U == 0U && year % 100U != 0U) || year % 400U == 0U;
}

// YYYY-MM-DD, a real calendar day.
[[nodiscard]] constexpr bool is_iso_date(std::string_view text) noexcept {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
    return false;
  }
  const auto year = parse_unsigned(text.substr(0, 4));
  const auto month = parse_unsigned(text.substr(5, 2));
  const auto day = parse_unsigned(text.substr(8, 2));
  if (!year || !month || !day || month.value() < 1 || month.value() > 12 || day.value() < 1) {
    return false;
  }
  constexpr std::array<std::uint64_t, 12> month_days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const std::uint64_t last =
      month_days[month.value() - 1] + (month.value() == 2 && is_leap_year(year.value()) ? 1U : 0U);
  return day.value() <= last;
}

// [a-z0-9][a-z0-9-]*
[[nodiscard]] constexpr bool is_gpu_id(std::string_view text) noexcept {
  const auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || is_digit(c); };
  if (text.empty() || !lower_or_digit(text.front())) {
    return false;
  }
  return std::ranges::all_of(text, [&](char c) { return lower_or_digit(c) || c == '-'; });
}

// Non-empty, one line, no control character, no space at either end: text
// that prints as it reads.
[[nodiscard]] constexpr bool is_clean_text(std::string_view text) noexcept {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') {
    return false;
  }
  return std::ranges::all_of(text, [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20U && byte != 0x7FU;
  });
}

// `3, 7 and 30` or `3, 7 or 30`.
[[nodiscard]] constexpr std::string join_days(const std::vector<package_days>& days, std::string_view conjunction) {
  std::string text;
  for (std::size_t i = 0; i < days.size(); ++i) {
    if (i != 0) {
      text += i + 1 == days.size() ? " " + std::string(conjunction) + " " : std::string(", ");
    }
    text += decimal_digits(days[i].value);
  }
  return text.empty() ? std::string("none") : text;
}

// `3`, `7` or `30` exactly (no leading zero, no sign).
[[nodiscard]] constexpr std::optional<package_days> duration_named(std::string_view text) {
  for (const auto d : package_durations) {
    if (text == decimal_digits(d.value)) {
      return d;
    }
  }
  return std::nullopt;
}

inline constexpr std::string_view positive_integer_text =
    "a positive whole number in digits (no sign, point or space, 1 to 18446744073709551615)";

// The validation of a catalog's rows, one rule family per step; each step
// gives the first fault it finds, or nothing.
class catalog_builder {
 public:
  using fault = std::optional<catalog_error>;

  constexpr catalog_builder(std::string_view file_name, const csv_record& first_row)
      : first_line_(first_row.position.line) {
    prices_.file = std::string(file_name);
    prices_.provider = first_row.fields[0].text;
    prices_.currency = first_row.fields[1].text;
    prices_.snapshot_date = first_row.fields[2].text;
  }

  [[nodiscard]] constexpr catalog_error fail(csv_position at, const std::string& found,
                                             const std::string& expected) const {
    return catalog_error{prices_.file, at, found, expected};
  }

  [[nodiscard]] constexpr fault add(const csv_record& record) {
    const auto& f = record.fields;
    if (f.size() == 1 && f.front().text.empty() && !f.front().quoted) {
      return fail(record.position, "an empty line", "a row of 9 fields (" + std::string(catalog_header) + ")");
    }
    if (f.size() != catalog_columns.size()) {
      return fail(f.size() > catalog_columns.size() ? f[catalog_columns.size()].position : record.end,
                  "a row of " + decimal_digits(f.size()) + " fields", "9 fields (" + std::string(catalog_header) + ")");
    }
    if (auto e = check_snapshot_fields(f)) {
      return e;
    }
    catalog_row row;
    row.line = record.position.line;
    if (auto e = read_values(f, row)) {
      return e;
    }
    if (auto e = check_against_earlier_rows(f, row)) {
      return e;
    }
    prices_.rows.push_back(std::move(row));
    gpu_positions_.push_back(f[3].position);
    return std::nullopt;
  }

  // Every GPU has exactly the three durations.
  [[nodiscard]] constexpr fault check_complete() const {
    for (const auto& id : prices_.gpu_ids()) {
      const auto days = prices_.durations_of(id);
      if (days.size() != package_durations.size()) {
        std::size_t first_row = 0;
        while (prices_.rows[first_row].gpu != id) {
          ++first_row;
        }
        return fail(gpu_positions_[first_row], id + " with rows for " + join_days(days, "and") + " days only",
                    "one row each for 3, 7 and 30 days per GPU");
      }
    }
    return std::nullopt;
  }

  [[nodiscard]] constexpr catalog take() && { return std::move(prices_); }

 private:
  [[nodiscard]] static constexpr std::string found(const std::vector<csv_field>& f, std::size_t column) {
    return std::string(catalog_columns[column]) + " " + printable(f[column].text);
  }

  // provider, currency, snapshot_date: one catalog, one snapshot.
  [[nodiscard]] constexpr fault check_snapshot_fields(const std::vector<csv_field>& f) const {
    const auto first_line = decimal_digits(first_line_);
    if (!is_clean_text(f[0].text)) {
      return fail(f[0].position, found(f, 0), "a provider name: printable, non-empty, no space at either end");
    }
    if (f[0].text != prices_.provider) {
      return fail(f[0].position, found(f, 0),
                  printable(prices_.provider) + " as on line " + first_line + " (one provider per catalog)");
    }
    if (f[1].text != catalog_currency) {
      return fail(f[1].position, found(f, 1), "USD (prices are US cents; there is no currency conversion)");
    }
    if (!is_iso_date(f[2].text)) {
      return fail(f[2].position, found(f, 2), "an ISO 8601 calendar date YYYY-MM-DD");
    }
    if (f[2].text != prices_.snapshot_date) {
      return fail(f[2].position, found(f, 2),
                  printable(prices_.snapshot_date) + " as on line " + first_line + " (one snapshot per catalog)");
    }
    return std::nullopt;
  }

  [[nodiscard]] static constexpr std::optional<std::uint64_t> positive(const csv_field& field) noexcept {
    const auto n = parse_unsigned(field.text);
    if (!n || n.value() == 0) {
      return std::nullopt;
    }
    return n.value();
  }

  // gpu, name, memory_gb_per_gpu, gpus_per_lot, days, lot_price_cents.
  [[nodiscard]] constexpr fault read_values(const std::vector<csv_field>& f, catalog_row& row) const {
    if (!is_gpu_id(f[3].text)) {
      return fail(f[3].position, found(f, 3), "a GPU id of lower-case letters, digits and '-', not starting with '-'");
    }
    row.gpu = f[3].text;
    if (!is_clean_text(f[4].text)) {
      return fail(f[4].position, found(f, 4), "a name: printable, non-empty, no space at either end");
    }
    row.name = f[4].text;
    const auto memory = positive(f[5]);
    if (!memory) {
      return fail(f[5].position, found(f, 5), std::string(positive_integer_text) + " of GB per GPU");
    }
    row.memory_per_gpu = memory_gb{*memory};
    const auto per_lot = positive(f[6]);
    if (!per_lot) {
      return fail(f[6].position, found(f, 6), std::string(positive_integer_text) + " of GPUs in one lot");
    }
    row.gpus_per_lot = gpu_count{*per_lot};
    const auto duration = duration_named(f[7].text);
    if (!duration) {
      return fail(f[7].position, found(f, 7), "3, 7 or 30 (days of a package)");
    }
    row.days = *duration;
    const auto price = money::parse_cents(f[8].text);
    if (!price) {
      return fail(f[8].position, found(f, 8),
                  price.error() == money_error::too_large
                      ? std::string("a price that fits 64 bits (at most 18446744073709551615 cents)")
                      : std::string(positive_integer_text) + " of US cents");
    }
    if (price.value().cents() == 0) {
      return fail(f[8].position, found(f, 8), std::string(positive_integer_text) + " of US cents");
    }
    row.lot_price = price.value();
    return std::nullopt;
  }

  // A GPU's rows do not repeat a duration and agree with its first row.
  [[nodiscard]] constexpr fault check_against_earlier_rows(const std::vector<csv_field>& f,
                                                           const catalog_row& row) const {
    if (const auto* same = prices_.find(row.gpu, row.days); same != nullptr) {
      return fail(f[7].position, "a second " + row.gpu + " row for " + f[7].text + " days",
                  "one row per GPU and duration (the first is on line " + decimal_digits(same->line) + ")");
    }
    const auto earlier = std::ranges::find_if(prices_.rows, [&](const catalog_row& r) { return r.gpu == row.gpu; });
    if (earlier == prices_.rows.end()) {
      return std::nullopt;
    }
    const auto as_on = [&](std::uint64_t value) {
      return decimal_digits(value) + " as on line " + decimal_digits(earlier->line) + " (the same on a GPU's three rows)";
    };
    if (earlier->gpus_per_lot != row.gpus_per_lot) {
      return fail(f[6].position, found(f, 6) + " for " + row.gpu, as_on(earlier->gpus_per_lot.value));
    }
    if (earlier->memory_per_gpu != row.memory_per_gpu) {
      return fail(f[5].position, found(f, 5) + " for " + row.gpu, as_on(earlier->memory_per_gpu.value));
    }
    return std::nullopt;
  }

  std::size_t first_line_;
  catalog prices_;
  std::vector<csv_position> gpu_positions_;  // of each row's gpu field, parallel to prices_.rows
};

// The header, exactly: the first field that differs, or a wrong count.
[[nodiscard]] constexpr std::optional<catalog_error> check_header(const std::string& file, const csv_record& header) {
  const std::string hint = "the header " + std::string(catalog_header);
  for (std::size_t i = 0; i < header.fields.size() && i < catalog_columns.size(); ++i) {
    if (header.fields[i].text != catalog_columns[i]) {
      return catalog_error{file, header.fields[i].position,
                           "header field " + decimal_digits(i + 1) + " " + printable(header.fields[i].text),
                           printable(catalog_columns[i]) + " (" + hint + ")"};
    }
  }
  if (header.fields.size() != catalog_columns.size()) {
    return catalog_error{
        file,
        header.fields.size() > catalog_columns.size() ? header.fields[catalog_columns.size()].position : header.end,
        "a header of " + decimal_digits(header.fields.size()) + " fields", "9 fields: " + hint};
  }
  return std::nullopt;
}

}  // namespace detail

// Parses and validates a catalog. `file_name` only labels the messages, so
// the function works on any text (a file's content, a fuzzer's input). The
// rules: the header exactly `catalog_header`; 9 fields on every row; one
// provider, currency (USD) and ISO snapshot date on every row; gpu ids
// [a-z0-9][a-z0-9-]*; a name, printable and non-empty; memory_gb_per_gpu
// and gpus_per_lot positive integers, the same on a GPU's rows; days 3, 7 or
// 30, each exactly once per GPU; lot_price_cents a positive integer of cents
// within 64 bits. Fields may be quoted as RFC 4180 says; line ends LF or
// CRLF; empty lines at the end are ignored.
[[nodiscard]] constexpr result<catalog, catalog_error> parse_catalog(std::string_view text,
                                                                   std::string_view file_name) {
  const std::string file(file_name);
  const std::string header_hint = "the header " + std::string(catalog_header);
  if (text.empty()) {
    return catalog_error{file, {1, 1}, "an empty file", header_hint};
  }
  if (text.starts_with("\xEF\xBB\xBF")) {
    return catalog_error{file, {1, 1}, "a UTF-8 byte order mark",
                         header_hint + " at the very start of the file (UTF-8 without byte order mark)"};
  }
  const auto records = detail::read_csv(text);
  if (!records) {
    const auto& e = records.error();
    return catalog_error{file, e.position, e.found, e.expected};
  }
  const auto& all = records.value();
  if (all.empty()) {
    return catalog_error{file, {1, 1}, "only empty lines", header_hint};
  }
  if (auto e = detail::check_header(file, all.front())) {
    return *e;
  }
  if (all.size() == 1) {
    return catalog_error{file, {2, 1}, "no price rows after the header",
                         "at least one GPU with rows for 3, 7 and 30 days"};
  }
  // The first row names the provider, currency and snapshot; a first row
  // too short to do so is refused by add() before they are compared.
  detail::csv_record first = all[1];
  first.fields.resize(catalog_columns.size());
  detail::catalog_builder builder(file, first);
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (auto e = builder.add(all[r])) {
      return *e;
    }
  }
  if (auto e = builder.check_complete()) {
    return *e;
  }
  return std::move(builder).take();
}

}  // namespace iteragpu

#endif  // ITERAGPU_CATALOG_HPP
