// Twin of estimate_units_are_distinct.fail.cpp: the arguments in their order.
#include <iteragpu/memory/estimate.hpp>

constexpr auto ordered =
    iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{7}, iteragpu::memory::storage_bits{16});
static_assert(ordered->weight_bytes.value == 14);
