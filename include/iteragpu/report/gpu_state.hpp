#ifndef ITERAGPU_REPORT_GPU_STATE_HPP
#define ITERAGPU_REPORT_GPU_STATE_HPP

#include <string>

#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/nvml/library.hpp"

/// \file
/// The words for a missing reading of the GPU's state or settings
/// (reading_error) and for a library that could not be opened (load_error),
/// as the reports and the programs print them.
namespace iteragpu::report {

/// "Not Supported (NVML error 3)", or "NVML error 3" where the library cannot name it.
[[nodiscard]] std::string describe(const memory::library_code& code);

/// "the library path is empty or contains a NUL character", or the loader's message.
[[nodiscard]] std::string describe(const nvml::load_error& e);

/// Why a reading is missing, in one sentence.
[[nodiscard]] std::string describe(const memory::reading_error& e);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/gpu_state.ipp"
#endif

#endif  // ITERAGPU_REPORT_GPU_STATE_HPP
