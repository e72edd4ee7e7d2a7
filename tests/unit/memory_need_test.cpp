// A memory need: bytes and the words of where they come from, compared
// member by member.
#include <iteragpu/memory_need.hpp>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(memory_need_type)

BOOST_AUTO_TEST_CASE(needs_compare_by_bytes_source_and_setting) {
  const iteragpu::memory_need need{iteragpu::byte_count{1U << 30U}, "measured", std::nullopt, ""};
  BOOST_TEST((need == iteragpu::memory_need{iteragpu::byte_count{1073741824}, "measured"}));
  BOOST_TEST(!(need == iteragpu::memory_need{iteragpu::byte_count{1073741825}, "measured"}));
  auto stated = need;
  stated.stated_gib = iteragpu::exact_decimal::from_integer(1);
  BOOST_TEST(!(stated == need));
}

BOOST_AUTO_TEST_SUITE_END()
