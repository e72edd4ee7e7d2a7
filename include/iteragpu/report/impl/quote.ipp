#ifndef ITERAGPU_REPORT_IMPL_QUOTE_IPP
#define ITERAGPU_REPORT_IMPL_QUOTE_IPP

#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/quote.hpp"

// The bodies of the functions that <iteragpu/report/quote.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string_view> quote_notes(const pricing::package_quote& q) {
  std::vector<std::string_view> notes;
  if (q.snapshot.illustrative()) {
    notes.push_back(illustrative_note);
  }
  notes.push_back(availability_note);
  notes.push_back(billing_note);
  notes.push_back(q.unit_cost ? rounding_note : no_unit_cost_note);
  return notes;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const pricing::package_quote& q) {
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

ITERAGPU_INLINE void write_text(std::ostream& out, const pricing::package_quote& q, std::string_view source) {
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
    out << "not computed (no count of accepted results)\n";
  }
  out << "  catalog       provider " << snapshot.provider << ", snapshot " << snapshot.date << " (" << source << ")\n"
      << "Notes:\n";
  for (const auto note : quote_notes(q)) {
    out << "  - " << note << '\n';
  }
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_QUOTE_IPP
