#ifndef ITERAGPU_POLICIES_MEMORY_COUNTER_HPP
#define ITERAGPU_POLICIES_MEMORY_COUNTER_HPP

#include <concepts>
#include <cstdint>

#include "iteragpu/detail/checked.hpp"
#include "iteragpu/device.hpp"

// The allocator counters of one device, as a compile-time policy. The
// LibTorch caching allocator's adapter is iteragpu/torch/allocator_counter.hpp.
namespace iteragpu {

// One reading of the caching allocator for one device. `allocated` is part
// of `reserved`; the two peaks are two different maxima since the last
// reset (a reset sets each peak to its current value).
struct allocator_reading {
  std::uint64_t allocated_bytes{0};
  std::uint64_t reserved_bytes{0};
  std::uint64_t peak_allocated_bytes{0};
  std::uint64_t peak_reserved_bytes{0};
  friend constexpr bool operator==(const allocator_reading&, const allocator_reading&) = default;
};

// A reading from LibTorch's caching-allocator statistics (CUDA or HIP): the
// aggregate entry (index 0 in every LibTorch version) of the allocated and
// reserved byte counters. Generic, because the stats types moved between
// LibTorch versions and differ between the CUDA and HIP builds.
template <class DeviceStats>
[[nodiscard]] allocator_reading reading_from(const DeviceStats& stats) {
  const auto& allocated = stats.allocated_bytes[0];
  const auto& reserved = stats.reserved_bytes[0];
  return allocator_reading{detail::narrow<std::uint64_t>(allocated.current),
                           detail::narrow<std::uint64_t>(reserved.current),
                           detail::narrow<std::uint64_t>(allocated.peak),
                           detail::narrow<std::uint64_t>(reserved.peak)};
}

template <class C>
concept memory_counter = requires(device_index device) {
  { C::read(device) } -> std::same_as<allocator_reading>;
  { C::reset_peaks(device) } -> std::same_as<void>;
};

}  // namespace iteragpu

#endif  // ITERAGPU_POLICIES_MEMORY_COUNTER_HPP
