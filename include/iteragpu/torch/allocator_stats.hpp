#ifndef ITERAGPU_TORCH_ALLOCATOR_STATS_HPP
#define ITERAGPU_TORCH_ALLOCATOR_STATS_HPP

#include <cstdint>

#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/torch/narrow.hpp"

/// \file
/// LibTorch's caching-allocator statistics as an allocator_reading, for the
/// CUDA and the HIP counters. It names no LibTorch type (the stats types
/// moved from c10::cuda::CUDACachingAllocator in 1.13 to ~2.4 to
/// c10::CachingDeviceAllocator from ~2.5, and differ between the CUDA and
/// HIP builds), so it is written over any DeviceStats-shaped value and is
/// tested on the CPU with a stand-in.
namespace iteragpu::torch_adapter {

/// The aggregate entry (index 0, StatType::AGGREGATE, in every LibTorch
/// version) of the allocated and reserved byte counters. A negative counter
/// is an error, not a huge number.
template <class DeviceStats>
[[nodiscard]] allocator_reading reading_from(const DeviceStats& stats) {
  const auto& allocated = stats.allocated_bytes[0];
  const auto& reserved = stats.reserved_bytes[0];
  return allocator_reading{
      narrow_or_throw<std::uint64_t>(allocated.current), narrow_or_throw<std::uint64_t>(reserved.current),
      narrow_or_throw<std::uint64_t>(allocated.peak), narrow_or_throw<std::uint64_t>(reserved.peak)};
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_ALLOCATOR_STATS_HPP
