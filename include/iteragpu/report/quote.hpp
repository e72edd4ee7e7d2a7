#ifndef ITERAGPU_REPORT_QUOTE_HPP
#define ITERAGPU_REPORT_QUOTE_HPP

#include <string>
#include <string_view>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/pricing/package.hpp"

/// \file
/// A package quote as JSON (data/schema/quote.schema.json) and as text, with the notes every reader
/// must be told.
namespace iteragpu::report {

/// The first note of every output made from an illustrative catalog.
inline constexpr std::string_view illustrative_note =
    "ILLUSTRATIVE catalog: prices derived from public per-GPU-hour list prices by a written rule; "
    "this is not a real offer from any provider";
/// A catalog is no reservation, as every quote notes it.
inline constexpr std::string_view availability_note =
    "a catalog proves neither availability nor a reservation: check the live offer before buying";
/// How packages are billed, as every quote notes it.
inline constexpr std::string_view billing_note =
    "packages are billed whole: no hourly proration, no currency conversion";
/// How a cost per accepted result is computed and rounded, as the outputs note it.
inline constexpr std::string_view rounding_note =
    "unit_cost_cents = total_price_cents / accepted_results, rounded half to even to 4 decimal places of a cent";
/// Why there is no unit cost, as the outputs note it.
inline constexpr std::string_view no_unit_cost_note = "unit cost not computed (no count of accepted results)";

/// What every reader of a quote must be told, in the order it matters.
[[nodiscard]] std::vector<std::string_view> quote_notes(const pricing::package_quote& q);

/// Exactly the 16 keys below, in this order. Cents are JSON integers; the
/// decimal amounts travel as strings so that no reader turns them into
/// binary floating point.
[[nodiscard]] boost::json::object to_json(const pricing::package_quote& q);

/// `source` names the catalog for a reader: the path the user gave, or the
/// words "the shipped illustrative catalog" (an install's path is not theirs).
void write_text(std::ostream& out, const pricing::package_quote& q, std::string_view source);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/quote.ipp"
#endif

#endif  // ITERAGPU_REPORT_QUOTE_HPP
