// expect: (overflow|not a constant expression|non-constant)
// An estimate whose byte count passes 64 bits cannot be a constant.
#include <cstdint>

#include <iteragpu/memory/estimate.hpp>

constexpr auto too_many = iteragpu::estimate_weights(iteragpu::parameter_count{UINT64_MAX / 2 + 1},
                                                     iteragpu::storage_bits{16});
