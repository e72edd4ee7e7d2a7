#ifndef ITERAGPU_CATALOG_HPP
#define ITERAGPU_CATALOG_HPP

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
  for (const char c : text) {
    if (!lower_or_digit(c) && c != '-') {
      return false;
    }
  }
  return true;
}

// Non-empty, one line, no control character, no space at either end: text
// that prints as it reads.
[[nodiscard]] constexpr bool is_clean_text(std::string_view text) noexcept {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') {
    return false;
  }
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20U || byte == 0x7FU) {
      return false;
    }
  }
  return true;
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

inline constexpr std::string_view positive_integer_text =
    "a positive whole number in digits (no sign, point or space, 1 to 18446744073709551615)";

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
  const auto fail = [&](detail::csv_position at, const std::string& found, const std::string& expected) {
    return catalog_error{file, at, found, expected};
  };
  const std::string header_hint = "the header " + std::string(catalog_header);

  if (text.empty()) {
    return fail({1, 1}, "an empty file", header_hint);
  }
  if (text.starts_with("\xEF\xBB\xBF")) {
    return fail({1, 1}, "a UTF-8 byte order mark",
                header_hint + " at the very start of the file (UTF-8 without byte order mark)");
  }
  const auto records = detail::read_csv(text);
  if (!records) {
    const auto& e = records.error();
    return fail(e.position, e.found, e.expected);
  }
  const auto& all = records.value();
  if (all.empty()) {
    return fail({1, 1}, "only empty lines", header_hint);
  }

  // The header.
  const auto& header = all.front();
  for (std::size_t i = 0; i < header.fields.size() && i < catalog_columns.size(); ++i) {
    if (header.fields[i].text != catalog_columns[i]) {
      return fail(header.fields[i].position,
                  "header field " + detail::decimal_digits(i + 1) + " " + detail::printable(header.fields[i].text),
                  detail::printable(catalog_columns[i]) + " (" + header_hint + ")");
    }
  }
  if (header.fields.size() != catalog_columns.size()) {
    return fail(header.fields.size() > catalog_columns.size() ? header.fields[catalog_columns.size()].position
                                                              : header.end,
                "a header of " + detail::decimal_digits(header.fields.size()) + " fields",
                "9 fields: " + header_hint);
  }
  if (all.size() == 1) {
    return fail({2, 1}, "no price rows after the header", "at least one GPU with rows for 3, 7 and 30 days");
  }

  catalog c;
  c.file = file;
  std::vector<detail::csv_position> gpu_positions;  // parallel to c.rows
  for (std::size_t r = 1; r < all.size(); ++r) {
    const auto& record = all[r];
    const auto& f = record.fields;
    if (f.size() == 1 && f.front().text.empty() && !f.front().quoted) {
      return fail(record.position, "an empty line", "a row of 9 fields (" + std::string(catalog_header) + ")");
    }
    if (f.size() != catalog_columns.size()) {
      return fail(f.size() > catalog_columns.size() ? f[catalog_columns.size()].position : record.end,
                  "a row of " + detail::decimal_digits(f.size()) + " fields",
                  "9 fields (" + std::string(catalog_header) + ")");
    }
    const auto found = [&](std::size_t column) {
      return std::string(catalog_columns[column]) + " " + detail::printable(f[column].text);
    };
    const auto& first = all[1].fields;
    const auto first_line = detail::decimal_digits(all[1].position.line);

    // provider, currency, snapshot_date: one catalog, one snapshot.
    if (!detail::is_clean_text(f[0].text)) {
      return fail(f[0].position, found(0), "a provider name: printable, non-empty, no space at either end");
    }
    if (f[0].text != first[0].text) {
      return fail(f[0].position, found(0),
                  detail::printable(first[0].text) + " as on line " + first_line + " (one provider per catalog)");
    }
    if (f[1].text != catalog_currency) {
      return fail(f[1].position, found(1), "USD (prices are US cents; there is no currency conversion)");
    }
    if (!detail::is_iso_date(f[2].text)) {
      return fail(f[2].position, found(2), "an ISO 8601 calendar date YYYY-MM-DD");
    }
    if (f[2].text != first[2].text) {
      return fail(f[2].position, found(2),
                  detail::printable(first[2].text) + " as on line " + first_line + " (one snapshot per catalog)");
    }

    catalog_row row;
    row.line = record.position.line;
    if (!detail::is_gpu_id(f[3].text)) {
      return fail(f[3].position, found(3), "a GPU id of lower-case letters, digits and '-', not starting with '-'");
    }
    row.gpu = f[3].text;
    if (!detail::is_clean_text(f[4].text)) {
      return fail(f[4].position, found(4), "a name: printable, non-empty, no space at either end");
    }
    row.name = f[4].text;

    const auto positive = [&](std::size_t column) -> std::optional<std::uint64_t> {
      const auto n = detail::parse_unsigned(f[column].text);
      if (!n || n.value() == 0) {
        return std::nullopt;
      }
      return n.value();
    };
    const auto memory = positive(5);
    if (!memory) {
      return fail(f[5].position, found(5), std::string(detail::positive_integer_text) + " of GB per GPU");
    }
    row.memory_per_gpu = memory_gb{*memory};
    const auto per_lot = positive(6);
    if (!per_lot) {
      return fail(f[6].position, found(6), std::string(detail::positive_integer_text) + " of GPUs in one lot");
    }
    row.gpus_per_lot = gpu_count{*per_lot};
    bool known_duration = false;
    for (const auto d : package_durations) {
      if (f[7].text == detail::decimal_digits(d.value)) {
        row.days = d;
        known_duration = true;
      }
    }
    if (!known_duration) {
      return fail(f[7].position, found(7), "3, 7 or 30 (days of a package)");
    }
    const auto price = money::parse_cents(f[8].text);
    if (!price || price.value().cents() == 0) {
      return fail(f[8].position, found(8),
                  price || price.error() != money_error::too_large
                      ? std::string(detail::positive_integer_text) + " of US cents"
                      : std::string("a price that fits 64 bits (at most 18446744073709551615 cents)"));
    }
    row.lot_price = price.value();

    // A GPU's rows do not repeat a duration and agree with its first row.
    if (const auto* same = c.find(row.gpu, row.days); same != nullptr) {
      return fail(f[7].position, "a second " + row.gpu + " row for " + f[7].text + " days",
                  "one row per GPU and duration (the first is on line " + detail::decimal_digits(same->line) + ")");
    }
    for (const auto& earlier : c.rows) {
      if (earlier.gpu != row.gpu) {
        continue;
      }
      const auto earlier_line = detail::decimal_digits(earlier.line);
      if (earlier.gpus_per_lot != row.gpus_per_lot) {
        return fail(f[6].position, found(6) + " for " + row.gpu,
                    detail::decimal_digits(earlier.gpus_per_lot.value) + " as on line " + earlier_line +
                        " (the same on a GPU's three rows)");
      }
      if (earlier.memory_per_gpu != row.memory_per_gpu) {
        return fail(f[5].position, found(5) + " for " + row.gpu,
                    detail::decimal_digits(earlier.memory_per_gpu.value) + " as on line " + earlier_line +
                        " (the same on a GPU's three rows)");
      }
      break;
    }
    c.rows.push_back(std::move(row));
    gpu_positions.push_back(f[3].position);
  }
  c.provider = all[1].fields[0].text;
  c.currency = all[1].fields[1].text;
  c.snapshot_date = all[1].fields[2].text;

  // Every GPU has the three durations.
  for (const auto& id : c.gpu_ids()) {
    const auto days = c.durations_of(id);
    if (days.size() != package_durations.size()) {
      std::size_t first_row = 0;
      while (c.rows[first_row].gpu != id) {
        ++first_row;
      }
      return fail(gpu_positions[first_row], id + " with rows for " + detail::join_days(days, "and") + " days only",
                  "one row each for 3, 7 and 30 days per GPU");
    }
  }
  return c;
}

}  // namespace iteragpu

#endif  // ITERAGPU_CATALOG_HPP
