// A GPU state every reading of which is missing for one reason.
#include <iteragpu/memory/policies/gpu_state.hpp>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(gpu_state_policies)

BOOST_AUTO_TEST_CASE(an_unavailable_state_carries_the_reason_in_every_reading) {
  mem::reading_error reason;
  reason.subject = "0000:17:00.0";
  reason.detail = "no driver";
  const auto state = mem::gpu_state_unavailable(reason);
  BOOST_TEST(!state.sm_clock.has_value());
  BOOST_TEST(!state.memory_clock.has_value());
  BOOST_TEST(!state.power_draw.has_value());
  BOOST_TEST(!state.temperature.has_value());
  BOOST_TEST(!state.clock_events.has_value());
  BOOST_TEST((state.temperature.error() == reason));
  BOOST_TEST((state.clock_events.error() == reason));
  // The same reason gives the same state; another one another state.
  BOOST_TEST((mem::gpu_state_unavailable(reason) == state));
  reason.detail = "another";
  BOOST_TEST(!(mem::gpu_state_unavailable(reason) == state));
}

BOOST_AUTO_TEST_SUITE_END()
