// The replay of recorded allocator traces (memory/replay.hpp), on traces
// written by hand: each expected figure follows from PyTorch's rules, worked
// out in a comment. (The typed snapshot reader: files/snapshot_test.cpp.)
#include "iteragpu/memory/replay.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/report/replay.hpp"

namespace {

using iteragpu::byte_count;
using iteragpu::memory::block_state;
using iteragpu::memory::device_trace;
using iteragpu::memory::check_beginning;
using iteragpu::memory::peaks_in;
using iteragpu::memory::recorded_segment;
using iteragpu::memory::replay;
using iteragpu::memory::replay_errc;
using iteragpu::memory::replay_options;
using iteragpu::memory::run_study;
using iteragpu::memory::smallest_capacity;
using iteragpu::memory::state_at_start;
using iteragpu::memory::study_request;
using iteragpu::memory::trace_action;
using iteragpu::memory::trace_event;
using iteragpu::memory::unexplained_segment;

constexpr std::uint64_t mib = std::uint64_t{1} << 20U;
constexpr std::uint64_t base = std::uint64_t{0x7f00} << 32U;  // an address as CUDA gives them

trace_event ev(trace_action a, std::uint64_t address, std::uint64_t size, std::uint64_t stream = 0) {
  return trace_event{a, address, size, stream};
}

// A program that takes a small tensor, a 6 MiB one, frees the small one and
// takes a 4 MiB one, as PyTorch's allocator records it with default
// settings: 1000 B -> a 1024-byte block of a new 2 MiB small segment; 6 MiB
// (under 10 MiB) -> a 20 MiB segment, split; 4 MiB -> the 14 MiB rest of it.
device_trace small_program() {
  device_trace t;
  t.events = {
      ev(trace_action::segment_alloc, base, 2 * mib),
      ev(trace_action::alloc, base, 1000),
      ev(trace_action::segment_alloc, base + 64 * mib, 20 * mib),
      ev(trace_action::alloc, base + 64 * mib, 6 * mib),
      ev(trace_action::free_requested, base, 1000),
      ev(trace_action::free_completed, base, 1000),
      ev(trace_action::alloc, base + 70 * mib, 4 * mib),
  };
  return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(replay_of_traces)

BOOST_AUTO_TEST_CASE(a_trace_replays_to_its_blocks_and_segments) {
  const auto outcome = replay(small_program(), replay_options{});
  BOOST_TEST_REQUIRE(outcome.has_value());
  // allocated: 1024, then 1024 + 6 MiB, then 6 MiB, then 10 MiB (the peak).
  BOOST_TEST(outcome->peak_allocated.value == 10 * mib);
  BOOST_TEST(outcome->peak_allocated_event == 6U);
  // reserved: 2 MiB + 20 MiB from event 3 on.
  BOOST_TEST(outcome->peak_reserved.value == 22 * mib);
  BOOST_TEST(outcome->peak_reserved_event == 3U);
  BOOST_TEST(outcome->requests == 4U);
  BOOST_TEST(!outcome->oom.has_value());
  BOOST_TEST(outcome->alloc_retries == 0U);
}

// Expandable segments are sized by the device's memory, which no default
// stands for: a replay under them without it is refused before any event,
// and runs once it is given.
BOOST_AUTO_TEST_CASE(expandable_segments_replay_only_on_a_named_device_memory) {
  replay_options o;
  o.settings.expandable_segments = true;
  const auto refused = replay(small_program(), o);
  BOOST_TEST_REQUIRE(!refused.has_value());
  BOOST_TEST((refused.error().code == replay_errc::device_memory_unknown));
  BOOST_TEST(iteragpu::report::describe(refused.error()) ==
             "expandable segments reserve an address space of 9/8 of the device's memory, which was not given: "
             "name the card or its total memory");
  o.device_memory = byte_count{std::uint64_t{80} << 30U};
  const auto outcome = replay(small_program(), o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(outcome->peak_allocated.value == 10 * mib);
  BOOST_TEST(!outcome->oom.has_value());
}

BOOST_AUTO_TEST_CASE(the_self_check_passes_when_the_segments_are_the_recorded_ones) {
  replay_options o;
  o.follow_recorded_addresses = true;
  const auto outcome = replay(small_program(), o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(!outcome->divergence.has_value());
}

BOOST_AUTO_TEST_CASE(the_self_check_names_the_first_request_whose_segments_differ) {
  auto t = small_program();
  // The recording says the 6 MiB request took a 22 MiB segment: not what
  // PyTorch's rules give (20 MiB), so the replay diverges at event 3.
  t.events[2].size = 22 * mib;
  replay_options o;
  o.follow_recorded_addresses = true;
  const auto outcome = replay(t, o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST_REQUIRE(outcome->divergence.has_value());
  BOOST_TEST(outcome->divergence->event == 3U);
  BOOST_TEST_REQUIRE(outcome->divergence->recorded.size() == 1U);
  BOOST_TEST(outcome->divergence->recorded[0].size == 22 * mib);
  BOOST_TEST_REQUIRE(outcome->divergence->replayed.size() == 1U);
  BOOST_TEST(outcome->divergence->replayed[0].size == 20 * mib);
}

BOOST_AUTO_TEST_CASE(a_capacity_below_the_need_runs_out_on_the_request_that_does_not_fit) {
  replay_options o;
  // 21 MiB holds the 2 MiB small segment but not the 20 MiB one next to it:
  // nothing is cached to release, so the 6 MiB request (event 3) fails.
  o.capacity = byte_count{21 * mib};
  const auto outcome = replay(small_program(), o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST_REQUIRE(outcome->oom.has_value());
  BOOST_TEST(outcome->oom->event == 3U);
  BOOST_TEST(outcome->oom->size.value == 6 * mib);
  o.capacity = byte_count{22 * mib};
  const auto fits = replay(small_program(), o);
  BOOST_TEST_REQUIRE(fits.has_value());
  BOOST_TEST(!fits->oom.has_value());
}

BOOST_AUTO_TEST_CASE(the_smallest_capacity_is_the_least_multiple_of_two_mib_that_runs) {
  const auto smallest = smallest_capacity(small_program(), replay_options{});
  BOOST_TEST_REQUIRE(smallest.has_value());
  BOOST_TEST_REQUIRE(smallest->has_value());
  BOOST_TEST((*smallest)->value == 22 * mib);
}

BOOST_AUTO_TEST_CASE(a_trace_whose_bytes_in_use_pass_2_to_the_64_fits_no_capacity) {
  // 32 blocks of 2^59 bytes: the 32nd would bring the segments to 2^64.
  device_trace t;
  for (std::uint64_t i = 0; i < 32; ++i) {
    t.events.push_back(ev(trace_action::segment_alloc, base + i * (std::uint64_t{1} << 59U), std::uint64_t{1} << 59U));
    t.events.push_back(ev(trace_action::alloc, base + i * (std::uint64_t{1} << 59U), std::uint64_t{1} << 59U));
  }
  const auto smallest = smallest_capacity(t, replay_options{});
  BOOST_TEST_REQUIRE(smallest.has_value());
  BOOST_TEST(!smallest->has_value());
  study_request request;
  request.settings.push_back({"", iteragpu::memory::prediction::allocator_settings{}});
  request.smallest_capacity = true;
  const auto s = run_study(t, iteragpu::memory::prediction::allocator_settings{}, request);
  BOOST_TEST_REQUIRE(s.has_value());
  BOOST_TEST(!s->settings.at(0).smallest_capacity.has_value());
  BOOST_TEST(!s->settings.at(0).memory_need.has_value());
  iteragpu::report::replay_context c{"t.pickle", 0, true, "", true, std::nullopt, byte_count{1000}};
  std::ostringstream text;
  iteragpu::report::write_text(text, *s, c);
  BOOST_TEST(text.str().find("\n  smallest capacity: none; the trace runs out of memory under every capacity (its "
                             "bytes in use pass 2^64)\n") != std::string::npos,
             text.str());
}

BOOST_AUTO_TEST_CASE(a_release_the_simulation_did_not_make_is_the_programs_empty_cache) {
  auto t = small_program();
  // The program frees the 6 MiB and 4 MiB blocks and calls empty_cache():
  // both segments, now wholly free, go back; the next 6 MiB request
  // reserves anew.
  t.events.push_back(ev(trace_action::free_completed, base + 64 * mib, 6 * mib));
  t.events.push_back(ev(trace_action::free_completed, base + 70 * mib, 4 * mib));
  t.events.push_back(ev(trace_action::segment_free, base + 64 * mib, 20 * mib));
  t.events.push_back(ev(trace_action::segment_free, base, 2 * mib));
  t.events.push_back(ev(trace_action::segment_alloc, base + 128 * mib, 20 * mib));
  t.events.push_back(ev(trace_action::alloc, base + 128 * mib, 6 * mib));
  replay_options o;
  o.follow_recorded_addresses = true;
  const auto outcome = replay(t, o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(outcome->cache_releases == 1U);
  BOOST_TEST(!outcome->divergence.has_value());
  BOOST_TEST(outcome->peak_reserved.value == 22 * mib);
}

BOOST_AUTO_TEST_CASE(a_trace_that_frees_what_it_never_allocated_starts_late) {
  device_trace t;
  t.events = {ev(trace_action::alloc, base, 512), ev(trace_action::free_completed, base + 4096, 512)};
  const auto begins = check_beginning(t.events);
  BOOST_TEST_REQUIRE(!begins.has_value());
  BOOST_TEST((begins.error().code == replay_errc::starts_late));
  BOOST_TEST(begins.error().event == 1U);
  BOOST_TEST(begins.error().address == base + 4096);
  // With no segment in the snapshot, rewinding fails at the alloc whose
  // block the end state does not hold: the start cannot be rebuilt.
  const auto outcome = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(!outcome.has_value());
  BOOST_TEST((outcome.error().code == replay_errc::cannot_rebuild));
  BOOST_TEST(outcome.error().event == 0U);
  BOOST_TEST(outcome.error().address == base);
  BOOST_TEST(iteragpu::report::describe(outcome.error()).find("does not start at the process's first allocation") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_held_segment_no_event_reserved_shows_a_late_start) {
  auto t = small_program();
  BOOST_TEST(!unexplained_segment(t).has_value());
  t.segments.push_back(recorded_segment{base + 512 * mib, 2 * mib, 0, true, false, {}});
  BOOST_TEST((unexplained_segment(t) == std::optional<std::uint64_t>(base + 512 * mib)));
}

// small_program without its first two events, as a ring buffer that wrapped
// would keep it, with the segments the snapshot holds at its end.
device_trace late_program() {
  auto t = small_program();
  t.events.erase(t.events.begin(), t.events.begin() + 2);
  t.segments = {
      recorded_segment{base, 2 * mib, 0, true, false, {{base, 2 * mib, 0, block_state::inactive}}},
      recorded_segment{base + 64 * mib,
                       20 * mib,
                       0,
                       false,
                       false,
                       {{base + 64 * mib, 6 * mib, 6 * mib, block_state::active_allocated},
                        {base + 70 * mib, 4 * mib, 4 * mib, block_state::active_allocated},
                        {base + 74 * mib, 10 * mib, 0, block_state::inactive}}},
  };
  return t;
}

BOOST_AUTO_TEST_CASE(a_late_trace_starts_from_the_state_rewound_from_the_snapshot) {
  // Rewinding: the 4 MiB and 6 MiB blocks were allocated in the trace, the
  // 20 MiB segment reserved in it; the 1000-byte block freed in it was in
  // use at the start (a 1024-byte block), in the 2 MiB segment.
  const auto start = state_at_start(late_program(), iteragpu::memory::prediction::allocator_settings{});
  BOOST_TEST_REQUIRE(start.has_value());
  BOOST_TEST_REQUIRE(start->size() == 1U);
  BOOST_TEST((*start)[0].address == base);
  BOOST_TEST((*start)[0].small_pool);
  BOOST_TEST_REQUIRE((*start)[0].in_use.size() == 1U);
  BOOST_TEST((*start)[0].in_use[0].size.value == 1024U);
  replay_options o;
  o.follow_recorded_addresses = true;
  const auto outcome = replay(late_program(), o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(outcome->adopted_segments == 1U);
  BOOST_TEST(!outcome->divergence.has_value());
  BOOST_TEST(outcome->peak_allocated.value == 10 * mib);
  BOOST_TEST(outcome->peak_reserved.value == 22 * mib);
  const auto peaks = peaks_in(late_program().events, iteragpu::memory::prediction::allocator_settings{}, *start);
  BOOST_TEST(peaks.peak_allocated.value == 10 * mib);
  BOOST_TEST(peaks.peak_reserved.value == 22 * mib);
}

BOOST_AUTO_TEST_CASE(a_late_trace_that_does_not_fit_its_snapshot_is_refused) {
  auto t = late_program();
  t.segments.clear();  // the snapshot says nothing was held at the end
  const auto outcome = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(!outcome.has_value());
  BOOST_TEST((outcome.error().code == replay_errc::cannot_rebuild));
  BOOST_TEST(outcome.error().event == 4U);  // the last alloc, whose block the snapshot does not hold
  t = late_program();
  t.segments[1].expandable = true;
  BOOST_TEST((replay(t, replay_options{}).error().code == replay_errc::expandable_start));
}

BOOST_AUTO_TEST_CASE(a_late_trace_freeing_an_address_in_no_segment_is_refused_at_that_free) {
  // Events 2 and 3 free an address no event allocated and no segment of the
  // snapshot holds: the rewound block lies in none, named by its free.
  auto t = late_program();
  const std::uint64_t stray = base + 512 * mib;
  t.events[2].address = stray;
  t.events[3].address = stray;
  const auto outcome = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(!outcome.has_value());
  BOOST_TEST((outcome.error().code == replay_errc::cannot_rebuild));
  BOOST_TEST(outcome.error().event == 3U);
  BOOST_TEST(outcome.error().address == stray);
}

BOOST_AUTO_TEST_CASE(caught_out_of_memory_errors_are_counted) {
  auto t = small_program();
  t.events.insert(t.events.begin() + 3, ev(trace_action::oom, 1000, 64 * mib));
  const auto outcome = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(outcome->recorded_ooms == 1U);
}

// The small program with an out-of-memory error at its end that nothing
// survives: a request of 64 MiB refused, then only frees.
device_trace died_program() {
  auto t = small_program();
  t.events.push_back(ev(trace_action::oom, 1000, 64 * mib));
  t.events.push_back(ev(trace_action::free_requested, base + 64 * mib, 6 * mib));
  t.events.push_back(ev(trace_action::free_completed, base + 64 * mib, 6 * mib));
  return t;
}

BOOST_AUTO_TEST_CASE(a_refused_request_the_program_died_of_ends_the_replay_out_of_memory) {
  const auto t = died_program();
  replay_options o;
  o.capacity = byte_count{30 * mib};
  const auto outcome = replay(t, o);
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(outcome->recorded_ooms == 1U);
  BOOST_TEST_REQUIRE(outcome->recorded_death.has_value());
  BOOST_TEST(*outcome->recorded_death == 7U);
  // 22 MiB reserved; a 64 MiB segment would pass 30 MiB: refused, as recorded.
  BOOST_TEST_REQUIRE(outcome->oom.has_value());
  BOOST_TEST(outcome->oom->event == 7U);
  BOOST_TEST(outcome->oom->size.value == 64 * mib);
  BOOST_TEST(!outcome->past_recorded_death);
  BOOST_TEST(outcome->alloc_retries == 1U);
}

BOOST_AUTO_TEST_CASE(a_granted_request_the_program_died_of_gives_no_verdict) {
  const auto t = died_program();
  const auto outcome = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(outcome.has_value());
  BOOST_TEST(!outcome->oom.has_value());
  BOOST_TEST(outcome->past_recorded_death);
  // 22 MiB, then a 64 MiB segment for the request the program died of.
  BOOST_TEST(outcome->peak_reserved.value == 86 * mib);
  BOOST_TEST(outcome->peak_allocated.value == 74 * mib);
  const auto smallest = smallest_capacity(t, replay_options{});
  BOOST_TEST_REQUIRE(!smallest.has_value());
  BOOST_TEST((smallest.error().code == replay_errc::ends_where_program_died));
  BOOST_TEST(smallest.error().event == 7U);
  // The self-check replays the trace as recorded: the refusal is not made again.
  replay_options check;
  check.follow_recorded_addresses = true;
  const auto self = replay(t, check);
  BOOST_TEST_REQUIRE(self.has_value());
  BOOST_TEST(!self->past_recorded_death);
  BOOST_TEST(self->peak_reserved.value == 22 * mib);
  BOOST_TEST(!self->divergence.has_value());
}

BOOST_AUTO_TEST_CASE(a_refused_request_the_program_caught_is_refused_again_and_the_replay_goes_on) {
  auto t = small_program();
  // Before the 20 MiB segment: a 64 MiB request refused, then allocations follow.
  t.events.insert(t.events.begin() + 2, ev(trace_action::oom, 1000, 64 * mib));
  replay_options o;
  o.capacity = byte_count{30 * mib};
  const auto capped = replay(t, o);
  BOOST_TEST_REQUIRE(capped.has_value());
  BOOST_TEST(!capped->recorded_death.has_value());
  BOOST_TEST(!capped->oom.has_value());
  BOOST_TEST(!capped->past_recorded_death);
  BOOST_TEST(capped->peak_reserved.value == 22 * mib);
  BOOST_TEST(capped->peak_allocated.value == 10 * mib);
  BOOST_TEST(capped->alloc_retries == 1U);
  // With no capacity the request is granted, used as a scratch buffer and freed:
  // 2 MiB + 64 MiB, then the 6 MiB and 4 MiB blocks are cut from the cached 64 MiB block.
  const auto free = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(free.has_value());
  BOOST_TEST(free->peak_reserved.value == 66 * mib);
  BOOST_TEST(free->peak_allocated.value == 64 * mib + 1024U);
}

// Two 2 MiB segments, the second placed below the first by the driver; a tie
// between two free 1 MiB blocks goes to the lower address, which decides
// whether emptyCache releases the upper segment (as recorded) or nothing.
device_trace tie_program() {
  device_trace t;
  const std::uint64_t high = base + 64 * mib;
  t.events = {
      ev(trace_action::segment_alloc, high, 2 * mib),               // 0
      ev(trace_action::alloc, high, 1 * mib),                       // 1 a
      ev(trace_action::alloc, high + mib, 1 * mib),                 // 2 b
      ev(trace_action::segment_alloc, base, 2 * mib),               // 3
      ev(trace_action::alloc, base, 1 * mib),                       // 4 c
      ev(trace_action::free_completed, high, 1 * mib),              // 5 a freed
      ev(trace_action::alloc, base + mib, 1 * mib),                 // 6 d: the tie, the lower block
      ev(trace_action::free_completed, high + mib, 1 * mib),        // 7 b freed: the upper segment is whole and free
      ev(trace_action::segment_free, high, 2 * mib),                // 8 emptyCache
      ev(trace_action::segment_alloc, base + 128 * mib, 20 * mib),  // 9
      ev(trace_action::alloc, base + 128 * mib, 6 * mib),           // 10
  };
  return t;
}

BOOST_AUTO_TEST_CASE(under_its_recorded_settings_a_prediction_places_segments_where_the_trace_did) {
  const auto t = tie_program();
  replay_options check;
  check.follow_recorded_addresses = true;
  const auto self = replay(t, check);
  BOOST_TEST_REQUIRE(self.has_value());
  BOOST_TEST(!self->divergence.has_value());
  // 4 MiB, then 2 MiB after emptyCache, then 2 + 20 MiB.
  BOOST_TEST(self->peak_reserved.value == 22 * mib);
  const auto predicted = replay(t, replay_options{});
  BOOST_TEST_REQUIRE(predicted.has_value());
  // One answer: placed above each other in order, the two segments would tie
  // the other way, emptyCache would release nothing and the peak be 24 MiB.
  BOOST_TEST(predicted->peak_reserved.value == self->peak_reserved.value);
  BOOST_TEST(predicted->peak_allocated.value == self->peak_allocated.value);
  BOOST_TEST(predicted->cache_releases == 1U);
}

BOOST_AUTO_TEST_CASE(the_peaks_the_trace_shows_count_blocks_rounded_to_512_bytes) {
  const auto peaks = peaks_in(small_program().events, iteragpu::memory::prediction::allocator_settings{});
  BOOST_TEST(peaks.peak_reserved.value == 22 * mib);
  BOOST_TEST(peaks.peak_allocated.value == 10 * mib);
}

BOOST_AUTO_TEST_CASE(the_json_of_a_study_is_valid_utf8_whatever_bytes_its_names_hold) {
  // A file name with the byte 0xFF, a recorded setting with a lone
  // continuation byte: each such byte becomes U+FFFD.
  study_request request;
  request.settings.push_back({"", iteragpu::memory::prediction::allocator_settings{}});
  const auto s = run_study(small_program(), iteragpu::memory::prediction::allocator_settings{}, request);
  BOOST_TEST_REQUIRE(s.has_value());
  iteragpu::report::replay_context c{"t\xFF.pickle", 0, true, "expandable_segments:False\x80", false, std::nullopt,
                                     byte_count{0}};
  const auto json = iteragpu::report::to_json(*s, c);
  BOOST_TEST(json.at("file").as_string() == "t\xEF\xBF\xBD.pickle");
  BOOST_TEST(json.at("recorded_alloc_conf").as_string() == "expandable_segments:False\xEF\xBF\xBD");
  // The serialized text parses back: it is valid UTF-8 throughout.
  boost::json::error_code error;
  static_cast<void>(boost::json::parse(boost::json::serialize(json), error));
  BOOST_TEST(!error, error.message());
}

BOOST_AUTO_TEST_CASE(a_study_gives_each_setting_its_need) {
  study_request request;
  request.settings.push_back({"", iteragpu::memory::prediction::allocator_settings{}});
  request.smallest_capacity = true;
  request.outside = byte_count{1000};
  const auto s = run_study(small_program(), iteragpu::memory::prediction::allocator_settings{}, request);
  BOOST_TEST_REQUIRE(s.has_value());
  BOOST_TEST(!s->self_check.divergence.has_value());
  BOOST_TEST_REQUIRE(s->settings.size() == 1U);
  BOOST_TEST((s->settings[0].smallest_capacity == std::optional(byte_count{22 * mib})));
  BOOST_TEST((s->settings[0].memory_need == std::optional(byte_count{22 * mib + 1000})));
  iteragpu::report::replay_context c{"t.pickle", 0, true, "", true, std::nullopt, byte_count{1000}};
  const auto json = iteragpu::report::to_json(*s, c);
  BOOST_TEST(json.at("memory_need").at("bytes").to_number<std::uint64_t>() == 22 * mib + 1000);
  BOOST_TEST(json.at("settings").at(0).at("smallest_capacity_bytes").to_number<std::uint64_t>() == 22 * mib);
  BOOST_TEST(json.at("settings").at(0).at("capacity_bytes").is_null());
  BOOST_TEST(json.at("self_check").at("passed").as_bool());
}

BOOST_AUTO_TEST_SUITE_END()
