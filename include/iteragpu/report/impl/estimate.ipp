#ifndef ITERAGPU_REPORT_IMPL_ESTIMATE_IPP
#define ITERAGPU_REPORT_IMPL_ESTIMATE_IPP

#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/estimate.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/report/estimate.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory_estimate& estimate) {
  boost::json::object o;
  o["parameters"] = estimate.weights.parameters.value;
  o["bits"] = estimate.weights.bits.value;
  o["bytes_per_parameter"] = estimate.weights.bytes_per_parameter;
  o["weight_bytes"] = estimate.weights.weight_bytes.value;
  o["weight_gib"] = estimate.weights.weight_gib().to_string();
  o["weight_gb"] = estimate.weights.weight_gb().to_string();
  o["reserve_gib"] = estimate.reserve_gib.to_string();
  o["total_gib"] = estimate.total_gib.to_string();
  boost::json::array not_included;
  for (const auto item : memory::not_included_in_estimate) {
    not_included.emplace_back(boost::json::string_view(item.data(), item.size()));
  }
  o["not_included"] = std::move(not_included);
  o["memory_need"] = to_json(need_of(estimate));
  return o;
}

ITERAGPU_INLINE void write_text(std::ostream& out, const memory_estimate& estimate) {
  const auto& w = estimate.weights;
  out << "Weight estimate (arithmetic only, no GPU involved)\n"
      << "  parameters           " << w.parameters.value << '\n'
      << "  storage width        " << w.bits.value << " bits -> " << w.bytes_per_parameter
      << (w.bytes_per_parameter == 1 ? " byte" : " bytes") << " per parameter (rounded up to whole bytes)\n"
      << "  weight bytes         " << w.weight_bytes.value << '\n'
      << "  weights              " << size_text(w.weight_bytes.value)
      << " (1 GiB = 2^30 bytes)  =  " << w.weight_gb().to_string() << " GB (10^9 bytes)\n"
      << "  reserve (assumption) " << estimate.reserve_gib.to_string() << " GiB, chosen by you, not measured\n"
      << "  total                ";
  // The total rounded up to a whole byte, as a need; past 64 bits of bytes, its exact GiB.
  if (const auto need = need_of(estimate)) {
    out << bytes_and_size_text(need->bytes.value) << ": weights + reserve, rounded up to a whole byte\n";
  } else {
    out << estimate.total_gib.to_string() << " GiB: weights + reserve, past 64 bits of bytes\n";
  }
  out << "Sizes in GiB are rounded to two decimals for reading; the JSON output gives them exactly.\n"
      << "Not included:";
  const char* separator = " ";
  for (const auto item : memory::not_included_in_estimate) {
    out << separator << item;
    separator = ", ";
  }
  out << ".\nThis does not predict whether a real model fits a given card.\n";
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_ESTIMATE_IPP
