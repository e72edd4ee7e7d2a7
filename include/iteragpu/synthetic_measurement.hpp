#ifndef ITERAGPU_SYNTHETIC_MEASUREMENT_HPP
#define ITERAGPU_SYNTHETIC_MEASUREMENT_HPP

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/device.hpp"
#include "iteragpu/environment.hpp"
#include "iteragpu/gpu_runtime.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/synthetic_model.hpp"

// The measurement the `measure` command makes: the synthetic network on
// one GPU, with the environment it ran in. One library call, so that a
// program is parse -> measure_synthetic() -> render -> write.
namespace iteragpu {

// Everything one run records, in the order the JSON holds it.
struct measurement_record {
  environment_report environment;
  synthetic_run run;
  synthetic_model_summary model;
  std::vector<phase_row> phases;
};

enum class synthetic_failure_kind {
  shape_too_large,     // a count past what LibTorch indexes
  device_unavailable,  // no GPU runtime, or not that device
  cannot_measure,      // a runtime that only describes the environment
  phase_failed,        // a phase failed (out of memory above all)
};

struct synthetic_failure {
  synthetic_failure_kind kind{synthetic_failure_kind::device_unavailable};
  std::string message;
  std::optional<phase_kind> phase;  // for phase_failed
};

// Checks the shape, describes the environment, then measures when the
// device is available. Nothing is measured when any check fails.
template <environment_runtime R>
[[nodiscard]] result<measurement_record, synthetic_failure> measure_synthetic(R& runtime, const synthetic_run& run) {
  const auto model = summarise(run.shape, run.dtype);
  if (!model) {
    return unexpected{synthetic_failure{synthetic_failure_kind::shape_too_large,
                                        "the model or its activations would have more than 2^63-1 elements or bytes",
                                        std::nullopt}};
  }
  measurement_record record;
  record.environment = runtime.environment(run.device);
  if (!record.environment.device.available) {
    return unexpected{synthetic_failure{synthetic_failure_kind::device_unavailable,
                                        device_name(run.device) + " cannot be measured: " +
                                            record.environment.device.reason.value_or("unavailable"),
                                        std::nullopt}};
  }
  if constexpr (synthetic_runtime<R>) {
    record.run = run;
    record.model = *model;
    auto measured = runtime.measure_synthetic(run);
    if (!measured) {
      auto e = std::move(measured).error();
      return unexpected{synthetic_failure{synthetic_failure_kind::phase_failed, std::move(e.message), e.phase}};
    }
    record.phases = std::move(measured->phases);
    return record;
  } else {
    return unexpected{
        synthetic_failure{synthetic_failure_kind::cannot_measure, "this build cannot measure", std::nullopt}};
  }
}

}  // namespace iteragpu

#endif  // ITERAGPU_SYNTHETIC_MEASUREMENT_HPP
