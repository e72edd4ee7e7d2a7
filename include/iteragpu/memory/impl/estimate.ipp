#ifndef ITERAGPU_MEMORY_IMPL_ESTIMATE_IPP
#define ITERAGPU_MEMORY_IMPL_ESTIMATE_IPP

#include <optional>
#include <string>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/estimate.hpp"

// The bodies of the functions that <iteragpu/memory/estimate.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> need_of(const memory_estimate& estimate) {
  const auto bytes = gib_to_bytes_rounded_up(estimate.total_gib);
  if (!bytes) {
    return std::nullopt;
  }
  return memory_need{*bytes, std::string(estimate_need_source)};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_ESTIMATE_IPP
