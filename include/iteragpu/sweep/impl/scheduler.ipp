#ifndef ITERAGPU_SWEEP_IMPL_SCHEDULER_IPP
#define ITERAGPU_SWEEP_IMPL_SCHEDULER_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/scheduler.hpp"

// The bodies of the functions that <iteragpu/sweep/scheduler.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::detail {

ITERAGPU_INLINE void complete(point_record& r, const finished_run& run) {
  if (r.kind == record_kind::prediction) {
    r.outcome = outcome_kind::predicted;  // no process ran
    return;
  }
  r.process = run.process;
  const auto& p = run.process;
  const std::string said = p.stderr_line ? ": " + escaped(*p.stderr_line) : std::string();
  if (p.exit_code == 0) {
    if (run.measured) {
      r.outcome = outcome_kind::measured;
      r.measured = run.measured;
      if (!r.gpu_name) {
        r.gpu_name = run.measured->gpu_name;
      }
      return;
    }
    r.outcome = outcome_kind::failed;
    r.reason = "exit 0, but " + run.problem;
  } else if (p.exit_code == 3) {
    r.outcome = exit_3_outcome(p.stderr_line.value_or(""));
    r.reason = "exit 3" + said;
  } else if (p.exit_code) {
    r.outcome = outcome_kind::failed;
    r.reason = "exit " + std::to_string(*p.exit_code) + said;
  } else {
    r.outcome = outcome_kind::failed;
    r.reason = end_without_exit_text(p.signal) + said;
  }
}

}  // namespace iteragpu::sweep::detail

#endif  // ITERAGPU_SWEEP_IMPL_SCHEDULER_IPP
