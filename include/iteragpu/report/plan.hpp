#ifndef ITERAGPU_REPORT_PLAN_HPP
#define ITERAGPU_REPORT_PLAN_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/plan.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The plan of a run as JSON (data/schema/plan.schema.json) and as text.
namespace iteragpu::report {

/// The schema_version of plan's JSON (data/schema/plan.schema.json).
inline constexpr std::int64_t plan_schema_version = 1;

/// What a plan is and is not, as its outputs note it.
inline constexpr std::string_view prediction_note =
    "a prediction, not a measurement: the caching allocator of PyTorch 2.11 simulated for the synthetic network, "
    "no GPU involved; times are not predicted";

/// What `plan` printed, beside the request.
struct plan_outcome {
  memory::prediction::plan_request request;                    ///< what was asked
  std::vector<phase_row> rows;                                 ///< the predicted rows
  std::optional<memory::prediction::fit_check> fit{};          ///< when a memory was given: whether the run fits
  std::optional<memory::prediction::largest_value> largest{};  ///< when asked: the largest value that fits
  /// The memory in GiB as the caller typed it, shown in the text in place of the GiB of its
  /// whole bytes (139.8, not 139.799999999813735485076904296875).
  std::optional<exact_decimal> memory_gib{};
};

/// A fit check: the card's memory in bytes and GiB, whether it fits, the headroom or the phase that
/// runs out, and the message.
[[nodiscard]] boost::json::object to_json(const memory::prediction::fit_check& f);

/// The plan as JSON (data/schema/plan.schema.json).
[[nodiscard]] boost::json::object to_json(const plan_outcome& p);

/// One fit check in a line for people; the memory in GiB is `typed_gib`
/// when given (what the person typed), else that of its bytes.
void write_fit(std::ostream& out, const memory::prediction::fit_check& f,
               const std::optional<exact_decimal>& typed_gib = std::nullopt);

/// The plan for people: the predicted rows, the workspaces, the need, the fit or the largest value,
/// and what is not modelled.
void write_text(std::ostream& out, const plan_outcome& p);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/plan.ipp"
#endif

#endif  // ITERAGPU_REPORT_PLAN_HPP
