#ifndef ITERAGPU_REPORT_FIT_HPP
#define ITERAGPU_REPORT_FIT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The results of a package search and of a durations comparison: JSON for
/// machines (data/schema/packages.schema.json and durations.schema.json;
/// cents as integers, exact decimals as strings) and aligned tables for
/// people, with units in the column heads.
namespace iteragpu::report {

/// How a package's price per GPU-hour is computed and rounded, as the outputs note it.
inline constexpr std::string_view gpu_hour_rounding_note =
    "price_per_gpu_hour_cents = total_price_cents / gpu_hours (lots x GPUs per lot x days x 24), rounded half to "
    "even to 4 decimal places of a cent";
/// How the table rounds headroom and shortfall, as the text notes it.
inline constexpr std::string_view headroom_rounding_note =
    "the table's headroom is in GiB (2^30 bytes) rounded down to 0.01; a tight package shows its shortfall against "
    "the memory one can count on, rounded up, with a minus sign; the JSON output has the exact bytes";
/// How a price per GPU-day is computed and rounded, as the outputs note it.
inline constexpr std::string_view gpu_day_rounding_note =
    "price_per_gpu_day_cents = lot_price_cents / (GPUs per lot x days), rounded half to even to 4 decimal places "
    "of a cent";
/// How a saving against the shortest package is computed and rounded, as the outputs note it.
inline constexpr std::string_view saving_rounding_note =
    "saving = the shortest package's price per GPU-day less this one's, computed exactly and rounded once, half "
    "to even, to 4 decimal places of a cent (negative when dearer); saving_percent = that exact saving over the "
    "shortest's price per GPU-day, x 100, rounded once, half to even, to 2 decimal places";
/// How the cost per accepted result of one lot is computed and rounded, as the outputs note it.
inline constexpr std::string_view lot_unit_cost_note =
    "unit_cost_cents = lot_price_cents / accepted_results, rounded half to even to 4 decimal places of a cent";

namespace detail {

/// The text as a JSON string.
[[nodiscard]] boost::json::string json_text(std::string_view s);

// An aligned table: text columns left-aligned, numbers right-aligned, two
// spaces between columns, no space at the end of a line.
struct table_column {
  std::string head;
  bool number{true};
};

void write_table(std::ostream& out, const std::vector<table_column>& columns,
                 const std::vector<std::vector<std::string>>& rows);

void write_catalog_lines(std::ostream& out, const pricing::catalog_snapshot& snapshot, std::string_view source);

[[nodiscard]] inline std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return to_decimal_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace detail

/// The package at fault of a failed search or comparison and what passes 64
/// bits there, without the flag or the remedy (the command line adds them):
/// `b200, 7 days: 3 lots x 2 GPUs per lot does not fit in 64 bits`. An
/// error without a package at fault is its kind's sentence.
[[nodiscard]] std::string describe(const pricing::search_error& error);

/// What every reader of a package list must be told, in the order it matters.
[[nodiscard]] std::vector<std::string_view> package_list_notes(const pricing::package_list& list);

/// One package of a list, as the JSON of a search holds it.
[[nodiscard]] boost::json::object to_json(const pricing::package_match& m);

/// One object: the search (need, GPUs, duration, GPU-hours), the memory rule
/// when a need was given, the order, the packages and the notes.
[[nodiscard]] boost::json::object to_json(const pricing::package_list& list);

namespace detail {

// `Packages of at least 2 GPUs that each hold X GiB (N bytes), at least H
// GPU-hours, 7 days: 5 packages`: "GPUs" as the rows' column counts them
// (lots x GPUs per lot, which whole lots may round up).
[[nodiscard]] std::string search_title(const pricing::package_list& list);

// The columns of a package list: memory ones with a need, unused hours
// when hours were asked, the unit cost with accepted results.
[[nodiscard]] std::vector<table_column> package_columns(const pricing::package_search& s, const std::string& currency);

// One line of the table, in the order of package_columns().
[[nodiscard]] std::vector<std::string> package_cells(const pricing::package_match& m);

}  // namespace detail

/// The illustrative label on top (for an illustrative catalog), what was
/// asked and where the need comes from, the table, the memory rule with a
/// need, then the notes. `source` names the catalog as in write_text() of a
/// quote.
void write_text(std::ostream& out, const pricing::package_list& list, std::string_view source);

/// What every reader of a durations comparison must be told, in the order it matters.
[[nodiscard]] std::vector<std::string_view> durations_notes(const pricing::durations_comparison& c);

/// The durations comparison as JSON (data/schema/durations.schema.json).
[[nodiscard]] boost::json::object to_json(const pricing::durations_comparison& c);

/// The durations comparison as an aligned table for people, with its notes; `source` names the
/// catalog.
void write_text(std::ostream& out, const pricing::durations_comparison& c, std::string_view source);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/fit.ipp"
#endif

#endif  // ITERAGPU_REPORT_FIT_HPP
