#ifndef ITERAGPU_NVML_HPP
#define ITERAGPU_NVML_HPP

/// \file
/// The NVIDIA management library, loaded at run time with `dlopen` (no
/// dependency, target iteragpu::iteragpu): its C interface as this library
/// calls it, the shared library, and the session that reads the GPU's state
/// and the driver's facts for iteragpu::memory::measure()'s backends. The
/// memory domain defines what is read (memory/policies/gpu_state.hpp);
/// this folder reads it, so it stands above memory.hpp, not in it.
#include "iteragpu/nvml/api.hpp"      // IWYU pragma: export
#include "iteragpu/nvml/library.hpp"  // IWYU pragma: export
#include "iteragpu/nvml/session.hpp"  // IWYU pragma: export

#endif  // ITERAGPU_NVML_HPP
