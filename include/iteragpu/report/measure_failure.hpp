#ifndef ITERAGPU_REPORT_MEASURE_FAILURE_HPP
#define ITERAGPU_REPORT_MEASURE_FAILURE_HPP

#include <string>
#include <string_view>

#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/text.hpp"

/// \file
/// A measurement that did not happen or did not finish, in one line: the
/// input or the phase at fault, what went wrong, and that no file was
/// written (the command line puts its name in front, and the flag that
/// carried the input at fault).
namespace iteragpu::report {

/// Why the synthetic network was not measured, in one line.
[[nodiscard]] std::string describe(const memory::synthetic_error& failure);

/// Why the TorchScript module of `run` was not measured, in one line: the
/// module's refusals name the file, the inputs or the training at fault.
[[nodiscard]] std::string describe(const memory::torchscript_error& failure, const memory::torchscript_run& run);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/measure_failure.ipp"
#endif

#endif  // ITERAGPU_REPORT_MEASURE_FAILURE_HPP
