// The recorded trace's types: compared member by member, as the snapshot
// reader's and the replay's tests compare them.
#include <iteragpu/memory/trace.hpp>

#include <cstdint>
#include <optional>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(trace_types)

BOOST_AUTO_TEST_CASE(events_blocks_and_segments_compare_by_every_member) {
  const mem::trace_event alloc{mem::trace_action::alloc, 0x7f0000000000U, 1000, 0};
  BOOST_TEST((alloc == mem::trace_event{mem::trace_action::alloc, 0x7f0000000000U, 1000, 0}));
  BOOST_TEST(!(alloc == mem::trace_event{mem::trace_action::alloc, 0x7f0000000000U, 1000, 7}));  // another stream
  // A default event is an `other` action on nothing.
  BOOST_TEST((mem::trace_event{}.action == mem::trace_action::other));
  const mem::recorded_segment segment{
      0x7f0000000000U, 2U << 20U, 0, true, false, {{0x7f0000000000U, 1024, 1000, mem::block_state::active_allocated}}};
  mem::recorded_segment freed = segment;
  freed.blocks[0].state = mem::block_state::inactive;
  BOOST_TEST(!(freed == segment));
  const mem::snapshot one{{mem::device_trace{{alloc}, {segment}}}, std::nullopt};
  BOOST_TEST(one.devices.size() == 1U);
  BOOST_TEST((one == mem::snapshot{{mem::device_trace{{alloc}, {segment}}}, std::nullopt}));
  BOOST_TEST(!(one == mem::snapshot{{mem::device_trace{{alloc}, {freed}}}, std::nullopt}));
}

BOOST_AUTO_TEST_SUITE_END()
