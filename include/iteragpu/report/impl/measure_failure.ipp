#ifndef ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP
#define ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/report/measure_failure.hpp"

// The bodies of the functions that <iteragpu/report/measure_failure.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::synthetic_error& failure) {
  switch (failure.code) {
    case memory::synthetic_errc::shape_too_large:
      return failure.message + "; expected smaller positive integers";
    case memory::synthetic_errc::device_unavailable:
      return failure.message + "; nothing was measured and no file was written";
    case memory::synthetic_errc::cannot_measure:
      return failure.message + "; no file was written";
    case memory::synthetic_errc::phase_failed:
      return "failed during phase " + std::string(name_of(failure.phase.value_or(phase_kind::model_load))) + ": " +
             escaped(failure.message) + "; no file was written";
  }
  return failure.message;
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::torchscript_error& failure,
                                                   const memory::torchscript_run& run) {
  constexpr std::string_view nothing = "; no file was written";
  const std::string file = quoted(run.file_name);
  const auto& e = failure.error.value_or(memory::torchscript_run_error{});
  std::string line;
  switch (failure.code) {
    case memory::torchscript_errc::device_unavailable:
      return failure.message + "; nothing was measured and no file was written";
    case memory::torchscript_errc::cannot_measure:
      line = failure.message;
      break;
    case memory::torchscript_errc::refused:  // the run's own code tells a refusal from a failed phase
    case memory::torchscript_errc::phase_failed:
      switch (e.code) {
        case memory::torchscript_run_errc::not_loadable:
          line =
              file +
              (run.format == memory::model_format::torchscript ? " could not be loaded as a TorchScript module: "
                                                               : " could not be loaded as an AOTInductor package: ") +
              escaped(e.message);
          break;
        case memory::torchscript_run_errc::wrong_inputs:
          line = "forward of " + file + " expects " + escaped(e.message) + "; given " +
                 to_decimal_string(run.inputs.size()) + (run.inputs.size() == 1 ? " input (" : " inputs (") +
                 inputs_text(run.inputs) + ")";
          break;
        case memory::torchscript_run_errc::inputs_refused:
          line = "forward of " + file + " refused the inputs " + inputs_text(run.inputs) + ": " + escaped(e.message);
          break;
        case memory::torchscript_run_errc::nothing_to_train:
          line = escaped(e.message) + "; expected a module with trainable parameters";
          break;
        case memory::torchscript_run_errc::phase_failed:
          line = "failed during phase " + std::string(name_of(e.phase)) + ": " + escaped(e.message);
          break;
      }
      break;
  }
  return line + std::string(nothing);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_MEASURE_FAILURE_IPP
