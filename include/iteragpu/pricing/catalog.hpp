#ifndef ITERAGPU_PRICING_CATALOG_HPP
#define ITERAGPU_PRICING_CATALOG_HPP

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "iteragpu/one_of.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/pricing/catalog_fault.hpp"
#include "iteragpu/pricing/detail/csv.hpp"
#include "iteragpu/pricing/money.hpp"
#include "iteragpu/pricing/text_position.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The package catalog: GPUs sold in lots for 3, 7 or 30 days at a lot price, read from a CSV file
/// and validated whole (parse_catalog()), with the line and column of the first fault.
namespace iteragpu::pricing {

/// The length of a package in days. Packages are billed whole: there is no
/// proration by the hour, so only the durations a catalog lists exist.
struct package_days {
  std::uint64_t value{0};  ///< whole days
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(package_days, package_days) = default;
};

/// Every GPU of a catalog comes in exactly these durations, shortest first.
inline constexpr std::array<package_days, 3> package_durations{package_days{3}, package_days{7}, package_days{30}};

/// The position of `days` in package_durations, or nothing for a duration
/// no catalog has.
[[nodiscard]] constexpr std::optional<std::size_t> duration_index(package_days days) noexcept {
  for (std::size_t i = 0; i < package_durations.size(); ++i) {
    if (package_durations[i] == days) {
      return i;
    }
  }
  return std::nullopt;
}

/// A number of GPUs.
struct gpu_count {
  std::uint64_t value{0};  ///< GPUs
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(gpu_count, gpu_count) = default;
};

/// Memory per GPU in decimal GB (10^9 bytes), as the vendor's datasheet states it.
struct memory_gb {
  std::uint64_t value{0};  ///< whole GB
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(memory_gb, memory_gb) = default;
};

/// The first line of every catalog file, exactly.
inline constexpr std::string_view catalog_header =
    "provider,currency,snapshot_date,gpu,name,memory_gb_per_gpu,gpus_per_lot,days,lot_price_cents";
/// The catalog's columns, in the order of catalog_header.
inline constexpr std::array<std::string_view, 9> catalog_columns{"provider",     "currency", "snapshot_date",
                                                                 "gpu",          "name",     "memory_gb_per_gpu",
                                                                 "gpus_per_lot", "days",     "lot_price_cents"};
/// The one currency a catalog is priced in.
inline constexpr std::string_view catalog_currency = "USD";
/// A catalog whose provider is this is derived from public list prices, not
/// taken from a provider's offer; every result computed from it says so.
inline constexpr std::string_view illustrative_provider = "illustrative";

/// Who priced the packages, in which currency, on which day: one per catalog.
struct catalog_snapshot {
  std::string provider;  ///< who priced the packages; illustrative_provider for public list prices
  std::string currency;  ///< always catalog_currency
  std::string date;      ///< ISO 8601, YYYY-MM-DD
  /// Whether the prices are derived from public list prices (see illustrative_provider).
  [[nodiscard]] bool illustrative() const noexcept { return provider == illustrative_provider; }
  friend bool operator==(const catalog_snapshot&, const catalog_snapshot&) = default;
};

/// One GPU of a catalog: its packages of 3, 7 and 30 days, each a lot of
/// `gpus_per_lot` GPUs at a lot price.
struct gpu_offer {
  std::string id;                                             ///< the id a search names it by: `[a-z0-9][a-z0-9-]*`
  std::string name;                                           ///< its name, as printed
  memory_gb memory_per_gpu;                                   ///< its memory, as the datasheet states it
  gpu_count gpus_per_lot;                                     ///< the GPUs in one lot of each package
  std::array<money, package_durations.size()> lot_prices;     ///< in the order of package_durations
  std::array<std::size_t, package_durations.size()> lines{};  ///< where each package is in its file

  /// The lot price of a duration the catalog lists, or nothing.
  [[nodiscard]] std::optional<money> lot_price(package_days days) const noexcept;
  /// Equal when every member is equal: the same GPU, sold the same way, on the same lines.
  friend bool operator==(const gpu_offer&, const gpu_offer&) = default;
};

namespace detail {
class catalog_builder;
}  // namespace detail

/// A validated price catalog. It is built only by parse_catalog(), so every
/// catalog holds its rules: one snapshot, every GPU with exactly the three
/// durations, one memory size and lot size per GPU, positive prices.
class catalog {
 public:
  /// Who priced the packages, in which currency, on which day.
  [[nodiscard]] const catalog_snapshot& snapshot() const noexcept { return snapshot_; }
  /// How the catalog's file is named in messages.
  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  /// Whether the prices are derived from public list prices (see illustrative_provider).
  [[nodiscard]] bool illustrative() const noexcept { return snapshot_.illustrative(); }

