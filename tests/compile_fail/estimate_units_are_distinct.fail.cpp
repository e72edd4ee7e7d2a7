// expect: (could not convert|no matching|cannot convert)
// A storage width is not a parameter count: swapping them does not compile.
#include <iteragpu/memory/estimate.hpp>

constexpr auto swapped =
    iteragpu::memory::estimate_weights(iteragpu::memory::storage_bits{16}, iteragpu::memory::parameter_count{7});
