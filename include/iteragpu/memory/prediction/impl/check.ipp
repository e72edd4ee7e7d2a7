#ifndef ITERAGPU_MEMORY_PREDICTION_IMPL_CHECK_IPP
#define ITERAGPU_MEMORY_PREDICTION_IMPL_CHECK_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/check.hpp"

// The bodies of the functions that <iteragpu/memory/prediction/check.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::prediction {

[[nodiscard]] ITERAGPU_INLINE protocol_plan fixed_plan(const protocol_plan& plan) {
  protocol_plan fixed{plan.warmup, plan.until ? plan.until->parameters().min_repeats : plan.repeats, std::nullopt};
  return fixed;
}

[[nodiscard]] ITERAGPU_INLINE prediction_check check_prediction(const synthetic_run& run,
                                                                const std::vector<phase_row>& measured,
                                                                const blas_workspaces& workspaces) {
  protocol_plan plan = fixed_plan(run.plan);
  std::uint64_t warm_rows = 0;
  for (const auto& row : measured) {
    warm_rows += row.phase == phase_kind::warm_forward ? 1U : 0U;
  }
  plan.repeats = warm_rows;
  prediction_check check{workspaces, predict_synthetic(run.shape, run.dtype, workspaces, plan), {}, 0, std::nullopt};
  check.differences.resize(measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    if (!check.predicted || i >= check.predicted->size()) {
      continue;
    }
    const auto m = byte_fields(measured[i]);
    const auto p = byte_fields((*check.predicted)[i]);
    for (std::size_t f = 0; f < m.size(); ++f) {
      if (m[f] != p[f]) {
        check.differences[i].push_back(field_difference{f, m[f], p[f]});
      }
    }
    check.exact_rows += check.differences[i].empty() ? 1U : 0U;
  }
  const auto sizes = tensor_bytes(run.shape, run.dtype);
  if (sizes && measured.size() > 2) {
    const auto output = block_size::for_request(sizes->output);
    const std::uint64_t before = measured[1].end_allocated_bytes;
    const std::uint64_t after = measured[2].end_allocated_bytes;
    if (output && after >= before && after - before >= output->bytes().value) {
      check.observed_workspace_bytes = after - before - output->bytes().value;
    }
  }
  return check;
}

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_IMPL_CHECK_IPP
