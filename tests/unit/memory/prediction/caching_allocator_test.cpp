// The simulated caching allocator, rule by rule: each case builds the state
// that one rule of c10/cuda/CUDACachingAllocator.cpp decides, and checks the
// counters and the segments' layout against values worked out by hand.
#include <iteragpu/memory/prediction/caching_allocator.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include <boost/test/unit_test.hpp>

// Found by argument-dependent lookup, so that a failed comparison prints
// both sides.
namespace iteragpu::memory::prediction {
std::ostream& operator<<(std::ostream& out, const allocator_statistics& s) {
  return out << "{allocated " << s.allocated.value << ", reserved " << s.reserved.value << ", peak allocated "
             << s.peak_allocated.value << ", peak reserved " << s.peak_reserved.value << "}";
}
}  // namespace iteragpu::memory::prediction

namespace {

using iteragpu::byte_count;
using iteragpu::memory::prediction::allocation_errc;
using iteragpu::memory::prediction::allocator_statistics;
using iteragpu::memory::prediction::block_handle;
using iteragpu::memory::prediction::block_view;
using iteragpu::memory::prediction::caching_allocator;
using iteragpu::memory::prediction::free_errc;
using iteragpu::memory::prediction::pool_kind;

constexpr std::uint64_t MiB = std::uint64_t{1} << 20U;

byte_count bytes(std::uint64_t n) { return byte_count{n}; }

block_handle take(caching_allocator& a, std::uint64_t request) {
  const auto block = a.allocate(bytes(request));
  BOOST_REQUIRE(block.has_value());
  return *block;
}

void give_back(caching_allocator& a, block_handle block) { BOOST_REQUIRE(a.free(block).has_value()); }

allocator_statistics stats(std::uint64_t allocated, std::uint64_t reserved, std::uint64_t peak_allocated,
                           std::uint64_t peak_reserved) {
  return {bytes(allocated), bytes(reserved), bytes(peak_allocated), bytes(peak_reserved)};
}

// The sizes and states of one segment's blocks, in address order.
std::vector<std::uint64_t> block_sizes(const caching_allocator& a, std::size_t segment) {
  const auto segments = a.segments();
  std::vector<std::uint64_t> sizes;
  for (const block_view& b : segments.at(segment).blocks) {
    sizes.push_back(b.size.value);
  }
  return sizes;
}

std::vector<bool> block_states(const caching_allocator& a, std::size_t segment) {
  const auto segments = a.segments();
  std::vector<bool> states;
  for (const block_view& b : segments.at(segment).blocks) {
    states.push_back(b.allocated);
  }
  return states;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(caching_allocator_rules)

// round_size: max(512, the request rounded up to a multiple of 512). Each
// small request opens one 2 MiB small segment.
BOOST_AUTO_TEST_CASE(a_request_is_rounded_up_to_a_multiple_of_512_bytes_and_never_below_512) {
  struct rounding {
    std::uint64_t request;
    std::uint64_t block;
  };
  for (const rounding r : {rounding{1, 512}, rounding{511, 512}, rounding{512, 512}, rounding{513, 1024},
                           rounding{1000, 1024}, rounding{1025, 1536}}) {
    caching_allocator a;
    static_cast<void>(take(a, r.request));
    BOOST_TEST(a.statistics() == stats(r.block, 2 * MiB, r.block, 2 * MiB));
  }
}

BOOST_AUTO_TEST_CASE(a_zero_byte_request_touches_nothing_and_its_empty_handle_frees_nothing) {
  caching_allocator a;
  const block_handle empty = take(a, 0);
  BOOST_TEST(empty.address == 0U);
  BOOST_TEST(a.statistics() == stats(0, 0, 0, 0));
  BOOST_TEST(a.segments().empty());
  BOOST_TEST(a.free(empty).has_value());
  BOOST_TEST(a.statistics() == stats(0, 0, 0, 0));
}

// get_pool and get_allocation_size: a block of at most 1 MiB (1,048,576)
// goes to the small pool and a 2 MiB segment; 1 MiB + 1 rounds to
// 1,049,088, large, under 10 MiB: a 20 MiB segment, split since the rest,
// 20,971,520 - 1,049,088 = 19,922,432, is more than 1 MiB.
BOOST_AUTO_TEST_CASE(one_mebibyte_goes_to_the_small_pool_and_one_byte_more_to_the_large_pool) {
  caching_allocator small;
  static_cast<void>(take(small, MiB));
  BOOST_TEST(small.statistics() == stats(MiB, 2 * MiB, MiB, 2 * MiB));
  BOOST_TEST((small.segments().at(0).pool == pool_kind::small));
  BOOST_TEST(block_sizes(small, 0) == (std::vector<std::uint64_t>{MiB, MiB}), boost::test_tools::per_element());

  caching_allocator large;
  static_cast<void>(take(large, MiB + 1));
  BOOST_TEST(large.statistics() == stats(1'049'088, 20 * MiB, 1'049'088, 20 * MiB));
  BOOST_TEST((large.segments().at(0).pool == pool_kind::large));
  BOOST_TEST(block_sizes(large, 0) == (std::vector<std::uint64_t>{1'049'088, 19'922'432}),
             boost::test_tools::per_element());
}

// get_allocation_size for large blocks: under 10 MiB (10,485,760) a shared
// 20 MiB segment, from 10 MiB on the block rounded up to 2 MiB.
// 10 MiB - 1 rounds to 10 MiB itself, so it gets a segment of its own.
BOOST_AUTO_TEST_CASE(ten_mebibytes_less_one_byte_rounds_to_ten_and_gets_its_own_segment) {
  caching_allocator a;
  static_cast<void>(take(a, 10 * MiB - 1));
  BOOST_TEST(a.statistics() == stats(10 * MiB, 10 * MiB, 10 * MiB, 10 * MiB));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{10 * MiB}), boost::test_tools::per_element());
}

