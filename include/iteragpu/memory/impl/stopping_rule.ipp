#ifndef ITERAGPU_MEMORY_IMPL_STOPPING_RULE_IPP
#define ITERAGPU_MEMORY_IMPL_STOPPING_RULE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/stopping_rule.hpp"

// The bodies of the functions that <iteragpu/memory/stopping_rule.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::optional<stop_reason> stopping_rule::decide(
    std::span<const double> seconds, std::chrono::duration<double> elapsed) const {
  const std::uint64_t count = seconds.size();
  if (count == 0U) {
    return std::nullopt;
  }
  const bool repeats_spent = count >= parameters_.max_repeats;
  const bool time_spent = !(elapsed.count() >= 0.0 && elapsed < parameters_.max_seconds);
  if (count >= parameters_.min_repeats && (repeats_spent || time_spent || convergence_tested_at(count)) &&
      converged_(seconds, parameters_.max_noise)) {
    return stop_reason::converged;
  }
  if (repeats_spent) {
    return stop_reason::max_repeats;
  }
  if (time_spent) {
    return stop_reason::max_seconds;
  }
  return std::nullopt;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_STOPPING_RULE_IPP