  /// The GPUs in the order of their first row in the file.
  [[nodiscard]] std::span<const gpu_offer> offers() const noexcept { return offers_; }
  /// The packages in the catalog: three per GPU.
  [[nodiscard]] std::size_t package_count() const noexcept { return offers_.size() * package_durations.size(); }

  /// The GPU with this id, or null; a binary search.
  [[nodiscard]] const gpu_offer* find(std::string_view id) const noexcept;

 private:
  friend class detail::catalog_builder;
  catalog() = default;

  std::string file_;
  catalog_snapshot snapshot_;
  std::vector<gpu_offer> offers_;
  std::vector<std::size_t> by_id_;  // indices into offers_, sorted by id
};

/// A field of the header or of a row: its column and its text.
struct catalog_field {
  std::size_t column{0};  ///< an index into catalog_columns
  std::string found;      ///< the text as read (unquoted)
  /// Equal when both members are.
  friend bool operator==(const catalog_field&, const catalog_field&) = default;
};

/// after_closing_quote: what follows a closing quote.
struct stray_character {
  std::string found;  ///< the one character found
  /// Equal when the characters are.
  friend bool operator==(const stray_character&, const stray_character&) = default;
};

/// header_field_count, row_field_count: the fields counted.
struct field_count {
  std::uint64_t fields{0};  ///< how many the header or the row has
  /// Equal when the counts are.
  friend bool operator==(const field_count&, const field_count&) = default;
};

/// display_character: the field, and what is wrong with the character the
/// error's position points at.
struct bad_character {
  catalog_field field;                                           ///< the provider or the name
  display_text_errc character{display_text_errc::invalid_utf8};  ///< the character's fault
  /// Equal when both members are.
  friend bool operator==(const bad_character&, const bad_character&) = default;
};

/// other_provider, other_date, other_name: a field whose text an earlier
/// row gave otherwise.
struct other_text {
  catalog_field field;  ///< the field as this row has it
  std::string gpu;      ///< other_name: the row's GPU id; empty for the provider and the date (the catalog's)
  std::size_t line{0};  ///< the earlier row's line
  std::string agreed;   ///< the text the earlier row gave
  friend bool operator==(const other_text&, const other_text&) = default;
};

/// other_gpus_per_lot, other_memory_per_gpu: a figure the GPU's first row gave otherwise.
struct other_figure {
  catalog_field field;      ///< the field as this row has it
  std::string gpu;          ///< the row's GPU id
  std::size_t line{0};      ///< the GPU's first row's line
  std::uint64_t agreed{0};  ///< the figure that row gave
  friend bool operator==(const other_figure&, const other_figure&) = default;
};

/// second_duration_row: a GPU's second row for one duration.
struct second_row {
  catalog_field field;  ///< the days field of this row
  std::string gpu;      ///< the row's GPU id
  std::size_t line{0};  ///< the line of the first row for that duration
  friend bool operator==(const second_row&, const second_row&) = default;
};

/// missing_durations: the durations a GPU has rows for, not all three.
struct missing_rows {
  std::string gpu;                 ///< the GPU id
  std::vector<package_days> days;  ///< the durations it has rows for
  /// Equal when both members are.
  friend bool operator==(const missing_rows&, const missing_rows&) = default;
};

/// What a catalog_error carries beyond its code, one alternative per shape:
/// nothing (std::monostate) for the codes of the text as a whole, the CSV
/// syntax other than after_closing_quote, and empty_line; stray_character
/// (after_closing_quote); field_count (header_field_count,
/// row_field_count); bad_character (display_character); other_text
/// (other_provider, other_date, other_name); other_figure
/// (other_gpus_per_lot, other_memory_per_gpu); second_row
/// (second_duration_row); missing_rows (missing_durations); and
/// catalog_field for every other code: a field that breaks its column's rule.
using catalog_error_data = one_of<std::monostate, catalog_field, stray_character, field_count, bad_character,
                                  other_text, other_figure, second_row, missing_rows>;

/// Why a catalog was refused, at the line and column of the fault: its
/// kind, and in `what` the data that kind names (catalog_error_data says
/// which; parse_catalog() builds no other pairing). report::describe() words it.
struct catalog_error {
  std::string file;                             ///< the file's name in messages
  text_position position;                       ///< the line and column of the fault (1-based)
  catalog_errc code{catalog_errc::empty_file};  ///< what is wrong there
  catalog_error_data what{};                    ///< the data the code names