// 10 MiB - 512 stays under 10 MiB: a 20 MiB segment, the rest 10 MiB + 512
// split off.
BOOST_AUTO_TEST_CASE(a_block_just_under_ten_mebibytes_shares_a_twenty_mebibyte_segment) {
  caching_allocator a;
  static_cast<void>(take(a, 10 * MiB - 512));
  BOOST_TEST(a.statistics() == stats(10 * MiB - 512, 20 * MiB, 10 * MiB - 512, 20 * MiB));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{10 * MiB - 512, 10 * MiB + 512}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(exactly_ten_mebibytes_gets_a_segment_of_exactly_its_size) {
  caching_allocator a;
  static_cast<void>(take(a, 10 * MiB));
  BOOST_TEST(a.statistics() == stats(10 * MiB, 10 * MiB, 10 * MiB, 10 * MiB));
}

// 10 MiB + 1 rounds to 10,486,272; its segment is rounded up to 2 MiB:
// 12 MiB (12,582,912); the rest, 2,096,640, is more than 1 MiB: split.
BOOST_AUTO_TEST_CASE(a_block_just_over_ten_mebibytes_gets_its_size_rounded_up_to_two_mebibytes) {
  caching_allocator a;
  static_cast<void>(take(a, 10 * MiB + 1));
  BOOST_TEST(a.statistics() == stats(10'486'272, 12 * MiB, 10'486'272, 12 * MiB));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{10'486'272, 2'096'640}),
             boost::test_tools::per_element());
}

// should_split, large pool: a rest of exactly 1 MiB is not split off, so
// the whole block is handed out and counted: 11 MiB takes a 12 MiB
// segment and allocated reads 12 MiB; 19 MiB takes all of a 20 MiB one.
BOOST_AUTO_TEST_CASE(a_large_block_whose_rest_is_one_mebibyte_is_handed_out_whole) {
  caching_allocator eleven;
  static_cast<void>(take(eleven, 11 * MiB));
  BOOST_TEST(eleven.statistics() == stats(12 * MiB, 12 * MiB, 12 * MiB, 12 * MiB));
  BOOST_TEST(block_sizes(eleven, 0) == (std::vector<std::uint64_t>{12 * MiB}), boost::test_tools::per_element());

  caching_allocator nineteen;
  static_cast<void>(take(nineteen, 19 * MiB));
  BOOST_TEST(nineteen.statistics() == stats(20 * MiB, 20 * MiB, 20 * MiB, 20 * MiB));
}

