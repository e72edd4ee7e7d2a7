#ifndef ITERAGPU_MEMORY_PREDICTION_CHECK_HPP
#define ITERAGPU_MEMORY_PREDICTION_CHECK_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/result.hpp"

/// \file
/// A measurement of the synthetic network beside its prediction: the
/// predicted rows, and for every measured row the byte fields that differ
/// (measured minus predicted), so that a run that is not as predicted says
/// where and by how much.
namespace iteragpu::prediction {

/// The six byte fields of a phase row, in the order the JSON holds them.
inline constexpr std::array<std::string_view, 6> byte_field_names{
    "baseline_allocated_bytes", "baseline_reserved_bytes", "end_allocated_bytes",
    "end_reserved_bytes",       "peak_allocated_bytes",    "peak_reserved_bytes"};

/// The six byte fields of `row`, in the order of byte_field_names.
[[nodiscard]] constexpr std::array<std::uint64_t, 6> byte_fields(const phase_row& row) noexcept {
  return {row.baseline_allocated_bytes, row.baseline_reserved_bytes, row.end_allocated_bytes,
          row.end_reserved_bytes,       row.peak_allocated_bytes,    row.peak_reserved_bytes};
}

/// One byte field of one row that is not as predicted.
struct field_difference {
  std::size_t field{0};        ///< index into byte_field_names
  std::uint64_t measured{0};   ///< as measured
  std::uint64_t predicted{0};  ///< as predicted

  /// measured - predicted; device memory is far below 2^63 bytes, so the
  /// difference fits a signed 64-bit integer.
  [[nodiscard]] constexpr std::int64_t signed_difference() const noexcept {
    return measured >= predicted ? static_cast<std::int64_t>(measured - predicted)
                                 : -static_cast<std::int64_t>(predicted - measured);
  }
};

/// A measurement's rows against their prediction, field by field.
struct prediction_check {
  blas_workspaces workspaces;                                   ///< what the prediction assumed
  result<std::vector<phase_row>, prediction_failure> predicted;  ///< rows, as measure() would give them
  std::vector<std::vector<field_difference>> differences;       ///< per measured row; empty when exact
  std::size_t exact_rows{0};  ///< measured rows equal to their prediction in all six fields
  /// What the first pass left allocated beyond its output: cold_forward's end
  /// allocated minus inputs' end allocated minus the output's block.
  std::optional<std::uint64_t> observed_workspace_bytes{};
};

/// The plan a prediction of a run made with `plan` follows: the same passes, with the repeats
/// a stopping rule would run at least (predicted repeats are all alike).
[[nodiscard]] inline protocol_plan fixed_plan(const protocol_plan& plan) {
  protocol_plan fixed{plan.warmup, plan.until ? plan.until->parameters().min_repeats : plan.repeats, std::nullopt};
  return fixed;
}

/// Predicts `run` and compares each measured row with the predicted row of
/// the same phase and repeat.
[[nodiscard]] inline prediction_check check_prediction(const synthetic_run& run, const std::vector<phase_row>& measured,
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

}  // namespace iteragpu::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_CHECK_HPP
