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
namespace iteragpu::memory::prediction {

/// The six byte fields of a phase row, in the order the JSON holds them.
inline constexpr std::array<std::string_view, 6> byte_field_names{"baseline_allocated_bytes", "baseline_reserved_bytes",
                                                                  "end_allocated_bytes",      "end_reserved_bytes",
                                                                  "peak_allocated_bytes",     "peak_reserved_bytes"};

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
  blas_workspaces workspaces;                                  ///< what the prediction assumed
  result<std::vector<phase_row>, prediction_error> predicted;  ///< rows, as measure() would give them
  std::vector<std::vector<field_difference>> differences;      ///< per measured row; empty when exact
  std::size_t exact_rows{0};  ///< measured rows equal to their prediction in all six fields
  /// What the first pass left allocated beyond its output: cold_forward's end
  /// allocated minus inputs' end allocated minus the output's block.
  std::optional<std::uint64_t> observed_workspace_bytes{};
};

/// The plan a prediction of a run made with `plan` follows: the same passes, with the repeats
/// a stopping rule would run at least (predicted repeats are all alike).
[[nodiscard]] protocol_plan fixed_plan(const protocol_plan& plan);

/// Predicts `run` and compares each measured row with the predicted row of
/// the same phase and repeat.
[[nodiscard]] prediction_check check_prediction(const synthetic_run& run, const std::vector<phase_row>& measured,
                                                const blas_workspaces& workspaces);

}  // namespace iteragpu::memory::prediction

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/impl/check.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_CHECK_HPP