// ... and a rest of 1 MiB + 512 is: 19 MiB - 512 leaves 1,049,088.
BOOST_AUTO_TEST_CASE(a_large_block_whose_rest_passes_one_mebibyte_is_split) {
  caching_allocator a;
  static_cast<void>(take(a, 19 * MiB - 512));
  BOOST_TEST(a.statistics() == stats(19 * MiB - 512, 20 * MiB, 19 * MiB - 512, 20 * MiB));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{19 * MiB - 512, MiB + 512}),
             boost::test_tools::per_element());
}

// should_split, small pool: any rest of 512 bytes or more is split off.
// 1 MiB, then 1 MiB - 512 from the 1 MiB rest leaves 512 bytes, split off;
// a 512-byte request then fits that rest exactly, with no new segment.
BOOST_AUTO_TEST_CASE(a_small_block_is_split_when_512_bytes_or_more_remain) {
  caching_allocator a;
  static_cast<void>(take(a, MiB));
  static_cast<void>(take(a, MiB - 512));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{MiB, MiB - 512, 512}), boost::test_tools::per_element());
  BOOST_TEST(block_states(a, 0) == (std::vector<bool>{true, true, false}), boost::test_tools::per_element());
  static_cast<void>(take(a, 1));
  BOOST_TEST(block_states(a, 0) == (std::vector<bool>{true, true, true}), boost::test_tools::per_element());
  BOOST_TEST(a.statistics() == stats(2 * MiB, 2 * MiB, 2 * MiB, 2 * MiB));
}

// get_free_block: the smallest free block that fits, not the first or the
// largest. Three segments of their own, 16, 12 and 14 MiB, all freed: a
// 13 MiB request takes the 14 MiB block whole (a rest of 1 MiB is not
// split off), a 12 MiB one the 12 MiB block, and nothing new is reserved.
BOOST_AUTO_TEST_CASE(the_smallest_cached_block_that_fits_is_chosen) {
  caching_allocator a;
  const block_handle sixteen = take(a, 16 * MiB);
  const block_handle twelve = take(a, 12 * MiB);
  const block_handle fourteen = take(a, 14 * MiB);
  give_back(a, sixteen);
  give_back(a, twelve);
  give_back(a, fourteen);
  BOOST_TEST(a.statistics() == stats(0, 42 * MiB, 42 * MiB, 42 * MiB));

  BOOST_TEST(take(a, 13 * MiB).address == fourteen.address);
  BOOST_TEST(take(a, 12 * MiB).address == twelve.address);
  BOOST_TEST(a.statistics() == stats(26 * MiB, 42 * MiB, 42 * MiB, 42 * MiB));
}

// Between two free blocks of the same size, the lower address: the newer
// segment's where its chunk of address space lies below the older one's,
// as the CUDA driver hands out chunks downward (PyTorch 2.11 on an H100
// chose so in every run of the oracle corpus where it mattered). Segments of
// 30 MiB take a chunk of 32 each, one below the other.
BOOST_AUTO_TEST_CASE(between_equal_free_blocks_the_newer_segment_lower_in_memory_is_chosen) {
  caching_allocator a;
  const block_handle first = take(a, 30 * MiB);
  const block_handle second = take(a, 30 * MiB);
  BOOST_TEST(second.address + 32 * MiB == first.address);
  give_back(a, first);
  give_back(a, second);
  BOOST_TEST(take(a, 30 * MiB).address == second.address);
  BOOST_TEST(take(a, 30 * MiB).address == first.address);
}

// A small request never takes a large block, nor a large request a small
// one: 1 KiB after a freed 12 MiB block opens a 2 MiB small segment.
BOOST_AUTO_TEST_CASE(the_two_pools_do_not_lend_to_each_other) {
  caching_allocator a;
  give_back(a, take(a, 12 * MiB));
  static_cast<void>(take(a, 1024));
  BOOST_TEST(a.statistics() == stats(1024, 14 * MiB, 12 * MiB, 14 * MiB));
  BOOST_TEST(a.segments().size() == 2U);
}

