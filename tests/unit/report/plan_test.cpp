// A fit check as JSON: the card's memory in bytes and GiB, the verdict,
// and null for what does not apply.
#include <iteragpu/report/plan.hpp>

#include <cstdint>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace pred = iteragpu::memory::prediction;

BOOST_AUTO_TEST_SUITE(plan_json)

BOOST_AUTO_TEST_CASE(a_fit_and_a_miss_as_json) {
  // 80 GiB = 85,899,345,920 bytes; 1 GiB of headroom.
  const pred::fit_check fits{iteragpu::byte_count{85'899'345'920}, true, std::uint64_t{1'073'741'824}, std::nullopt,
                             ""};
  const auto o = iteragpu::report::to_json(fits);
  BOOST_TEST(o.at("memory_gib").as_string() == "80");
  BOOST_TEST(o.at("fits").as_bool());
  BOOST_TEST(o.at("headroom_bytes").to_number<std::uint64_t>() == 1'073'741'824U);
  BOOST_TEST(o.at("failed_phase").is_null());
  const pred::fit_check misses{iteragpu::byte_count{1'610'612'736}, false, std::nullopt,
                               iteragpu::memory::phase_kind::cold_forward, "out of memory"};
  const auto m = iteragpu::report::to_json(misses);
  BOOST_TEST(m.at("memory_gib").as_string() == "1.5");
  BOOST_TEST(m.at("headroom_bytes").is_null());
  BOOST_TEST(m.at("failed_phase").as_string() == "cold_forward");
  BOOST_TEST(m.at("message").as_string() == "out of memory");
}

BOOST_AUTO_TEST_SUITE_END()
