#include <iteragpu/memory/estimate.hpp>

// Built against a compiled-once library: the program sees declarations only.
#ifdef CONSUMER_EXPECT_SEPARATE
#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "linked to a compiled-once library, yet ITERAGPU_SEPARATE_COMPILATION is not defined"
#endif
#ifdef ITERAGPU_MEMORY_IMPL_ESTIMATE_IPP
#error "the estimate's bodies reached a program that links them compiled"
#endif
#endif

int main() {
  constexpr auto estimate = *iteragpu::estimate_weights(iteragpu::parameter_count{7'000'000'000}, iteragpu::storage_bits{16});
  static_assert(estimate.weight_bytes.value == 14'000'000'000U);
  return estimate.weight_gib().to_string() == "13.03851604461669921875" ? 0 : 1;
}
