#include <iteragpu/memory/estimate.hpp>

#include "expect_compiled.hpp"

int main() {
  constexpr auto estimate =
      *iteragpu::estimate_weights(iteragpu::parameter_count{7'000'000'000}, iteragpu::storage_bits{16});
  static_assert(estimate.weight_bytes.value == 14'000'000'000U);
  return estimate.weight_gib().to_string() == "13.03851604461669921875" ? 0 : 1;
}
