#ifndef ITERAGPU_IMPL_MEMORY_NEED_IPP
#define ITERAGPU_IMPL_MEMORY_NEED_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory_need.hpp"

// The bodies of the functions that <iteragpu/memory_need.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> need_of(const memory_estimate& estimate) {
  const auto bytes = gib_to_bytes_rounded_up(estimate.total_gib);
  if (!bytes) {
    return std::nullopt;
  }
  return memory_need{*bytes, std::string(estimate_need_source)};
}

}  // namespace iteragpu

#endif  // ITERAGPU_IMPL_MEMORY_NEED_IPP
