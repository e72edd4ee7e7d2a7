#ifndef ITERAGPU_REPORT_MEMORY_NEED_HPP
#define ITERAGPU_REPORT_MEMORY_NEED_HPP

#include <optional>

#include <boost/json.hpp>

#include "iteragpu/memory_need.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A memory need as JSON (data/schema/memory-need.schema.json).
namespace iteragpu::report {

/// {"bytes": N, "gib": "exact", "gb": "exact", "source": "..."}, or null.
[[nodiscard]] inline boost::json::value to_json(const std::optional<memory_need>& need) {
  if (!need) {
    return nullptr;
  }
  return boost::json::object{{"bytes", need->bytes.value},
                             {"gib", to_gib(need->bytes).to_string()},
                             {"gb", to_gb(need->bytes).to_string()},
                             {"source", need->source}};
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_MEMORY_NEED_HPP
