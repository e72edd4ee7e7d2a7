#ifndef ITERAGPU_MEMORY_SYNTHETIC_MEASUREMENT_HPP
#define ITERAGPU_MEMORY_SYNTHETIC_MEASUREMENT_HPP

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/measured_need.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The measurement the `measure` command makes: the synthetic network on
/// one GPU, with the environment it ran in. One library call, so that a
/// program is parse -> measure_synthetic() -> render -> write.
namespace iteragpu::memory {

/// A setting of the GPU allocator as the runtime itself reports it (never
/// read from the environment by this library).
struct allocator_setting {
  std::string name;   ///< "expandable_segments", "max_split_size_bytes", "cublas_workspace_bytes", ...
  std::string value;  ///< as the runtime reports it
  friend bool operator==(const allocator_setting&, const allocator_setting&) = default;
};

/// The statistics of the warm_forward rows.
struct warm_statistics {
  std::optional<sample_summary> seconds{};      ///< of the host-time series; nothing without a warm_forward row
  std::optional<sample_summary> gpu_seconds{};  ///< of the GPU-time series; nothing without a warm_forward row
  std::size_t repeats_with_state{0};            ///< rows with a readable throttle state
  std::size_t repeats_under_throttling{0};      ///< of those, rows with a reason other than gpu_idle
};

/// The summaries of the warm_forward rows' two series, and how many rows ran throttled.
[[nodiscard]] warm_statistics statistics_of(const std::vector<phase_row>& rows);

/// The samples of the device's used memory in `rows` (measured_need.hpp):
/// each row's baseline, then its end, where the backend reported device
/// memory.
[[nodiscard]] std::vector<device_sample> device_samples(const std::vector<phase_row>& rows);

/// The memory outside the allocator in a measurement (measured_need.hpp):
/// the largest device used less reserved at the baseline and end of every
/// row, floored at 0. Nothing when the backend did not report device memory.
[[nodiscard]] inline std::optional<std::uint64_t> memory_outside_allocator(const std::vector<phase_row>& rows) {
  return memory_outside_allocator(device_samples(rows));
}

/// The source of a measured need with the memory outside the allocator, as memory_need::source.
inline constexpr std::string_view measured_need_source =
    "measurement: the largest peak reserved of the allocator, plus the memory outside it (the largest device used "
    "minus reserved at the baseline and end of every row)";
/// The source of a measured need without it (the backend did not report device memory).
inline constexpr std::string_view measured_need_without_outside_source =
    "measurement: the largest peak reserved of the allocator (the memory outside it was not recorded)";

/// What the measured run needs on a GPU (need_of_measurement()); nothing past 64 bits.
[[nodiscard]] std::optional<memory_need> need_of(const std::vector<phase_row>& rows);

/// Everything one run records, in the order the JSON holds it.
struct measurement_record {
  environment_report environment;           ///< where it ran
  synthetic_run run;                        ///< what was asked
  synthetic_model_summary model;            ///< the network measured
  std::vector<phase_row> phases;            ///< the phase rows, in the protocol's order
  std::optional<stop_reason> stopped_by{};  ///< why the repeats stopped, with `--repeats auto`
  warm_statistics statistics;               ///< of the warm_forward rows
  prediction::prediction_check prediction;  ///< the rows against their prediction
  std::optional<std::vector<allocator_setting>> allocator_settings{};  ///< where the runtime reports them
};

/// Optional runtime capabilities: the GPU library's workspaces as the
/// runtime chose them, and the allocator's effective settings.
template <class R>
concept workspace_reporting = requires(R& r) {
  { r.blas_workspaces() } -> std::same_as<std::optional<prediction::blas_workspaces>>;
};
/// Optional runtime capability: the allocator's effective settings, as the runtime reports them.
template <class R>
concept allocator_settings_reporting = requires(R& r) {
  { r.allocator_settings() } -> std::same_as<std::vector<allocator_setting>>;
};

/// Why measure_synthetic() gave no measurement.
enum class synthetic_errc {
  shape_too_large,     ///< a count past what LibTorch indexes
  device_unavailable,  ///< no GPU runtime, or not that device
  cannot_measure,      ///< a runtime that only describes the environment
  phase_failed,        ///< a phase failed (out of memory above all)
};

/// Why measure_synthetic() gave no measurement, in a sentence.
struct synthetic_error {
  synthetic_errc code{synthetic_errc::device_unavailable};  ///< what failed
  std::string message;                                      ///< one line, as the program prints it
  std::optional<phase_kind> phase{};                        ///< for phase_failed
};

/// Checks the shape, describes the environment, then measures when the
/// device is available, and sets the measurement beside its prediction (with
/// the workspaces the runtime reports, else `workspaces`: the card's, such as
/// prediction::h200_pytorch_2_11). Nothing is measured when any check fails.
template <environment_runtime R>
[[nodiscard]] result<measurement_record, synthetic_error> measure_synthetic(
    R& runtime, const synthetic_run& run, const prediction::blas_workspaces& workspaces) {
  const auto model = summarize_model(run.shape, run.dtype);
  if (!model) {
    return unexpected{synthetic_error{synthetic_errc::shape_too_large,
                                      "the model or its activations would have more than 2^63-1 elements or bytes",
                                      std::nullopt}};
  }
  measurement_record record{{}, {}, {}, {}, {}, {}, {workspaces, std::vector<phase_row>{}, {}, 0, std::nullopt}, {}};
  record.environment = runtime.environment(run.device);
  if (!record.environment.device.available) {
    return unexpected{synthetic_error{
        synthetic_errc::device_unavailable,
        device_name(run.device) + " cannot be measured: " + record.environment.device.reason.value_or("unavailable"),
        std::nullopt}};
  }
  if constexpr (synthetic_runtime<R>) {
    record.run = run;
    record.model = *model;
    auto measured = runtime.measure_synthetic(run);
    if (!measured) {
      auto e = std::move(measured).error();
      return unexpected{synthetic_error{synthetic_errc::phase_failed, std::move(e.message), e.phase}};
    }
    record.phases = std::move(measured->phases);
    record.stopped_by = measured->stopped_by;
    record.statistics = statistics_of(record.phases);
    auto assumed = workspaces;
    if constexpr (workspace_reporting<R>) {
      assumed = runtime.blas_workspaces().value_or(workspaces);
    }
    record.prediction = prediction::check_prediction(run, record.phases, assumed);
    if constexpr (allocator_settings_reporting<R>) {
      record.allocator_settings = runtime.allocator_settings();
    }
    return record;
  } else {
    return unexpected{synthetic_error{synthetic_errc::cannot_measure, "this build cannot measure", std::nullopt}};
  }
}

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/synthetic_measurement.ipp"
#endif

#endif  // ITERAGPU_MEMORY_SYNTHETIC_MEASUREMENT_HPP