  friend bool operator==(const catalog_error&, const catalog_error&) = default;
};

/// The field a catalog_error points at, for the codes whose data holds
/// one (catalog_field, bad_character, other_text, other_figure,
/// second_row); null for the others.
[[nodiscard]] constexpr const catalog_field* field_of(const catalog_error& e) noexcept {
  if (const auto* f = e.what.get_if<catalog_field>()) {
    return f;
  }
  if (const auto* c = e.what.get_if<bad_character>()) {
    return &c->field;
  }
  if (const auto* t = e.what.get_if<other_text>()) {
    return &t->field;
  }
  if (const auto* n = e.what.get_if<other_figure>()) {
    return &n->field;
  }
  if (const auto* r = e.what.get_if<second_row>()) {
    return &r->field;
  }
  return nullptr;
}

/// `3, 7 and 30` or `3, 7 or 30`.
[[nodiscard]] std::string join_days(std::span<const package_days> days, std::string_view conjunction);

/// Whether `year` of the Gregorian calendar has a 29th of February.
[[nodiscard]] constexpr bool is_leap_year(std::uint64_t year) noexcept {
  return (year % 4U == 0U && year % 100U != 0U) || year % 400U == 0U;
}

/// Whether `text` is a date as the catalog's `as_of` column writes it:
/// YYYY-MM-DD, a real calendar day.
[[nodiscard]] constexpr bool is_iso_date(std::string_view text) noexcept {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
    return false;
  }
  const auto year = parse_unsigned(text.substr(0, 4));
  const auto month = parse_unsigned(text.substr(5, 2));
  const auto day = parse_unsigned(text.substr(8, 2));
  if (!year || !month || !day || *month < 1 || *month > 12 || *day < 1) {
    return false;
  }
  constexpr std::array<std::uint64_t, 12> month_days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const std::uint64_t last = month_days[*month - 1] + (*month == 2 && is_leap_year(*year) ? 1U : 0U);
  return *day <= last;
}

/// Whether `text` is a GPU id as the catalog's `gpu` column accepts it:
/// `[a-z0-9][a-z0-9-]*`.
[[nodiscard]] constexpr bool is_gpu_id(std::string_view text) noexcept {
  const auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || is_digit(c); };
  if (text.empty() || !lower_or_digit(text.front())) {
    return false;
  }
  return std::ranges::all_of(text, [&](char c) { return lower_or_digit(c) || c == '-'; });
}

/// The package duration that the catalog's `duration_days` column names:
/// `3`, `7` or `30` exactly (no leading zero, no sign); nothing otherwise.
[[nodiscard]] constexpr std::optional<package_days> duration_named(std::string_view text) noexcept {
  const auto n = parse_unsigned(text);
  if (!n || text.front() == '0' || !duration_index(package_days{*n})) {
    return std::nullopt;
  }
  return package_days{*n};
}

namespace detail {

// An error of `file` at `at`, of kind `what`, its other members empty.
[[nodiscard]] catalog_error file_error(const std::string& file, text_position at, catalog_errc what);

// Builds a catalog from its records, one rule family per step; each step
// gives the first fault it finds, or a success. Every look-up is a map search,
// so a catalog of n rows is validated in O(n log n).
class catalog_builder {
 public:
  using fault = result<void, catalog_error>;

  catalog_builder(std::string_view file_name, const csv_record& first_row)
      : first_line_(first_row.position.line), file_(file_name) {
    const auto& f = first_row.fields;
    snapshot_.provider = !f.empty() ? f[0].text : std::string();
    snapshot_.currency = f.size() > 1 ? f[1].text : std::string();
    snapshot_.date = f.size() > 2 ? f[2].text : std::string();
  }

  // An error of this file at `at`: its other members are filled by the caller.
  [[nodiscard]] catalog_error fail(text_position at, catalog_errc what) const { return file_error(file_, at, what); }

  [[nodiscard]] fault add(const csv_record& record);

