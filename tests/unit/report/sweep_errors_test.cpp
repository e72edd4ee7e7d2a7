// The sweep's refusals in words: the range at fault quoted before the
// reason, and the limit of the plan.
#include <iteragpu/report/sweep_errors.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::report::words_of;

BOOST_AUTO_TEST_SUITE(sweep_error_words)

BOOST_AUTO_TEST_CASE(list_and_plan_errors_in_words) {
  sw::list_error not_doubling{sw::list_errc::not_doubling, "3..10", "3..10", 3, 10};
  BOOST_TEST(words_of(not_doubling) == "'3..10': 10 is not 3 times a power of two");
  sw::list_error zero{sw::list_errc::not_positive, "0", "", 0, 0};
  BOOST_TEST(words_of(zero) == "'0' is not positive");
  // max_points is 100,000.
  BOOST_TEST(words_of(sw::plan_errc::no_point) == "the lists make no point; expected 1 to 100000");
  BOOST_TEST(words_of(sw::plan_errc::too_many_points) ==
             "the lists make more than 100000 points; expected 1 to 100000");
}

BOOST_AUTO_TEST_SUITE_END()