// free_block and try_merge_blocks. Three 2 MiB blocks cut from one 20 MiB
// segment: x [0, 2), y [2, 4), z [4, 6), the rest [6, 20) free.
BOOST_AUTO_TEST_CASE(a_freed_block_merges_with_its_free_neighbours_of_the_same_segment) {
  caching_allocator a;
  const block_handle x = take(a, 2 * MiB);
  const block_handle y = take(a, 2 * MiB);
  const block_handle z = take(a, 2 * MiB);
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{2 * MiB, 2 * MiB, 2 * MiB, 14 * MiB}),
             boost::test_tools::per_element());

  // y has no free neighbour: it stays a block of its own.
  give_back(a, y);
  BOOST_TEST(block_states(a, 0) == (std::vector<bool>{true, false, true, false}), boost::test_tools::per_element());
  // x merges with y after it.
  give_back(a, x);
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{4 * MiB, 2 * MiB, 14 * MiB}),
             boost::test_tools::per_element());
  // The merged 4 MiB block is the best fit for 4 MiB (not the 14 MiB rest).
  const block_handle four = take(a, 4 * MiB);
  BOOST_TEST(four.address == x.address);
  give_back(a, four);
  // z merges with both sides: the segment is one free block again, still reserved.
  give_back(a, z);
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{20 * MiB}), boost::test_tools::per_element());
  BOOST_TEST(a.statistics() == stats(0, 20 * MiB, 6 * MiB, 20 * MiB));
}

// Blocks of two segments that happen to be adjacent in the simulated
// address space never merge: each segment stays whole.
BOOST_AUTO_TEST_CASE(free_blocks_of_neighbouring_segments_do_not_merge) {
  caching_allocator a;
  const block_handle first = take(a, 12 * MiB);
  const block_handle second = take(a, 12 * MiB);
  give_back(a, first);
  give_back(a, second);
  BOOST_TEST(a.segments().size() == 2U);
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{12 * MiB}), boost::test_tools::per_element());
  BOOST_TEST(block_sizes(a, 1) == (std::vector<std::uint64_t>{12 * MiB}), boost::test_tools::per_element());
}

// resetPeakStats: each peak becomes its current value.
BOOST_AUTO_TEST_CASE(a_peak_reset_sets_each_peak_to_its_current_value) {
  caching_allocator a;
  static_cast<void>(take(a, MiB));
  const block_handle big = take(a, 16 * MiB);
  give_back(a, big);
  BOOST_TEST(a.statistics() == stats(MiB, 18 * MiB, 17 * MiB, 18 * MiB));
  a.reset_peaks();
  BOOST_TEST(a.statistics() == stats(MiB, 18 * MiB, MiB, 18 * MiB));
  // A new peak below the old one is read as such: 4 MiB is cut from the
  // cached 16 MiB block, nothing new is reserved.
  give_back(a, take(a, 4 * MiB));
  BOOST_TEST(a.statistics() == stats(MiB, 18 * MiB, 5 * MiB, 18 * MiB));
}

// Out of memory with nothing cached to release: with a capacity of
// 20 MiB, a 16 MiB segment is reserved; 8 MiB needs a 20 MiB segment,
// 16 + 20 > 20, and no cached segment is free: the request fails and
// nothing changes.
BOOST_AUTO_TEST_CASE(a_new_segment_past_the_capacity_fails_when_nothing_is_cached) {
  caching_allocator a(bytes(20 * MiB));
  static_cast<void>(take(a, 16 * MiB));
  const auto failed = a.allocate(bytes(8 * MiB));
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == allocation_errc::out_of_memory));
  BOOST_TEST(failed.error().requested.value == 8 * MiB);
  BOOST_TEST(failed.error().segment.value == 20 * MiB);
  BOOST_TEST(failed.error().allocated.value == 16 * MiB);
  BOOST_TEST(failed.error().reserved.value == 16 * MiB);
  BOOST_TEST(failed.error().capacity.value().value == 20 * MiB);
  BOOST_TEST(a.statistics() == stats(16 * MiB, 16 * MiB, 16 * MiB, 16 * MiB));
}

// Out of memory, then release_cached_blocks: with a capacity of 32 MiB,
// segments of 16 and 12 MiB (28 reserved), the 16 MiB one freed. 20 MiB
// fits in no cached block and 28 + 20 > 32; the free 16 MiB segment is
// released (12 reserved) and the retry fits exactly: 12 + 20 = 32.
BOOST_AUTO_TEST_CASE(cached_free_segments_are_released_and_the_reservation_retried) {
  caching_allocator a(bytes(32 * MiB));
  const block_handle sixteen = take(a, 16 * MiB);
  static_cast<void>(take(a, 12 * MiB));
  give_back(a, sixteen);
  static_cast<void>(take(a, 20 * MiB));
  BOOST_TEST(a.statistics() == stats(32 * MiB, 32 * MiB, 32 * MiB, 32 * MiB));
  BOOST_TEST(a.segments().size() == 2U);
}

