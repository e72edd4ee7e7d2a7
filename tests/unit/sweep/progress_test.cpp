// The progress line's pieces: text cut to the terminal without splitting a
// UTF-8 character, and the time left from the pace so far.
#include <iteragpu/sweep/progress.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_progress)

BOOST_AUTO_TEST_CASE(text_is_cut_on_a_character_boundary) {
  BOOST_TEST(sw::fit_to("abc", 5) == "abc");
  BOOST_TEST(sw::fit_to("abcdef", 4) == "abcd");
  // "h\u00e9llo": \u00e9 is the two bytes C3 A9; a cut at 2 would split it, so only "h" stays.
  BOOST_TEST(sw::fit_to("h\xc3\xa9llo", 2) == "h");
  BOOST_TEST(sw::fit_to("h\xc3\xa9llo", 3) == "h\xc3\xa9");
}

BOOST_AUTO_TEST_CASE(the_time_left_follows_the_pace_so_far) {
  BOOST_TEST(sw::remaining_text(10, 0, 5) == "?");   // no point done: no pace yet
  BOOST_TEST(sw::remaining_text(10, 5, 5) == "0s");  // all done
  // 30 s for 3 points: 10 s each, 7 left: 70 s.
  BOOST_TEST(sw::remaining_text(30, 3, 10) == "~1m10s");
}

BOOST_AUTO_TEST_SUITE_END()
