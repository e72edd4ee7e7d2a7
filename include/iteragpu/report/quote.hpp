#ifndef ITERAGPU_REPORT_QUOTE_HPP
#define ITERAGPU_REPORT_QUOTE_HPP

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

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
inline constexpr std::string_view no_unit_cost_note = "unit cost not computed (no --accepted-results)";

/// What every reader of a quote must be told, in the order it matters.
[[nodiscard]] inline std::vector<std::string_view> quote_notes(const pricing::package_quote& q) {
  std::vector<std::string_view> notes;
  if (q.snapshot.illustrative()) {
    notes.push_back(illustrative_note);
  }
  notes.push_back(availability_note);
  notes.push_back(billing_note);
  notes.push_back(q.unit_cost ? rounding_note : no_unit_cost_note);
  return notes;
}

/// Exactly the 16 keys below, in this order. Cents are JSON integers; the
/// decimal amounts travel as strings so that no reader turns them into
/// binary floating point.
[[nodiscard]] inline boost::json::object to_json(const pricing::package_quote& q) {
  const auto str = [](std::string_view s) { return boost::json::string(s.data(), s.size()); };
  const auto& snapshot = q.snapshot;
  boost::json::object o;
  o["provider"] = str(snapshot.provider);
  o["currency"] = str(snapshot.currency);
  o["snapshot_date"] = str(snapshot.date);
  o["illustrative"] = q.snapshot.illustrative();
  o["gpu"] = str(q.offer.id);
  o["name"] = str(q.offer.name);
  o["days"] = q.days.value;
  o["lots"] = q.lots.value;
  o["gpus_per_lot"] = q.offer.gpus_per_lot.value;
  o["total_gpus"] = q.total_gpus.value;
  o["lot_price_cents"] = q.lot_price.cents();
  o["total_price_cents"] = q.total_price.cents();
  o["total_price"] = str(q.total_price.to_string());
  if (q.accepted) {
    o["accepted_results"] = q.accepted->value;
  } else {
    o["accepted_results"] = nullptr;
  }
  if (q.unit_cost) {
    o["unit_cost_cents"] = str(q.unit_cost->to_string());
  } else {
    o["unit_cost_cents"] = nullptr;
  }
  boost::json::array notes;
  for (const auto note : quote_notes(q)) {
    notes.emplace_back(str(note));
  }
  o["notes"] = std::move(notes);
  return o;
}

/// `source` names the catalog for a reader: the path the user gave, or the
/// words "the shipped illustrative catalog" (an install's path is not theirs).
inline void write_text(std::ostream& out, const pricing::package_quote& q, std::string_view source) {
  const auto& snapshot = q.snapshot;
  const auto& offer = q.offer;
  out << "Package quote" << (q.snapshot.illustrative() ? " (ILLUSTRATIVE catalog: not a real offer)" : "") << '\n'
      << "  package       " << offer.id << " (" << offer.name << ", " << offer.memory_per_gpu.value << " GB per GPU), "
      << q.days.value << " days\n"
      << "  lots          " << q.lots.value << " x " << offer.gpus_per_lot.value << " GPU"
      << (offer.gpus_per_lot.value == 1 ? "" : "s") << " per lot = " << q.total_gpus.value << " GPU"
      << (q.total_gpus.value == 1 ? "" : "s") << '\n'
      << "  lot price     " << q.lot_price.to_string() << ' ' << snapshot.currency << '\n'
      << "  total price   " << q.total_price.to_string() << ' ' << snapshot.currency << " (" << q.lots.value << " x "
      << q.lot_price.to_string() << ")\n"
      << "  unit cost     ";
  if (q.unit_cost) {
    out << q.unit_cost->dollars_string() << ' ' << snapshot.currency << " per accepted result ("
        << q.total_price.to_string() << ' ' << snapshot.currency << " / " << q.accepted->value
        << ", rounded half to even to 4 decimal places of a cent)\n";
  } else {
    out << "not computed (no --accepted-results)\n";
  }
  out << "  catalog       provider " << snapshot.provider << ", snapshot " << snapshot.date << " (" << source << ")\n"
      << "Notes:\n";
  for (const auto note : quote_notes(q)) {
    out << "  - " << note << '\n';
  }
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_QUOTE_HPP
