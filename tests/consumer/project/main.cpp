#include <iteragpu/iteragpu.hpp>

#include <boost/json.hpp>

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
  const auto estimate = iteragpu::estimate_memory(iteragpu::parameter_count{7'000'000'000},
                                                  iteragpu::storage_bits{16}, iteragpu::exact_decimal::from_integer(4));
  if (!estimate) {
    return 1;
  }
  const auto json = boost::json::serialize(iteragpu::report::to_json(*estimate));
  return json.find("\"total_gib\":\"17.03851604461669921875\"") == std::string::npos ? 1 : 0;
}
