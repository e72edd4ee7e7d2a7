// The weights' estimate as JSON: exact decimals and the need it gives.
#include <iteragpu/report/estimate.hpp>

#include <cstdint>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/estimate.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(estimate_json)

BOOST_AUTO_TEST_CASE(one_billion_bytes_of_weights_and_one_gib_of_reserve) {
  // 10^9 parameters of 8 bits: 10^9 bytes = 2^9 * 1953125 bytes, or 1953125 / 2^21 GiB exactly.
  const auto e = mem::estimate_memory(mem::parameter_count{1'000'000'000}, mem::storage_bits{8},
                                      iteragpu::exact_decimal::from_integer(1));
  BOOST_TEST_REQUIRE(e.has_value());
  const auto o = iteragpu::report::to_json(*e);
  BOOST_TEST(o.at("weight_bytes").to_number<std::uint64_t>() == 1'000'000'000U);
  BOOST_TEST(o.at("weight_gib").as_string() == "0.931322574615478515625");
  BOOST_TEST(o.at("weight_gb").as_string() == "1");
  BOOST_TEST(o.at("total_gib").as_string() == "1.931322574615478515625");
  // 10^9 + 2^30 = 2,073,741,824 bytes.
  BOOST_TEST(o.at("memory_need").as_object().at("bytes").to_number<std::uint64_t>() == 2'073'741'824U);
  BOOST_TEST(o.at("memory_need").as_object().at("gb").as_string() == "2.073741824");
}

BOOST_AUTO_TEST_SUITE_END()
