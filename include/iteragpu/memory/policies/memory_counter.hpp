#ifndef ITERAGPU_MEMORY_POLICIES_MEMORY_COUNTER_HPP
#define ITERAGPU_MEMORY_POLICIES_MEMORY_COUNTER_HPP

#include <concepts>
#include <cstdint>

#include "iteragpu/memory/device.hpp"

/// \file
/// The allocator counters of one device, as a policy object. LibTorch's
/// caching allocator is read by torch_adapter::cuda_allocator_counter
/// (iteragpu/torch/cuda_backend.hpp); prediction::simulated_counter reads a
/// simulated one; an integrator may read their own allocator.
namespace iteragpu::memory {

/// One reading of an allocator for one device. `allocated` is part of
/// `reserved`; the two peaks are two different maxima since the last reset
/// (a reset sets each peak to its current value).
struct allocator_reading {
  std::uint64_t allocated_bytes{0};       ///< bytes of the blocks in use
  std::uint64_t reserved_bytes{0};        ///< bytes the allocator holds from the device (blocks in use and cached)
  std::uint64_t peak_allocated_bytes{0};  ///< the largest allocated_bytes since the last reset
  std::uint64_t peak_reserved_bytes{0};   ///< the largest reserved_bytes since the last reset
  friend constexpr bool operator==(const allocator_reading&, const allocator_reading&) = default;
};

/// What iteragpu::memory::measure() asks of a memory counter: `read(device)` gives the allocator's
/// allocator_reading, `reset_peaks(device)` sets each peak to its current value.
template <class C>
concept memory_counter = requires(C& c, device_index device) {
  { c.read(device) } -> std::same_as<allocator_reading>;
  { c.reset_peaks(device) } -> std::same_as<void>;
};

}  // namespace iteragpu::memory

// Measurement as a library call (docs/library.md) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::allocator_reading;
using memory::memory_counter;
}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_POLICIES_MEMORY_COUNTER_HPP
