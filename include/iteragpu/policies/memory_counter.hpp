#ifndef ITERAGPU_POLICIES_MEMORY_COUNTER_HPP
#define ITERAGPU_POLICIES_MEMORY_COUNTER_HPP

#include <concepts>
#include <cstdint>

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

template <class C>
concept memory_counter = requires(device_index device) {
  { C::read(device) } -> std::same_as<allocator_reading>;
  { C::reset_peaks(device) } -> std::same_as<void>;
};

}  // namespace iteragpu

#endif  // ITERAGPU_POLICIES_MEMORY_COUNTER_HPP
