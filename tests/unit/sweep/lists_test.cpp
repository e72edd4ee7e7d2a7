// The sweep's lists: sizes and doubling ranges, the refusals with their
// kind and values.
#include <iteragpu/sweep/lists.hpp>

#include <cstdint>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_lists)

BOOST_AUTO_TEST_CASE(ranges_double_and_bad_items_are_refused_with_their_kind) {
  // 2 x 2^k up to 16: 2, 4, 8, 16; with 5 among them, sorted.
  BOOST_TEST(sw::parse_size_list("2..16,5").value() == (std::vector<std::uint64_t>{2, 4, 5, 8, 16}),
             boost::test_tools::per_element());
  // 10 is not 3 x 2^k (3, 6, 12): refused with both ends.
  const auto odd = sw::parse_size_list("3..10");
  BOOST_TEST_REQUIRE(!odd.has_value());
  BOOST_TEST((odd.error().code == sw::list_errc::not_doubling));
  BOOST_TEST(odd.error().first == 3U);
  BOOST_TEST(odd.error().last == 10U);
  BOOST_TEST((sw::parse_size_list("0").error().code == sw::list_errc::not_positive));
  BOOST_TEST((sw::parse_size_list("8..4").error().code == sw::list_errc::start_after_end));
  BOOST_TEST((sw::parse_dtype_list("float64").error().code == sw::list_errc::unknown_dtype));
}

BOOST_AUTO_TEST_SUITE_END()
