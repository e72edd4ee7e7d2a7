// A memory need as JSON: bytes, GiB and GB exactly, and its source; null
// where there is none.
#include <iteragpu/report/memory_need.hpp>

#include <cstdint>
#include <optional>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(memory_need_json)

BOOST_AUTO_TEST_CASE(a_need_in_three_units_or_null) {
  BOOST_TEST(iteragpu::report::to_json(std::optional<iteragpu::memory_need>{}).is_null());
  // 1,610,612,736 bytes = 1.5 * 2^30: 1.5 GiB, 1.610612736 GB.
  const auto v = iteragpu::report::to_json(
      std::optional<iteragpu::memory_need>(iteragpu::memory_need{iteragpu::byte_count{1'610'612'736}, "plan"}));
  const auto& o = v.as_object();
  BOOST_TEST(o.at("bytes").to_number<std::uint64_t>() == 1'610'612'736U);
  BOOST_TEST(o.at("gib").as_string() == "1.5");
  BOOST_TEST(o.at("gb").as_string() == "1.610612736");
  BOOST_TEST(o.at("source").as_string() == "plan");
}

BOOST_AUTO_TEST_SUITE_END()
