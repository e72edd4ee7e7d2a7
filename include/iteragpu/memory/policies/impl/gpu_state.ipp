#ifndef ITERAGPU_MEMORY_POLICIES_IMPL_GPU_STATE_IPP
#define ITERAGPU_MEMORY_POLICIES_IMPL_GPU_STATE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"

// The bodies of the functions that <iteragpu/memory/policies/gpu_state.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> clock_event_reasons::names() const {
  std::vector<std::string> out;
  for (unsigned bit = 0; bit < 64U; ++bit) {
    if ((mask >> bit & 1U) == 0U) {
      continue;
    }
    out.push_back(bit < clock_event_names.size() ? std::string(clock_event_names[bit])
                                                 : "unknown_bit_" + std::to_string(bit));
  }
  return out;
}

[[nodiscard]] ITERAGPU_INLINE gpu_state gpu_state_unavailable(const reading_error& reason) {
  return gpu_state{unexpected{reason}, unexpected{reason}, unexpected{reason}, unexpected{reason}, unexpected{reason}};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_POLICIES_IMPL_GPU_STATE_IPP
