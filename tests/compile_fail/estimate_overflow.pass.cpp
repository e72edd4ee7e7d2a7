// Twin of estimate_overflow.fail.cpp: the largest byte count that fits.
#include <cstdint>

#include <iteragpu/memory/estimate.hpp>

constexpr auto largest = *iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{UINT64_MAX / 2},
                                                             iteragpu::memory::storage_bits{16});
static_assert(largest.weight_bytes.value == UINT64_MAX - 1);
