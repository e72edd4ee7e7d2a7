// traces.hpp brings the replay of a recorded trace.
#include <iteragpu/traces.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(traces_umbrella)

BOOST_AUTO_TEST_CASE(a_trace_of_one_request_replays_to_its_block_and_segment) {
  // A request of 2 MiB, freed: above 1 MiB it is served from the large
  // pool, whose segment for a request under 10 MiB is 20 MiB; the block is
  // the request rounded to 512 bytes, 2 MiB itself.
  constexpr std::uint64_t mib = std::uint64_t{1} << 20U;
  mem::device_trace trace;
  trace.events = {{mem::trace_action::segment_alloc, 0x7f0000000000U, 20 * mib, 0},
                  {mem::trace_action::alloc, 0x7f0000000000U, 2 * mib, 0},
                  {mem::trace_action::free_requested, 0x7f0000000000U, 2 * mib, 0},
                  {mem::trace_action::free_completed, 0x7f0000000000U, 2 * mib, 0}};
  const auto outcome = mem::replay(trace, mem::replay_options{});
  BOOST_TEST(outcome.has_value());
  BOOST_TEST(outcome->peak_allocated.value == 2 * mib);
  BOOST_TEST(outcome->peak_reserved.value == 20 * mib);
  BOOST_TEST(!outcome->oom.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
