// expect: (non-[^ ]*constexpr[^ ]* function|constant expression)
// An estimate whose byte count passes 64 bits cannot be a constant: reading
// the value of the failure breaks result's precondition.
#include <cstdint>

#include <iteragpu/memory/estimate.hpp>

constexpr auto too_many = *iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{UINT64_MAX / 2 + 1},
                                                              iteragpu::memory::storage_bits{16});
