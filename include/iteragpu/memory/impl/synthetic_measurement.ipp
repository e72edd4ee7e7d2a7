#ifndef ITERAGPU_MEMORY_IMPL_SYNTHETIC_MEASUREMENT_IPP
#define ITERAGPU_MEMORY_IMPL_SYNTHETIC_MEASUREMENT_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"

// The bodies of the functions that <iteragpu/memory/synthetic_measurement.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE warm_statistics statistics_of(const std::vector<phase_row>& rows) {
  warm_statistics s;
  std::vector<double> seconds;
  std::vector<double> gpu_seconds;
  for (const auto& row : rows) {
    if (row.phase != phase_kind::warm_forward) {
      continue;
    }
    seconds.push_back(row.seconds);
    gpu_seconds.push_back(row.gpu_seconds);
    if (row.state_at_end && row.state_at_end->clock_events) {
      ++s.repeats_with_state;
      s.repeats_under_throttling += row.state_at_end->clock_events->any_besides_idle() ? 1U : 0U;
    }
  }
  if (auto summary = summarize(seconds)) {
    s.seconds = *summary;
  }
  if (auto summary = summarize(gpu_seconds)) {
    s.gpu_seconds = *summary;
  }
  return s;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<device_sample> device_samples(const std::vector<phase_row>& rows) {
  std::vector<device_sample> samples;
  for (const auto& row : rows) {
    if (row.baseline_device_used_bytes) {
      samples.push_back(device_sample{*row.baseline_device_used_bytes, row.baseline_reserved_bytes});
    }
    if (row.end_device_used_bytes) {
      samples.push_back(device_sample{*row.end_device_used_bytes, row.end_reserved_bytes});
    }
  }
  return samples;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> need_of(const std::vector<phase_row>& rows) {
  std::uint64_t peak = 0;
  for (const auto& row : rows) {
    peak = std::max(peak, row.peak_reserved_bytes);
  }
  const auto need = need_of_measurement(peak, device_samples(rows));
  if (!need) {
    return std::nullopt;
  }
  return memory_need{byte_count{need->bytes},
                     std::string(need->outside_sample ? measured_need_source : measured_need_without_outside_source)};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_SYNTHETIC_MEASUREMENT_IPP
