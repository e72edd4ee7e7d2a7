#include <iteragpu/iteragpu.hpp>

#include <boost/json.hpp>

#include "expect_compiled.hpp"

int main() {
  const auto estimate = iteragpu::estimate_memory(iteragpu::parameter_count{7'000'000'000}, iteragpu::storage_bits{16},
                                                  iteragpu::exact_decimal::from_integer(4));
  if (!estimate) {
    return 1;
  }
  const auto json = boost::json::serialize(iteragpu::report::to_json(*estimate));
  return json.find("\"total_gib\":\"17.03851604461669921875\"") == std::string::npos ? 1 : 0;
}
