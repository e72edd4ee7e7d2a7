// A stop request: anything that can be asked whether to stop; never_stop
// never asks.
#include <iteragpu/sweep/stop.hpp>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

namespace {

struct stop_after {
  int* asked;
  int limit;
  [[nodiscard]] bool stop_requested() const { return ++*asked > limit; }
};

struct no_question {};

template <sw::stop_request S>
int points_run(const S& stop, int points) {
  int run = 0;
  while (run < points && !stop.stop_requested()) {
    ++run;
  }
  return run;
}

}  // namespace

static_assert(sw::stop_request<stop_after>);
static_assert(!sw::stop_request<no_question>);

BOOST_AUTO_TEST_SUITE(sweep_error)

BOOST_AUTO_TEST_CASE(a_loop_runs_until_its_stop_request_asks) {
  BOOST_TEST(points_run(sw::never_stop{}, 5) == 5);
  int asked = 0;
  BOOST_TEST(points_run(stop_after{&asked, 2}, 5) == 2);  // asked 3 times: yes at the third
  BOOST_TEST(asked == 3);
}

BOOST_AUTO_TEST_SUITE_END()
