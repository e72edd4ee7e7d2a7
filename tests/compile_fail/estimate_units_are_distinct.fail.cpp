// expect: (could not convert|no matching|cannot convert)
// A storage width is not a parameter count: swapping them does not compile.
#include <iteragpu/memory/estimate.hpp>

constexpr auto swapped = iteragpu::estimate_weights(iteragpu::storage_bits{16}, iteragpu::parameter_count{7});
