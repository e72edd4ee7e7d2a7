// The simulated allocator's values on their own: a request rounded to its
// block, its pool, the segment it reserves and whether the rest of a larger
// block is split off, as c10/cuda/CUDACachingAllocator.cpp decides
// (round_size, get_pool, get_allocation_size, should_split), worked out by
// hand; and the values compare member by member.
#include <iteragpu/memory/prediction/allocator_values.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace {

using iteragpu::byte_count;
using iteragpu::memory::prediction::allocation_errc;
using iteragpu::memory::prediction::block_size;
using iteragpu::memory::prediction::pool_kind;
using iteragpu::memory::prediction::segment_action;
using iteragpu::memory::prediction::segment_event;

constexpr std::uint64_t MiB = std::uint64_t{1} << 20U;

constexpr block_size sized(std::uint64_t request) { return block_size::for_request(byte_count{request}).value(); }

// round_size: at least 512, a multiple of 512.
static_assert(sized(1).bytes().value == 512);
static_assert(sized(512).bytes().value == 512);
static_assert(sized(513).bytes().value == 1024);
// get_pool: at most 1 MiB in the small pool.
static_assert(sized(MiB).pool() == pool_kind::small);
static_assert(sized(MiB + 1).pool() == pool_kind::large);
// get_allocation_size: 2 MiB, 20 MiB under 10 MiB, else rounded up to 2 MiB.
static_assert(sized(MiB).segment_size().value == 2 * MiB);
static_assert(sized(10 * MiB - 513).segment_size().value == 20 * MiB);
static_assert(sized(10 * MiB - 1).segment_size().value == 10 * MiB);
static_assert(sized(10 * MiB + 1).segment_size().value == 12 * MiB);
// should_split: a small rest of 512 bytes, a large rest of more than 1 MiB.
static_assert(sized(512).splits(byte_count{1024}) && !sized(512).splits(byte_count{1023}));
static_assert(!sized(2 * MiB).splits(byte_count{3 * MiB}) && sized(2 * MiB).splits(byte_count{3 * MiB + 512}));

}  // namespace

BOOST_AUTO_TEST_SUITE(allocator_values)

// NativeCachingAllocator::allocate refuses 1 EiB or more before any search.
BOOST_AUTO_TEST_CASE(a_request_of_one_exbibyte_is_refused_before_rounding) {
  const auto refused = block_size::for_request(byte_count{std::uint64_t{1} << 60U});
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST((refused.error() == allocation_errc::request_too_large));
  BOOST_TEST(block_size::for_request(byte_count{(std::uint64_t{1} << 60U) - 1}).has_value());
}

// A segment event is equal to another when every field is.
BOOST_AUTO_TEST_CASE(segment_events_compare_every_field) {
  const segment_event a{segment_action::segment_map, 4096, byte_count{20 * MiB}, 0};
  segment_event b = a;
  BOOST_TEST((a == b));
  b.stream = 7;
  BOOST_TEST(!(a == b));
}

BOOST_AUTO_TEST_SUITE_END()