  // Every GPU has exactly the three durations.
  [[nodiscard]] fault check_complete() const;

  [[nodiscard]] catalog take() &&;

 private:
  struct row_values {
    memory_gb memory;
    gpu_count per_lot;
    package_days days;
    money price;
  };

  // Field `column` of a row, as the errors carry it.
  [[nodiscard]] static catalog_field field_at(const std::vector<csv_field>& f, std::size_t column) {
    return catalog_field{column, f[column].text};
  }

  // The error of field `column` of a row: at its start, with its text.
  [[nodiscard]] catalog_error fail_field(const std::vector<csv_field>& f, std::size_t column, catalog_errc what) const {
    catalog_error e = fail(f[column].position, what);
    e.what = field_at(f, column);
    return e;
  }

  // Text a catalog keeps and prints again: non-empty, no space at either
  // end, valid UTF-8 without control or bidirectional control characters.
  // The faults of earlier versions (empty, spaces, C0 controls) keep their
  // message; the others point at the offending character.
  [[nodiscard]] fault check_display_text(const std::vector<csv_field>& f, std::size_t column) const;

  // Where byte `offset` of a field's text is in the file, for a field on one
  // line: past the opening quote, and past the doubled quotes before it.
  [[nodiscard]] static text_position column_of(const csv_field& field, std::size_t offset);

  // provider, currency, snapshot_date: one catalog, one snapshot.
  [[nodiscard]] fault check_snapshot_fields(const std::vector<csv_field>& f) const;

  [[nodiscard]] static std::optional<std::uint64_t> positive(const csv_field& field) noexcept;

  // gpu, name, memory_gb_per_gpu, gpus_per_lot, days, lot_price_cents.
  [[nodiscard]] fault read_values(const std::vector<csv_field>& f, row_values& row) const;

  // A GPU's rows do not repeat a duration and agree with its first row.
  [[nodiscard]] fault place(const std::vector<csv_field>& f, std::size_t line, const row_values& row);

  std::size_t first_line_;
  std::string file_;
  catalog_snapshot snapshot_;
  std::vector<gpu_offer> offers_;
  std::map<std::string, std::size_t, std::less<>> index_;  // id -> position in offers_
  std::vector<text_position> first_gpu_field_;             // per offer: its first row's gpu field
  std::vector<std::size_t> first_line_of_;                 // per offer: its first row's line
};

// The header, exactly: the first field that differs, or a wrong count.
[[nodiscard]] result<void, catalog_error> check_header(const std::string& file, const csv_record& header);

// The records of a catalog in file order: the header, then the rows given to
// the builder. Empty lines are ignored at the end only: the first of a run
// is kept until a record after it shows that the run was not at the end.
class catalog_records {
 public:
  explicit catalog_records(std::string file) : file_(std::move(file)) {}

  [[nodiscard]] result<void, catalog_error> take(csv_record record);

  [[nodiscard]] result<catalog, catalog_error> finish() &&;

 private:
  [[nodiscard]] result<void, catalog_error> place(const csv_record& record);

  std::string file_;
  bool header_seen_{false};
  std::optional<catalog_builder> builder_{};
  std::optional<csv_record> pending_empty_{};
};

}  // namespace detail

/// Parses and validates a catalog. `file_name` only labels the messages, so
/// the function works on any text (a file's content, a fuzzer's input). The
/// rules: the header exactly `catalog_header`; 9 fields on every row; one
/// provider, currency (USD) and ISO snapshot date on every row; gpu ids
/// [a-z0-9][a-z0-9-]*; a provider and a name of valid UTF-8, non-empty,
/// without control or bidirectional control characters or a space at either
/// end; memory_gb_per_gpu and gpus_per_lot positive integers, the same on a
/// GPU's rows, as is the name; days 3, 7 or 30, each exactly once per GPU; lot_price_cents a
/// positive integer of cents within 64 bits. Fields may be quoted as RFC 4180
/// says; line ends LF or CRLF; empty lines at the end are ignored. Time and
/// memory are linear in the text's length (up to a log factor for the id
/// look-ups), whatever it holds.
[[nodiscard]] result<catalog, catalog_error> parse_catalog(std::string_view text, std::string_view file_name);

}  // namespace iteragpu::pricing

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/pricing/impl/catalog.ipp"
#endif

#endif  // ITERAGPU_PRICING_CATALOG_HPP
