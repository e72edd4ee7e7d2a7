// GiB to two places, the one figure the fit table and the replay report both
// print: rounded down or up at the hundredth, the carry into the whole GiB,
// and the largest byte count without overflow.
#include <iteragpu/units.hpp>

#include <cstdint>
#include <limits>

#include <boost/test/unit_test.hpp>

using iteragpu::byte_count;
using iteragpu::gib_two_places;

BOOST_AUTO_TEST_SUITE(gib_two_places_text)

BOOST_AUTO_TEST_CASE(exact_hundredths_are_the_same_either_way) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30U;
  BOOST_TEST(gib_two_places(byte_count{0}, false) == "0.00");
  BOOST_TEST(gib_two_places(byte_count{0}, true) == "0.00");
  BOOST_TEST(gib_two_places(byte_count{gib + gib / 2}, false) == "1.50");
  BOOST_TEST(gib_two_places(byte_count{gib + gib / 2}, true) == "1.50");
  BOOST_TEST(gib_two_places(byte_count{141 * gib}, true) == "141.00");
}

BOOST_AUTO_TEST_CASE(one_byte_rounds_to_zero_down_and_to_a_hundredth_up) {
  BOOST_TEST(gib_two_places(byte_count{1}, false) == "0.00");
  BOOST_TEST(gib_two_places(byte_count{1}, true) == "0.01");
}

BOOST_AUTO_TEST_CASE(rounding_up_carries_into_the_whole_gib) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30U;
  BOOST_TEST(gib_two_places(byte_count{2 * gib - 1}, false) == "1.99");
  BOOST_TEST(gib_two_places(byte_count{2 * gib - 1}, true) == "2.00");
}

BOOST_AUTO_TEST_CASE(the_largest_count_does_not_overflow) {
  const byte_count largest{std::numeric_limits<std::uint64_t>::max()};
  BOOST_TEST(gib_two_places(largest, false) == "17179869183.99");
  BOOST_TEST(gib_two_places(largest, true) == "17179869184.00");
}

BOOST_AUTO_TEST_SUITE_END()
