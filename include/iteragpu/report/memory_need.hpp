#ifndef ITERAGPU_REPORT_MEMORY_NEED_HPP
#define ITERAGPU_REPORT_MEMORY_NEED_HPP

#include <optional>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory_need.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A memory need as JSON (data/schema/memory-need.schema.json).
namespace iteragpu::report {

/// {"bytes": N, "gib": "exact", "gb": "exact", "source": "..."}, or null.
[[nodiscard]] boost::json::value to_json(const std::optional<memory_need>& need);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/memory_need.ipp"
#endif

#endif  // ITERAGPU_REPORT_MEMORY_NEED_HPP
