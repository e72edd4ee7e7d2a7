#ifndef ITERAGPU_MEMORY_TORCHSCRIPT_MEASUREMENT_HPP
#define ITERAGPU_MEMORY_TORCHSCRIPT_MEASUREMENT_HPP

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The measurement of a user's TorchScript module: what was asked (the
/// file, its SHA-256, the inputs), the runtime capability that measures it,
/// and the record the `measure --torchscript` command writes. Torch-free:
/// LibTorch's side is iteragpu/torch/torchscript_workload.hpp.
namespace iteragpu::memory {

/// The default exclusive upper bound of integer inputs: 2 is a valid index
/// for any embedding table of two rows or more, and a valid mask.
inline constexpr std::uint64_t default_input_high = 2;

/// The file format of a user's model.
enum class model_format {
  torchscript,  ///< torch.jit.save's archive, read by torch::jit::load (every LibTorch)
  aoti_package,  ///< an AOTInductor package (.pt2), read by AOTIModelPackageLoader (LibTorch 2.6 and later), inference only
};

/// One measurement of a TorchScript module (or AOTInductor package), as asked.
struct torchscript_run {
  model_format format{model_format::torchscript};  ///< what the file is
  device_index device;                             ///< the GPU to measure on
  std::string path;                                ///< where the program loads the file from (never recorded)
  std::string file_name;                           ///< the file's own name, recorded
  std::string sha256;                              ///< the file's SHA-256, lower-case hexadecimal
  std::vector<memory::input_spec> inputs;          ///< forward's inputs, in order
  bool train{false};                               ///< forward and backward of the sum of the floating outputs
  std::uint64_t input_high{default_input_high};    ///< integer inputs are uniform in [0, input_high)
  protocol_plan plan;                              ///< warm-up passes and repeats
};

/// Why a module's measurement failed: the module refused (the first four,
/// the user's input, not the GPU), or a phase failed on the GPU.
enum class torchscript_run_errc {
  not_loadable,      ///< LibTorch could not load the file as a module
  wrong_inputs,      ///< forward's schema wants other inputs than the ones given
  inputs_refused,    ///< forward failed on the inputs given (a dtype or shape it refuses)
  nothing_to_train,  ///< with train: no floating output depends on a parameter
  phase_failed,      ///< not refused: a phase failed on the GPU (out of memory above all)
};

/// A measurement of a module that failed: refused (the message is
/// LibTorch's first line, or forward's expected arguments for
/// wrong_inputs), or a phase that failed on the GPU.
struct torchscript_run_error {
  torchscript_run_errc code{torchscript_run_errc::phase_failed};  ///< why
  phase_kind phase{phase_kind::model_load};                       ///< the phase it happened in
  std::string message;                                            ///< one line
};

/// measure_torchscript() runs iteragpu::memory::measure() over the runtime's backend,
/// counter and a TorchScript workload on run.device.
template <class R>
concept torchscript_runtime = environment_runtime<R> && requires(R& r, const torchscript_run& run) {
  { r.measure_torchscript(run) } -> std::same_as<result<measurement, torchscript_run_error>>;
};

/// Everything one run of a TorchScript module records. No prediction: the
/// memory of an arbitrary module is known by measuring it (or by replaying
/// its allocator snapshot), not by a model of the synthetic network.
struct torchscript_record {
  environment_report environment;                                      ///< where it ran
  torchscript_run run;                                                 ///< what was asked
  std::vector<phase_row> phases;                                       ///< the rows, in the protocol's order
  std::optional<stop_reason> stopped_by{};                             ///< with `--repeats auto`
  warm_statistics statistics;                                          ///< of the warm_forward rows
  std::optional<std::vector<allocator_setting>> allocator_settings{};  ///< where the runtime reports them
};

/// Why measure_torchscript() gave no record.
enum class torchscript_errc {
  device_unavailable,  ///< no GPU runtime, or not that device
  cannot_measure,      ///< a runtime that cannot load TorchScript
  refused,             ///< the module refused (see torchscript_run_error::code)
  phase_failed,        ///< a phase failed (out of memory above all)
};

/// Why measure_torchscript() gave no record.
struct torchscript_error {
  torchscript_errc code{torchscript_errc::device_unavailable};  ///< what failed
  std::optional<torchscript_run_error> error{};                 ///< for refused and phase_failed
  std::string message;                                          ///< for device_unavailable: one line
};

/// Describes the environment, then measures when the device is available.
/// Nothing is measured when the device is not.
template <environment_runtime R>
[[nodiscard]] result<torchscript_record, torchscript_error> measure_torchscript(R& runtime,
                                                                                const torchscript_run& run) {
  torchscript_record record;
  record.environment = runtime.environment(run.device);
  if (!record.environment.device.available) {
    return unexpected{torchscript_error{
        torchscript_errc::device_unavailable, std::nullopt,
        device_name(run.device) + " cannot be measured: " + record.environment.device.reason.value_or("unavailable")}};
  }
  if constexpr (torchscript_runtime<R>) {
    record.run = run;
    auto measured = runtime.measure_torchscript(run);
    if (!measured) {
      auto e = std::move(measured).error();
      const auto kind =
          e.code == torchscript_run_errc::phase_failed ? torchscript_errc::phase_failed : torchscript_errc::refused;
      return unexpected{torchscript_error{kind, std::move(e), {}}};
    }
    record.phases = std::move(measured->phases);
    record.stopped_by = measured->stopped_by;
    record.statistics = statistics_of(record.phases);
    if constexpr (allocator_settings_reporting<R>) {
      record.allocator_settings = runtime.allocator_settings();
    }
    return record;
  } else {
    return unexpected{torchscript_error{torchscript_errc::cannot_measure, std::nullopt,
                                        "this build cannot measure a TorchScript module"}};
  }
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_TORCHSCRIPT_MEASUREMENT_HPP
