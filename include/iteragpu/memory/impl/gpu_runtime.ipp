#ifndef ITERAGPU_MEMORY_IMPL_GPU_RUNTIME_IPP
#define ITERAGPU_MEMORY_IMPL_GPU_RUNTIME_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"

// The bodies of the functions that <iteragpu/memory/gpu_runtime.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE environment_report unavailable_runtime::environment(device_index d) const {
  unavailable_backend backend{reason};
  return probe_environment(backend, d, std::nullopt);
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_GPU_RUNTIME_IPP