// A segment with any block in use is not released: a 2 MiB block holds its
// 20 MiB segment; 30 MiB needs 20 + 30 > 40: nothing can be released, the
// request fails, and the 18 MiB free rest stays reserved.
BOOST_AUTO_TEST_CASE(a_partly_used_segment_is_not_released) {
  caching_allocator a(bytes(40 * MiB));
  static_cast<void>(take(a, 2 * MiB));
  const auto failed = a.allocate(bytes(30 * MiB));
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST(failed.error().reserved.value == 20 * MiB);
  BOOST_TEST(a.statistics() == stats(2 * MiB, 20 * MiB, 2 * MiB, 20 * MiB));
}

// Cached small segments are released too, and stay released when the
// retry still fails: a freed 2 MiB small segment, then 3 MiB (a 20 MiB
// segment) on a 4 MiB device: the small segment goes, 0 + 20 > 4 still.
BOOST_AUTO_TEST_CASE(released_segments_stay_released_when_the_retry_fails) {
  caching_allocator a(bytes(4 * MiB));
  give_back(a, take(a, 1024));
  const auto failed = a.allocate(bytes(3 * MiB));
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST(failed.error().reserved.value == 0U);
  BOOST_TEST(a.statistics() == stats(0, 0, 1024, 2 * MiB));
  BOOST_TEST(a.segments().empty());
}

// The capacity is inclusive: a segment that fills it exactly fits.
BOOST_AUTO_TEST_CASE(a_segment_that_fills_the_capacity_exactly_fits) {
  caching_allocator a(bytes(2 * MiB));
  static_cast<void>(take(a, 1));
  BOOST_TEST(!a.allocate(bytes(MiB + 1)).has_value());
  BOOST_TEST(a.statistics() == stats(512, 2 * MiB, 512, 2 * MiB));
}

// NativeCachingAllocator::allocate refuses 1 EiB (2^60 bytes) and more
// before any search; 2^60 - 1 rounds to 2^60 and, on a device without a
// capacity, is reserved as one segment.
BOOST_AUTO_TEST_CASE(a_request_of_one_exbibyte_or_more_is_refused) {
  const std::uint64_t exbibyte = std::uint64_t{1} << 60U;
  caching_allocator a;
  for (const std::uint64_t request : {exbibyte, exbibyte + 1, ~std::uint64_t{0}}) {
    const auto refused = a.allocate(bytes(request));
    BOOST_REQUIRE(!refused.has_value());
    BOOST_TEST((refused.error().code == allocation_errc::request_too_large));
    BOOST_TEST(refused.error().requested.value == request);
  }
  BOOST_TEST(a.statistics() == stats(0, 0, 0, 0));
  static_cast<void>(take(a, exbibyte - 1));
  BOOST_TEST(a.statistics() == stats(exbibyte, exbibyte, exbibyte, exbibyte));
}

// The simulated address space (and the reserved counter) is 64 bits: the
// segments start at 2 MiB, so fifteen 2^60-byte segments (requests of
// 2^60 - 1) fit below 2^64 and the sixteenth fails instead of wrapping.
BOOST_AUTO_TEST_CASE(segments_past_the_sixty_four_bit_address_space_fail_instead_of_wrapping) {
  const std::uint64_t exbibyte = std::uint64_t{1} << 60U;
  caching_allocator a;
  for (int i = 0; i < 15; ++i) {
    static_cast<void>(take(a, exbibyte - 1));
  }
  const auto failed = a.allocate(bytes(exbibyte - 1));
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == allocation_errc::out_of_memory));
  BOOST_TEST(a.statistics().reserved.value == 15 * exbibyte);
}

BOOST_AUTO_TEST_CASE(freeing_a_block_not_in_use_is_refused) {
  caching_allocator a;
  const block_handle block = take(a, 4096);
  // An address where no block starts, one inside the block, a double free.
  BOOST_TEST((a.free(block_handle{12345}).error() == free_errc::not_allocated));
  BOOST_TEST((a.free(block_handle{block.address + 512}).error() == free_errc::not_allocated));
  give_back(a, block);
  BOOST_TEST((a.free(block).error() == free_errc::not_allocated));
  BOOST_TEST(a.statistics() == stats(0, 2 * MiB, 4096, 2 * MiB));
}

