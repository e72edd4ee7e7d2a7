#ifndef ITERAGPU_REPORT_ESTIMATE_HPP
#define ITERAGPU_REPORT_ESTIMATE_HPP

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/estimate.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/report/memory_need.hpp"

/// \file
/// The weight estimate as JSON (data/schema/estimate.schema.json) and as text.
namespace iteragpu::report {

/// The machine-readable estimate: exact decimals travel as strings, so no
/// JSON reader turns them into binary floating point on the way.
[[nodiscard]] boost::json::object to_json(const memory_estimate& estimate);

/// The estimate for people: each figure with its unit, and what it leaves out.
void write_text(std::ostream& out, const memory_estimate& estimate);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/estimate.ipp"
#endif

#endif  // ITERAGPU_REPORT_ESTIMATE_HPP
