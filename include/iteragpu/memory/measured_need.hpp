#ifndef ITERAGPU_MEMORY_MEASURED_NEED_HPP
#define ITERAGPU_MEMORY_MEASURED_NEED_HPP

#include <cstdint>
#include <optional>
#include <span>

#include "iteragpu/checked.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The two figures derived from a measurement, defined once: the memory
/// outside the allocator and the memory need. A measurement file records
/// them, and the package search and the sweep read them back from it, all
/// through these functions.
///
/// The memory outside the allocator is what the process takes on the GPU
/// that the caching allocator does not count: the CUDA context (there
/// before the first tensor), the libraries' handles and kernels (cuBLAS and
/// cuBLASLt come with the first matrix product), and other processes on
/// the device. Each sample of the device's used memory (total minus free)
/// taken beside the allocator's reserved bytes gives it at that moment:
/// used less reserved, floored at 0 (the two are read one after the other,
/// so used may trail reserved). It grows during a run, as libraries load,
/// and the need must cover it at its largest, so the figure is the largest
/// of every sample, at the baseline and at the end of every row. It does
/// not depend on the order of the rows nor on which row has the largest
/// device use (a row of large device use may hold a large cache and little
/// outside it).
namespace iteragpu::memory {

/// One reading of the device's used memory (total minus free) with the
/// allocator's reserved bytes at the same moment.
struct device_sample {
  std::uint64_t device_used_bytes{0};  ///< total minus free, the whole device
  std::uint64_t reserved_bytes{0};     ///< the allocator's reserved bytes
  /// The memory outside the allocator at that moment: used less reserved, floored at 0.
  [[nodiscard]] constexpr std::uint64_t outside_allocator_bytes() const noexcept {
    return device_used_bytes > reserved_bytes ? device_used_bytes - reserved_bytes : 0U;
  }
  friend constexpr bool operator==(const device_sample&, const device_sample&) = default;
};

/// The sample that gives the memory outside the allocator: of every
/// sample, the one with the largest outside_allocator_bytes() (the first
/// of equals). Nothing without samples (the backend did not report device
/// memory).
[[nodiscard]] constexpr std::optional<device_sample> largest_outside_sample(
    std::span<const device_sample> samples) noexcept {
  std::optional<device_sample> largest;
  for (const auto& s : samples) {
    if (!largest || s.outside_allocator_bytes() > largest->outside_allocator_bytes()) {
      largest = s;
    }
  }
  return largest;
}

/// The memory outside the allocator of a measurement (see the file's
/// description): the largest device used less reserved over `samples`,
/// floored at 0; nothing without samples.
[[nodiscard]] constexpr std::optional<std::uint64_t> memory_outside_allocator(
    std::span<const device_sample> samples) noexcept {
  const auto largest = largest_outside_sample(samples);
  return largest ? std::optional<std::uint64_t>(largest->outside_allocator_bytes()) : std::nullopt;
}

/// The memory need of a measurement and the figures it is made of.
struct measured_need {
  std::uint64_t peak_reserved_bytes{0};  ///< the largest peak reserved of the rows
  /// The sample that gives the memory outside the allocator; nothing when none was recorded.
  std::optional<device_sample> outside_sample{};
  std::uint64_t bytes{0};  ///< peak_reserved_bytes plus the memory outside the allocator
  /// The memory outside the allocator counted, 0 when none was recorded.
  [[nodiscard]] constexpr std::uint64_t outside_allocator_bytes() const noexcept {
    return outside_sample ? outside_sample->outside_allocator_bytes() : 0U;
  }
  friend constexpr bool operator==(const measured_need&, const measured_need&) = default;
};

/// Why a measurement gives no need.
enum class measured_need_errc : std::uint8_t {
  past_64_bits,  ///< the peak plus the memory outside the allocator passes 2^64 - 1 bytes
};

/// The memory need of a measurement: its largest peak reserved plus the
/// memory outside the allocator (memory_outside_allocator()), or the peak
/// alone when no sample of the device's memory was recorded.
[[nodiscard]] constexpr result<measured_need, measured_need_errc> need_of_measurement(
    std::uint64_t peak_reserved_bytes, std::span<const device_sample> samples) noexcept {
  measured_need need{peak_reserved_bytes, largest_outside_sample(samples), peak_reserved_bytes};
  const auto total = checked_add(peak_reserved_bytes, need.outside_allocator_bytes());
  if (!total) {
    return unexpected{measured_need_errc::past_64_bits};
  }
  need.bytes = *total;
  return need;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_MEASURED_NEED_HPP