BOOST_AUTO_TEST_CASE(a_request_that_would_release_the_cache_is_told_without_changing_anything) {
  caching_allocator a(bytes(30 * MiB));
  take(a, 6 * MiB);  // a 20 MiB segment, 14 MiB of it cached
  // 4 MiB: cut from the cached 14 MiB.
  BOOST_TEST(!a.would_release_for(bytes(4 * MiB)));
  // 16 MiB: no cached block holds it, and a 16 MiB segment passes 30 MiB.
  BOOST_TEST(a.would_release_for(bytes(16 * MiB)));
  // 8 MiB on another stream: no block of its own, and 20 + 20 MiB pass 30 MiB.
  BOOST_TEST(a.would_release_for(bytes(8 * MiB), 7));
  BOOST_TEST(a.statistics() == stats(6 * MiB, 20 * MiB, 6 * MiB, 20 * MiB));
  BOOST_TEST(a.segment_events().size() == 1U);
  caching_allocator unlimited;
  take(unlimited, 6 * MiB);
  BOOST_TEST(!unlimited.would_release_for(bytes(16 * MiB)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(adopting_a_segment)

using iteragpu::memory::prediction::adopt_errc;

// A segment held where a trace begins: its blocks in use count in allocated,
// the rest is cached and merged (a 2 MiB small segment with a 512-byte block
// in use at 1 KiB: free [0, 1 KiB) and [1.5 KiB, 2 MiB)); reserved counts
// the segment, and no segment event is made.
BOOST_AUTO_TEST_CASE(a_segment_held_where_a_trace_begins_is_taken_over) {
  caching_allocator a;
  constexpr std::uint64_t at = std::uint64_t{1} << 40U;
  const std::vector<block_view> in_use{{at + 1024, bytes(512), true}};
  BOOST_TEST(a.adopt_segment(at, bytes(2 * MiB), 0, pool_kind::small, in_use).has_value());
  BOOST_TEST(a.statistics() == stats(512, 2 * MiB, 512, 2 * MiB));
  BOOST_TEST(block_sizes(a, 0) == (std::vector<std::uint64_t>{1024, 512, 2 * MiB - 1536}),
             boost::test_tools::per_element());
  BOOST_TEST(a.segment_events().empty());
  BOOST_TEST(a.allocate(bytes(1000)).value().address == at);  // the lower free block of 1 KiB
}

// Refused, with nothing changed: an empty segment, one over a segment
// held, a block outside it or before the end of the one before, an empty block.
BOOST_AUTO_TEST_CASE(a_segment_that_cannot_be_held_is_refused_with_its_reason) {
  caching_allocator a;
  constexpr std::uint64_t at = std::uint64_t{1} << 40U;
  const auto adopt = [&](std::uint64_t address, std::uint64_t size, std::vector<block_view> blocks) {
    return a.adopt_segment(address, bytes(size), 0, pool_kind::large, blocks);
  };
  BOOST_TEST((adopt(0, 20 * MiB, {}).error() == adopt_errc::empty_segment));
  BOOST_TEST((adopt(at, 0, {}).error() == adopt_errc::empty_segment));
  BOOST_TEST((adopt(at, 20 * MiB, {{at + 19 * MiB, bytes(2 * MiB), true}}).error() == adopt_errc::block_outside));
  BOOST_TEST((adopt(at, 20 * MiB, {{at + MiB, bytes(MiB), true}, {at + MiB, bytes(MiB), true}}).error() ==
              adopt_errc::block_outside));
  BOOST_TEST((adopt(at, 20 * MiB, {{at, bytes(0), true}}).error() == adopt_errc::empty_block));
  BOOST_TEST(a.statistics() == stats(0, 0, 0, 0));
  BOOST_TEST(adopt(at, 20 * MiB, {}).has_value());
  BOOST_TEST((adopt(at + 10 * MiB, 20 * MiB, {}).error() == adopt_errc::overlaps));
  BOOST_TEST(a.statistics() == stats(0, 20 * MiB, 0, 20 * MiB));
}

BOOST_AUTO_TEST_SUITE_END()
