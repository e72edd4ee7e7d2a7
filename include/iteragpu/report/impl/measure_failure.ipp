#ifndef ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP
#define ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/report/measure_failure.hpp"

// The bodies of the functions that <iteragpu/report/measure_failure.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::synthetic_failure& failure) {
  switch (failure.kind) {
    case memory::synthetic_failure_kind::shape_too_large:
      return "--batch/--context/--width: " + failure.message + "; expected smaller positive integers";
    case memory::synthetic_failure_kind::device_unavailable:
      return failure.message + "; nothing was measured and no file was written";
    case memory::synthetic_failure_kind::cannot_measure:
      return failure.message + "; no file was written";
    case memory::synthetic_failure_kind::phase_failed:
      return "failed during phase " + std::string(name_of(failure.phase.value_or(phase_kind::model_load))) + ": " +
             escaped(failure.message) + "; no file was written";
  }
  return failure.message;
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::torchscript_failure& failure, const memory::torchscript_run& run) {
  constexpr std::string_view nothing = "; no file was written";
  const std::string file = quoted(run.file_name);
  const auto& e = failure.error.value_or(memory::torchscript_error{});
  std::string line;
  switch (failure.kind) {
    case memory::torchscript_failure_kind::device_unavailable:
      return failure.message + "; nothing was measured and no file was written";
    case memory::torchscript_failure_kind::cannot_measure:
      line = failure.message;
      break;
    case memory::torchscript_failure_kind::refused:
      switch (e.refusal.value_or(memory::torchscript_refusal::not_loadable)) {
        case memory::torchscript_refusal::not_loadable:
          line = run.format == memory::model_format::torchscript
                     ? "--torchscript: " + file + " could not be loaded as a TorchScript module: " + escaped(e.message)
                     : "--aoti: " + file + " could not be loaded as an AOTInductor package: " + escaped(e.message);
          break;
        case memory::torchscript_refusal::wrong_inputs:
          line = "--input: forward of " + file + " expects " + escaped(e.message) + "; given " +
                 to_decimal_string(run.inputs.size()) + (run.inputs.size() == 1 ? " input (" : " inputs (") +
                 inputs_text(run.inputs) + ")";
          break;
        case memory::torchscript_refusal::inputs_refused:
          line = "--input: forward of " + file + " refused the inputs " + inputs_text(run.inputs) + ": " +
                 escaped(e.message);
          break;
        case memory::torchscript_refusal::nothing_to_train:
          line = "--train: " + escaped(e.message) + "; expected a module with trainable parameters";
          break;
      }
      break;
    case memory::torchscript_failure_kind::phase_failed:
      line = "failed during phase " + std::string(name_of(e.phase)) + ": " + escaped(e.message);
      break;
  }
  return line + std::string(nothing);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP
