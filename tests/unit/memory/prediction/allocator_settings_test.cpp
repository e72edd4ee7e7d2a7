// The allocator's settings: PYTORCH_CUDA_ALLOC_CONF read as PyTorch reads it,
// and each setting's rule in the simulated allocator, checked around its
// threshold against values worked out by hand from
// c10/cuda/CUDACachingAllocator.cpp (the arithmetic is in the comments).
#include <iteragpu/memory/prediction/allocator_settings.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/prediction/caching_allocator.hpp>
#include <iteragpu/report/alloc_conf_errors.hpp>

// Found by argument-dependent lookup, so that a failed comparison prints
// both sides.
namespace iteragpu::memory::prediction {
std::ostream& operator<<(std::ostream& out, alloc_conf_errc c) { return out << static_cast<int>(c); }
std::ostream& operator<<(std::ostream& out, const alloc_conf_error& e) {
  return out << "{code " << e.code << ", key '" << e.key << "', value '" << e.value << "'}";
}
std::ostream& operator<<(std::ostream& out, segment_action a) { return out << static_cast<int>(a); }
std::ostream& operator<<(std::ostream& out, const segment_event& e) {
  return out << "{action " << e.action << ", address " << e.address << ", size " << e.size.value << ", stream "
             << e.stream << "}";
}
}  // namespace iteragpu::memory::prediction

namespace {

using iteragpu::byte_count;
using iteragpu::memory::prediction::alloc_conf_error;
using iteragpu::memory::prediction::alloc_conf_errc;
using iteragpu::memory::prediction::allocation_errc;
using iteragpu::memory::prediction::allocator_counters;
using settings_type = iteragpu::memory::prediction::allocator_settings;
using iteragpu::memory::prediction::block_handle;
using iteragpu::memory::prediction::block_size;
using iteragpu::memory::prediction::caching_allocator;
using iteragpu::memory::prediction::h200_device_memory;
using iteragpu::memory::prediction::parse_alloc_conf;
using iteragpu::memory::prediction::segment_action;
using iteragpu::memory::prediction::segment_event;

constexpr std::uint64_t MiB = std::uint64_t{1} << 20U;
// The simulation places segments as the CUDA driver does, downward, in
// chunks of whole 32 MiB: the first chunk ends at 2^47, each new one ends
// where the lowest one held starts (detail/device_addresses.hpp).
constexpr std::uint64_t top = std::uint64_t{1} << 47U;

settings_type settings(std::string_view text) {
  const auto parsed = parse_alloc_conf(text);
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), "refused: " << text);
  return *parsed;
}

alloc_conf_error refusal(std::string_view text) {
  const auto parsed = parse_alloc_conf(text);
  BOOST_REQUIRE_MESSAGE(!parsed.has_value(), "accepted: " << text);
  return parsed.error();
}

block_handle take(caching_allocator& a, std::uint64_t request, std::uint64_t stream = 0) {
  const auto block = a.allocate(byte_count{request}, stream);
  BOOST_REQUIRE(block.has_value());
  return *block;
}

void give_back(caching_allocator& a, block_handle block) { BOOST_REQUIRE(a.free(block).has_value()); }

std::uint64_t reserved(const caching_allocator& a) { return a.statistics().reserved.value; }
std::uint64_t allocated(const caching_allocator& a) { return a.statistics().allocated.value; }

std::uint64_t rounded(std::uint64_t request, const settings_type& s) {
  const auto b = block_size::for_request(byte_count{request}, s);
  BOOST_REQUIRE(b.has_value());
  return b->bytes().value;
}

std::vector<std::uint64_t> segment_sizes(const caching_allocator& a) {
  std::vector<std::uint64_t> sizes;
  for (const auto& s : a.segments()) {
    sizes.push_back(s.size.value);
  }
  return sizes;
}

segment_event event(segment_action action, std::uint64_t address, std::uint64_t size, std::uint64_t stream = 0) {
  return {action, address, byte_count{size}, stream};
}

std::vector<segment_event> events(const caching_allocator& a) {
  return {a.segment_events().begin(), a.segment_events().end()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(allocator_settings)

// ---- Reading PYTORCH_CUDA_ALLOC_CONF ---------------------------------------

BOOST_AUTO_TEST_CASE(the_empty_text_gives_pytorchs_defaults) {
  const settings_type s = settings("");
  BOOST_TEST(!s.max_split_size.has_value());
  BOOST_TEST(s.max_non_split_rounding.value == 20 * MiB);
  for (const std::uint64_t d : s.roundup_power2_divisions) {
    BOOST_TEST(d == 0U);
  }
  BOOST_TEST(s.garbage_collection_threshold == 0.0);
  BOOST_TEST(!s.expandable_segments);
  BOOST_TEST((s == settings_type{}));
}

BOOST_AUTO_TEST_CASE(every_modelled_key_is_read_blanks_dropped_and_a_trailing_comma_accepted) {
  const settings_type s =
      settings(" max_split_size_mb : 40, max_non_split_rounding_mb:30,garbage_collection_threshold:0.5,"
               "expandable_segments:True,backend:native,");
  BOOST_TEST(s.max_split_size.value().value == 40 * MiB);
  BOOST_TEST(s.max_non_split_rounding.value == 30 * MiB);
  BOOST_TEST(s.garbage_collection_threshold == 0.5);
  BOOST_TEST(s.expandable_segments);
  BOOST_TEST(!settings("expandable_segments:False").expandable_segments);
  // A later item overrides an earlier one.
  BOOST_TEST(settings("max_split_size_mb:40,max_split_size_mb:60").max_split_size.value().value == 60 * MiB);
}

BOOST_AUTO_TEST_CASE(the_keys_that_do_not_shape_reserved_memory_are_checked_then_ignored) {
  const settings_type s = settings(
      "release_lock_on_cudamalloc:True,pinned_use_cuda_host_register:True,pinned_num_register_threads:128,"
      "pinned_use_background_threads:False,pinned_reserve_segment_size_mb:64,pinned_free_catch_all:True,"
      "graph_capture_record_stream_reuse:False,release_lock_on_hipmalloc:False,pinned_use_hip_host_register:False");
  BOOST_TEST((s == settings_type{}));
}

BOOST_AUTO_TEST_CASE(the_limits_are_accepted_at_their_smallest_value) {
  BOOST_TEST(settings("max_split_size_mb:20").max_split_size.value().value == 20 * MiB);
  BOOST_TEST(settings("max_non_split_rounding_mb:20").max_non_split_rounding.value == 20 * MiB);
  BOOST_TEST(settings("garbage_collection_threshold:0.999").garbage_collection_threshold == 0.999);
  BOOST_TEST(settings("garbage_collection_threshold:.25").garbage_collection_threshold == 0.25);
  // Clamped to SIZE_MAX / 1 MiB before the multiplication, as PyTorch does:
  // (2^64 - 1) / 2^20 x 2^20 = 2^64 - 2^20.
  BOOST_TEST(settings("max_split_size_mb:18446744073709551615").max_split_size.value().value == UINT64_MAX - MiB + 1);
}

// roundup_power2_divisions:4 fills every bucket.
BOOST_AUTO_TEST_CASE(a_single_division_count_fills_every_bucket) {
  const settings_type s = settings("roundup_power2_divisions:4");
  for (const std::uint64_t d : s.roundup_power2_divisions) {
    BOOST_TEST(d == 4U);
  }
  // 1 is a power of two: accepted, and rounds as no division does.
  BOOST_TEST(settings("roundup_power2_divisions:1").roundup_power2_divisions.at(7) == 1U);
}

// The list form, with PyTorch's own AllocatorConfigTest lists: bucket b holds
// sizes from 2^b MiB (bucket = log2(bound in MiB)); the first bound also fills
// the buckets below it; `>` fills the buckets after the last bound named.
BOOST_AUTO_TEST_CASE(a_division_list_fills_the_buckets_as_pytorch_does) {
  // 64 -> bucket 6: buckets 0..6 = 8; 128 -> 7 = 2; 256 -> 8 = 4; 512 -> 9 = 2;
  // 1024 -> 10 = 4; > -> 11..15 = 1.
  const std::array<std::uint64_t, 16> first{8, 8, 8, 8, 8, 8, 8, 2, 4, 2, 4, 1, 1, 1, 1, 1};
  BOOST_TEST(settings("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]").roundup_power2_divisions == first,
             boost::test_tools::per_element());
  // 128 -> 0..7 = 8; 256 -> 8 = 16; 512 -> 9 = 1; bucket 10 never named = 0;
  // 2048 -> 11 = 8; > -> 12..15 = 2.
  const std::array<std::uint64_t, 16> second{8, 8, 8, 8, 8, 8, 8, 8, 16, 1, 0, 8, 2, 2, 2, 2};
  BOOST_TEST(settings("roundup_power2_divisions:[128:8,256:16,512:1,2048:8,>:2]").roundup_power2_divisions == second,
             boost::test_tools::per_element());
  // A bound past 32 GiB lands in the last bucket; 0 is accepted in a list.
  const settings_type s = settings("roundup_power2_divisions:[1:2,65536:0]");
  BOOST_TEST(s.roundup_power2_divisions.at(0) == 2U);
  BOOST_TEST(s.roundup_power2_divisions.at(14) == 0U);
  BOOST_TEST(s.roundup_power2_divisions.at(15) == 0U);
  // The bucket of a size: log2(size) - 20, clamped to 0..15.
  BOOST_TEST(settings("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]").divisions_for(32 * MiB) == 8U);
  BOOST_TEST(settings("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]").divisions_for(128 * MiB) == 2U);
  BOOST_TEST(settings("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]").divisions_for(2048 * MiB) == 1U);
}

BOOST_AUTO_TEST_CASE(every_refusal_names_its_key_and_value) {
  struct refused {
    std::string_view text;
    alloc_conf_error expected;
  };
  using c = alloc_conf_errc;
  const std::vector<refused> cases{
      {"foo:123", {c::unknown_key, "foo", ""}},
      {"max_split_size_mb", {c::missing_separator, "max_split_size_mb", ""}},
      {"expandable_segments:True:False", {c::missing_separator, "expandable_segments", ":"}},
      {"roundup_power2_divisions:[64:8", {c::missing_separator, "roundup_power2_divisions", ""}},
      {"roundup_power2_divisions:[64:8:4]", {c::missing_separator, "roundup_power2_divisions", ":"}},
      {"max_split_size_mb:", {c::missing_value, "max_split_size_mb", ""}},
      {"max_split_size_mb:,expandable_segments:True", {c::missing_value, "max_split_size_mb", ","}},
      {"max_split_size_mb:40MB", {c::not_a_number, "max_split_size_mb", "40MB"}},
      {"max_split_size_mb:-1", {c::not_a_number, "max_split_size_mb", "-1"}},
      {"max_split_size_mb:99999999999999999999", {c::not_a_number, "max_split_size_mb", "99999999999999999999"}},
      {"max_split_size_mb:40 expandable_segments:True",
       {c::not_a_number, "max_split_size_mb", "40expandable_segments"}},
      {"garbage_collection_threshold:half", {c::not_a_number, "garbage_collection_threshold", "half"}},
      {"max_split_size_mb:19", {c::too_small, "max_split_size_mb", "19"}},
      {"max_non_split_rounding_mb:19", {c::too_small, "max_non_split_rounding_mb", "19"}},
      {"garbage_collection_threshold:0", {c::not_a_fraction, "garbage_collection_threshold", "0"}},
      {"garbage_collection_threshold:1.0", {c::not_a_fraction, "garbage_collection_threshold", "1.0"}},
      {"roundup_power2_divisions:3", {c::not_a_power_of_two, "roundup_power2_divisions", "3"}},
      {"roundup_power2_divisions:0", {c::not_a_power_of_two, "roundup_power2_divisions", "0"}},
      {"roundup_power2_divisions:[256:3]", {c::not_a_power_of_two, "roundup_power2_divisions", "3"}},
      {"roundup_power2_divisions:[100:2]", {c::not_a_power_of_two, "roundup_power2_divisions", "100"}},
      {"pinned_num_register_threads:3", {c::not_a_power_of_two, "pinned_num_register_threads", "3"}},
      {"pinned_num_register_threads:256", {c::too_many_threads, "pinned_num_register_threads", "256"}},
      {"pinned_reserve_segment_size_mb:0", {c::not_positive, "pinned_reserve_segment_size_mb", "0"}},
      {"expandable_segments:true", {c::not_a_boolean, "expandable_segments", "true"}},
      {"release_lock_on_cudamalloc:1", {c::not_a_boolean, "release_lock_on_cudamalloc", "1"}},
      {"backend:foo", {c::unknown_backend, "backend", "foo"}},
      {"backend:cudaMallocAsync", {c::other_backend, "backend", "cudaMallocAsync"}},
      {"large_segment_size_mb:30", {c::not_modelled, "large_segment_size_mb", ""}},
      {"per_process_memory_fraction:0.5", {c::not_modelled, "per_process_memory_fraction", ""}},
  };
  for (const refused& r : cases) {
    BOOST_TEST_CONTEXT(r.text) { BOOST_TEST(refusal(r.text) == r.expected); }
  }
}

BOOST_AUTO_TEST_CASE(a_refusal_reads_as_one_line_naming_the_key_the_value_and_what_is_accepted) {
  BOOST_TEST(iteragpu::report::describe(refusal("max_split_size_mb:19")) ==
             "PYTORCH_CUDA_ALLOC_CONF: 'max_split_size_mb' is '19' MiB; accepted: 20 or more");
  BOOST_TEST(iteragpu::report::describe(refusal("backend:cudaMallocAsync")) ==
             "PYTORCH_CUDA_ALLOC_CONF: backend 'cudaMallocAsync' is another allocator, which the simulation does "
             "not model; accepted: native");
  for (const std::string_view text : {"foo:1", "expandable_segments:yes", "garbage_collection_threshold:2",
                                      "roundup_power2_divisions:6", "max_split_size_mb:"}) {
    const std::string line = iteragpu::report::describe(refusal(text));
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST(line.find('\n') == std::string::npos);
      BOOST_TEST(line.find(refusal(text).key) != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_refusal_escapes_the_key_and_the_value_it_repeats) {
  // ESC, BEL, U+202E (right-to-left override) and a byte of invalid UTF-8.
  BOOST_TEST(iteragpu::report::describe(refusal("\x1bX\a:1")) ==
             "PYTORCH_CUDA_ALLOC_CONF: unknown key '\\x1BX\\x07'; accepted: max_split_size_mb, "
             "max_non_split_rounding_mb, roundup_power2_divisions, garbage_collection_threshold, expandable_segments, "
             "backend, release_lock_on_cudamalloc, pinned_use_cuda_host_register, pinned_num_register_threads, "
             "pinned_use_background_threads, pinned_reserve_segment_size_mb, pinned_free_catch_all, "
             "graph_capture_record_stream_reuse");
  // The right-to-left override is the hostile input under test.
  // NOLINTNEXTLINE(misc-misleading-bidirectional)
  BOOST_TEST(iteragpu::report::describe(refusal("expandable_segments:\u202eTrue\xff")) ==
             "PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments' is '\\u202ETrue\\xFF'; accepted: True or False");
}

// ---- round_size with roundup_power2_divisions ------------------------------

// 4 divisions between 4 MiB and 8 MiB: steps of 1 MiB (4, 5, 6, 7, 8 MiB).
BOOST_AUTO_TEST_CASE(a_request_is_rounded_up_to_the_next_division_around_a_boundary) {
  const settings_type four = settings("roundup_power2_divisions:4");
  BOOST_TEST(rounded(5 * MiB - 512, four) == 5 * MiB);  // 5 MiB - 512 & ~(1 MiB - 1) = 4 MiB, + 1 MiB
  BOOST_TEST(rounded(5 * MiB, four) == 5 * MiB);        // on a division: unchanged
  BOOST_TEST(rounded(5 * MiB + 1, four) == 6 * MiB);    // 5 MiB + 1 rounds to 5 MiB, + 1 MiB
  BOOST_TEST(rounded(4 * MiB, four) == 4 * MiB);        // a power of two stays
  BOOST_TEST(rounded(4 * MiB + 1, four) == 5 * MiB);
  // Without divisions the same requests round to multiples of 512.
  BOOST_TEST(rounded(5 * MiB - 512, settings_type{}) == 5 * MiB - 512);
  BOOST_TEST(rounded(5 * MiB + 1, settings_type{}) == 5 * MiB + 512);
}

// Divisions apply only above 512 x divisions bytes: with 8, above 4096.
// 8193: floor 8192, step 8192 / 8 = 1024, 8193 & ~1023 = 8192, + 1024.
BOOST_AUTO_TEST_CASE(divisions_apply_only_above_512_bytes_times_the_divisions) {
  const settings_type eight = settings("roundup_power2_divisions:8");
  BOOST_TEST(rounded(511, eight) == 512U);
  BOOST_TEST(rounded(4096, eight) == 4096U);
  BOOST_TEST(rounded(4097, eight) == 4608U);  // floor 4096, step 512: the same as 512 rounding
  BOOST_TEST(rounded(8193, eight) == 9216U);  // 512 rounding would give 8704
  caching_allocator a(eight, std::nullopt);
  take(a, 8193);
  BOOST_TEST(allocated(a) == 9216U);
}

// [4:2,>:0]: buckets 0..2 (sizes below 8 MiB) take 2 divisions, the others none.
// 6 MiB + 1 (bucket 2): floor 4 MiB, step 2 MiB -> 8 MiB; 12 MiB + 1 (bucket 3): 512 rounding.
BOOST_AUTO_TEST_CASE(each_bucket_rounds_with_its_own_divisions) {
  const settings_type s = settings("roundup_power2_divisions:[4:2,>:0]");
  BOOST_TEST(rounded(6 * MiB + 1, s) == 8 * MiB);
  BOOST_TEST(rounded(12 * MiB + 1, s) == 12 * MiB + 512);
}

// ---- max_split_size_mb and max_non_split_rounding_mb -----------------------

// A cached block of max_split_size or more is "oversize": a request below the
// limit does not get it. A 20 MiB request makes a 20 MiB segment; with the
// limit at 20 MiB that block is oversize, so a 2 MiB request reserves a new
// 20 MiB segment (40 MiB); with the limit at 21 MiB it is not, and the 2 MiB
// request splits it (20 MiB reserved).
BOOST_AUTO_TEST_CASE(a_block_exactly_at_the_limit_is_oversize_and_one_below_is_not) {
  caching_allocator at(settings("max_split_size_mb:20"), std::nullopt);
  give_back(at, take(at, 20 * MiB));
  take(at, 2 * MiB);
  BOOST_TEST(reserved(at) == 40 * MiB);

  caching_allocator above(settings("max_split_size_mb:21"), std::nullopt);
  give_back(above, take(above, 20 * MiB));
  take(above, 2 * MiB);
  BOOST_TEST(reserved(above) == 20 * MiB);
  BOOST_TEST(allocated(above) == 2 * MiB);
}

// A cached 40 MiB oversize block and a 5 MiB request: not reused, a 20 MiB
// segment is reserved (60 MiB); by default the block is split (40 MiB).
BOOST_AUTO_TEST_CASE(an_oversize_block_does_not_serve_a_much_smaller_request) {
  caching_allocator limited(settings("max_split_size_mb:20"), std::nullopt);
  give_back(limited, take(limited, 40 * MiB));
  take(limited, 5 * MiB);
  BOOST_TEST(reserved(limited) == 60 * MiB);
  BOOST_TEST(allocated(limited) == 5 * MiB);

  caching_allocator plain;
  give_back(plain, take(plain, 40 * MiB));
  take(plain, 5 * MiB);
  BOOST_TEST(reserved(plain) == 40 * MiB);
}

// An oversize request takes a cached oversize block whole when it is less
// than max_non_split_rounding larger: 40 MiB cached, 25 MiB asked (15 MiB
// more, under 20) -> the whole 40 MiB block, not split; by default it splits.
BOOST_AUTO_TEST_CASE(an_oversize_block_is_handed_out_whole) {
  caching_allocator limited(settings("max_split_size_mb:20"), std::nullopt);
  give_back(limited, take(limited, 40 * MiB));
  take(limited, 25 * MiB);
  BOOST_TEST(reserved(limited) == 40 * MiB);
  BOOST_TEST(allocated(limited) == 40 * MiB);

  caching_allocator plain;
  give_back(plain, take(plain, 40 * MiB));
  take(plain, 25 * MiB);
  BOOST_TEST(allocated(plain) == 25 * MiB);
}

// 40 MiB cached; a 20 MiB request (oversize with the limit at 20) is 20 MiB
// short of it: 20 >= max_non_split_rounding (20) -> refused, a new segment;
// 20 MiB + 512 is 20 MiB - 512 short -> taken. With max_non_split_rounding_mb:40
// the 20 MiB request takes it.
BOOST_AUTO_TEST_CASE(max_non_split_rounding_bounds_how_much_larger_the_oversize_block_may_be) {
  caching_allocator exact(settings("max_split_size_mb:20"), std::nullopt);
  give_back(exact, take(exact, 40 * MiB));
  take(exact, 20 * MiB);
  BOOST_TEST(reserved(exact) == 60 * MiB);

  caching_allocator above(settings("max_split_size_mb:20"), std::nullopt);
  give_back(above, take(above, 40 * MiB));
  take(above, 20 * MiB + 512);
  BOOST_TEST(reserved(above) == 40 * MiB);

  caching_allocator wider(settings("max_split_size_mb:20,max_non_split_rounding_mb:40"), std::nullopt);
  give_back(wider, take(wider, 40 * MiB));
  take(wider, 20 * MiB);
  BOOST_TEST(reserved(wider) == 40 * MiB);
}

// Capacity 50 MiB, a cached 40 MiB oversize block, a 5 MiB request: 40 + 20
// > 50, so release_available_cached_blocks releases the smallest oversize
// block of at least max(5, 20) MiB, and the 20 MiB segment then fits; no
// retry is counted (that is release_cached_blocks' path).
BOOST_AUTO_TEST_CASE(short_of_memory_an_oversize_block_is_released_before_everything_else) {
  caching_allocator a(settings("max_split_size_mb:20"), byte_count{50 * MiB});
  give_back(a, take(a, 40 * MiB));
  take(a, 5 * MiB);
  BOOST_TEST(reserved(a) == 20 * MiB);
  BOOST_TEST((a.counters() == allocator_counters{0, 0}));
  // The 40 MiB segment's chunk is 64 MiB; given back, its top takes the 20 MiB one's chunk of 32.
  const std::vector<segment_event> expected{event(segment_action::segment_alloc, top - 64 * MiB, 40 * MiB),
                                            event(segment_action::segment_free, top - 64 * MiB, 40 * MiB),
                                            event(segment_action::segment_alloc, top - 32 * MiB, 20 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// No single cached oversize block reaches max(50, 20) MiB: the largest
// oversize blocks of the stream go, largest first, until 50 MiB are released
// (30 + 24 = 54); the 10 MiB block, below the limit, stays. Capacity 100 MiB:
// 64 + 50 did not fit, 10 + 50 does, with no retry counted.
BOOST_AUTO_TEST_CASE(short_of_memory_the_largest_oversize_blocks_go_until_enough_is_released) {
  caching_allocator a(settings("max_split_size_mb:20"), byte_count{100 * MiB});
  const block_handle ten = take(a, 10 * MiB);
  const block_handle thirty = take(a, 30 * MiB);
  const block_handle twenty_four = take(a, 24 * MiB);
  give_back(a, ten);
  give_back(a, thirty);
  give_back(a, twenty_four);
  a.clear_segment_events();
  take(a, 50 * MiB);
  BOOST_TEST(reserved(a) == 60 * MiB);
  BOOST_TEST((a.counters() == allocator_counters{0, 0}));
  // Chunks of 32 MiB: 10 MiB at top - 32, 30 below it, 24 below that; the
  // 50 MiB segment's chunk of 64 goes below the 10 MiB one, the lowest held
  // once the other two are released (the 64 MiB they gave back is not larger).
  const std::vector<segment_event> expected{event(segment_action::segment_free, top - 64 * MiB, 30 * MiB),
                                            event(segment_action::segment_free, top - 96 * MiB, 24 * MiB),
                                            event(segment_action::segment_alloc, top - 96 * MiB, 50 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// ---- garbage_collection_threshold ------------------------------------------

// Capacity 100 MiB, threshold 0.5: collection starts above 50 MiB reserved.
// 30 + 20 MiB reserved (50, not above): a 40 MiB request leaves the cached
// 30 MiB block alone (90 MiB). 32 + 20 (52, above by 2 MiB): the cached 32 MiB
// block, age 1 (get_free_block calls: 3 - 2 when it was cached) >= the mean
// age 1, is released first (20 + 40 = 60 MiB).
BOOST_AUTO_TEST_CASE(garbage_is_collected_only_above_threshold_times_capacity) {
  const settings_type half = settings("garbage_collection_threshold:0.5");
  caching_allocator at(half, byte_count{100 * MiB});
  const block_handle a = take(at, 30 * MiB);
  take(at, 20 * MiB);
  give_back(at, a);
  take(at, 40 * MiB);
  BOOST_TEST(reserved(at) == 90 * MiB);

  caching_allocator above(half, byte_count{100 * MiB});
  const block_handle b = take(above, 32 * MiB);
  take(above, 20 * MiB);
  give_back(above, b);
  take(above, 40 * MiB);
  BOOST_TEST(reserved(above) == 60 * MiB);
  BOOST_TEST(events(above).at(2) == event(segment_action::segment_free, top - 32 * MiB, 32 * MiB));
}

// Capacity 200 MiB, threshold 0.5 (100 MiB). Blocks of 30, 32 and 34 MiB are
// cached after get_free_block calls 1, 2 and 3; a 40 MiB block is taken (call
// 4, 136 MiB reserved); a 50 MiB request (call 5) collects: ages 4, 3, 2, mean
// 3: the 30 and 32 MiB blocks go (62 MiB >= the 36 MiB excess), the youngest
// stays; 136 - 62 + 50 = 124 MiB.
BOOST_AUTO_TEST_CASE(garbage_collection_releases_the_oldest_blocks_first) {
  caching_allocator a(settings("garbage_collection_threshold:0.5"), byte_count{200 * MiB});
  give_back(a, take(a, 30 * MiB));
  give_back(a, take(a, 32 * MiB));
  give_back(a, take(a, 34 * MiB));
  take(a, 40 * MiB);
  BOOST_TEST(reserved(a) == 136 * MiB);
  a.clear_segment_events();
  take(a, 50 * MiB);
  BOOST_TEST(reserved(a) == 124 * MiB);
  // Chunks: 30 [top - 32, top), 32 [top - 64, top - 32), 34 and 40 in 64 each below.
  const std::vector<segment_event> expected{event(segment_action::segment_free, top - 32 * MiB, 30 * MiB),
                                            event(segment_action::segment_free, top - 64 * MiB, 32 * MiB),
                                            event(segment_action::segment_alloc, top - 256 * MiB, 50 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
  const std::vector<std::uint64_t> left{50 * MiB, 40 * MiB, 34 * MiB};  // in address order
  BOOST_TEST(segment_sizes(a) == left, boost::test_tools::per_element());
}

// PyTorch collects only when set_fraction is true: without a capacity the
// threshold does nothing (30 + 32 + 34 + 40 + 50 = 186 MiB stay reserved).
BOOST_AUTO_TEST_CASE(garbage_collection_needs_a_capacity) {
  caching_allocator a(settings("garbage_collection_threshold:0.5"), std::nullopt);
  give_back(a, take(a, 30 * MiB));
  give_back(a, take(a, 32 * MiB));
  give_back(a, take(a, 34 * MiB));
  take(a, 40 * MiB);
  take(a, 50 * MiB);
  BOOST_TEST(reserved(a) == 186 * MiB);
}

// ---- expandable_segments ---------------------------------------------------

// No card's memory is assumed: under expandable segments an allocator not
// told the device's memory refuses every request, reserving nothing; a plain
// one needs none.
BOOST_AUTO_TEST_CASE(expandable_segments_without_the_device_memory_refuse_every_request) {
  caching_allocator a(settings("expandable_segments:True"), std::nullopt);
  const auto refused = a.allocate(byte_count{1000});
  BOOST_TEST_REQUIRE(!refused.has_value());
  BOOST_TEST((refused.error().code == allocation_errc::device_memory_unknown));
  BOOST_TEST(refused.error().requested.value == 1000U);
  BOOST_TEST(reserved(a) == 0U);
  BOOST_TEST((a.counters() == allocator_counters{0, 0}));
  caching_allocator plain(settings("max_split_size_mb:20"), std::nullopt);
  BOOST_TEST(plain.allocate(byte_count{1000}).has_value());
}

// The device's memory sizes the address space (9/8 of it, in whole pages):
// a 1 GiB card's large segment holds 1.125 GiB, so a request of 1.2 GiB does
// not fit in it and is refused as out of memory, where the H200's holds it.
BOOST_AUTO_TEST_CASE(the_device_memory_sizes_the_expandable_address_space) {
  const std::uint64_t gib = 1024 * MiB;
  caching_allocator small_card(settings("expandable_segments:True"), std::nullopt, byte_count{gib});
  BOOST_TEST(small_card.allocate(byte_count{gib}).has_value());
  caching_allocator too_small(settings("expandable_segments:True"), std::nullopt, byte_count{gib});
  const auto refused = too_small.allocate(byte_count{gib + gib / 5});
  BOOST_TEST_REQUIRE(!refused.has_value());
  BOOST_TEST((refused.error().code == allocation_errc::out_of_memory));
  caching_allocator h200(settings("expandable_segments:True"), std::nullopt, h200_device_memory);
  BOOST_TEST(h200.allocate(byte_count{gib + gib / 5}).has_value());
}

// The first small request creates a small expandable segment (address space
// 9/8 of 150'109'880'320 bytes = 168'873'615'360, in 80'526 pages of 2 MiB =
// 168'875'261'952 bytes) and maps one 2 MiB page; a 21 MiB request creates a
// large one and maps two 20 MiB pages (40 MiB).
BOOST_AUTO_TEST_CASE(expandable_segments_map_whole_pages_of_2_and_20_MiB) {
  caching_allocator a(settings("expandable_segments:True"), std::nullopt, h200_device_memory);
  take(a, 1000);
  BOOST_TEST(reserved(a) == 2 * MiB);
  BOOST_TEST(allocated(a) == 1024U);
  // The large pool's space: 8'053 pages of 20 MiB = 168'883'650'560 bytes,
  // below the small one's.
  const std::uint64_t small_base = top - 168'875'261'952U;
  const std::uint64_t large_base = small_base - 168'883'650'560U;
  const block_handle big = take(a, 21 * MiB);
  BOOST_TEST(big.address == large_base);
  BOOST_TEST(reserved(a) == 42 * MiB);
  const std::vector<segment_event> expected{event(segment_action::segment_map, small_base, 2 * MiB),
                                            event(segment_action::segment_map, large_base, 40 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// In an expandable segment a rest of 512 bytes is split off (should_split):
// 20 MiB - 512 maps one 20 MiB page and leaves a 512-byte free block; without
// expandable segments the 20 MiB block is handed out whole.
BOOST_AUTO_TEST_CASE(expandable_segments_split_off_any_rest_of_512_bytes) {
  caching_allocator expandable(settings("expandable_segments:True"), std::nullopt, h200_device_memory);
  take(expandable, 20 * MiB - 512);
  BOOST_TEST(allocated(expandable) == 20 * MiB - 512);
  caching_allocator plain;
  take(plain, 20 * MiB - 512);
  BOOST_TEST(allocated(plain) == 20 * MiB);
}

// Large pool, pages of 20 MiB, offsets from the segment's base:
// A 21 MiB maps [0, 40) and takes [0, 21); B 10 MiB takes [21, 31) from the
// free rest; C 30 MiB finds the free [31, 40) followed by unmapped space, maps
// 30 - 9 = 21 -> 40 MiB more [40, 80), and takes [31, 61). A freed and asked
// again: the same address.
BOOST_AUTO_TEST_CASE(expandable_segments_grow_at_the_free_end_and_reuse_freed_ranges) {
  caching_allocator a(settings("expandable_segments:True"), std::nullopt, h200_device_memory);
  const block_handle first = take(a, 21 * MiB);
  const block_handle second = take(a, 10 * MiB);
  BOOST_TEST(second.address == first.address + 21 * MiB);
  BOOST_TEST(reserved(a) == 40 * MiB);
  const block_handle third = take(a, 30 * MiB);
  BOOST_TEST(third.address == first.address + 31 * MiB);
  BOOST_TEST(reserved(a) == 80 * MiB);
  BOOST_TEST(events(a).back() == event(segment_action::segment_map, first.address + 40 * MiB, 40 * MiB));
  give_back(a, first);
  BOOST_TEST(take(a, 21 * MiB).address == first.address);
  BOOST_TEST(reserved(a) == 80 * MiB);
}

// empty_cache unmaps the whole free pages only: with A [0, 21) freed, B [21,
// 31) in use and [31, 40) free, the page [0, 20) is unmapped; [20, 21) and
// [31, 40) stay mapped and cached (40 - 20 = 20 MiB reserved). Freeing all and
// emptying again unmaps the rest and drops the segment.
BOOST_AUTO_TEST_CASE(empty_cache_unmaps_the_free_pages_of_an_expandable_segment) {
  caching_allocator a(settings("expandable_segments:True"), std::nullopt, h200_device_memory);
  const block_handle first = take(a, 21 * MiB);
  const block_handle second = take(a, 10 * MiB);
  give_back(a, first);
  a.clear_segment_events();
  a.empty_cache();
  BOOST_TEST(reserved(a) == 20 * MiB);
  const std::vector<segment_event> unmapped{event(segment_action::segment_unmap, first.address, 20 * MiB)};
  BOOST_TEST(events(a) == unmapped, boost::test_tools::per_element());
  const auto views = a.segments();
  BOOST_REQUIRE(views.size() == 1U);
  BOOST_TEST(views.at(0).address == first.address + 20 * MiB);
  BOOST_TEST(views.at(0).blocks.size() == 3U);  // 1 MiB free, B, 9 MiB free
  give_back(a, second);
  a.empty_cache();
  BOOST_TEST(reserved(a) == 0U);
  BOOST_TEST(a.segments().empty());
  BOOST_TEST(events(a).back() == event(segment_action::segment_unmap, first.address + 20 * MiB, 20 * MiB));
}

// ---- The capacity ----------------------------------------------------------

// set_per_process_memory_fraction's allowance bounds what alloc_block asks
// (get_allocation_size: 22 MiB for 21 MiB), not the pages mapped: under a
// capacity of 30 MiB a 21 MiB request maps two 20 MiB pages (40 MiB
// reserved, past the capacity), as PyTorch does; a 9 MiB request is served
// from the mapped rest [21, 40); a 12 MiB one needs 12 more MiB: 40 + 12 >
// 30, the free pages are unmapped (none is whole), the retry fails too.
BOOST_AUTO_TEST_CASE(under_a_capacity_expandable_segments_map_past_it) {
  caching_allocator a(settings("expandable_segments:True"), byte_count{30 * MiB}, h200_device_memory);
  take(a, 21 * MiB);
  BOOST_TEST(reserved(a) == 40 * MiB);
  take(a, 9 * MiB);
  const auto failed = a.allocate(byte_count{12 * MiB});
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == allocation_errc::out_of_memory));
  BOOST_TEST((a.counters() == allocator_counters{1, 1}));
}

// 20 MiB cached, 22 MiB asked: 20 + 22 = 42 MiB. A capacity of 42 MiB holds
// both; one byte less releases the cached segment (release_cached_blocks) and
// reserves again: one retry.
BOOST_AUTO_TEST_CASE(at_the_capacity_it_fits_and_one_byte_less_costs_a_retry) {
  caching_allocator exact(settings_type{}, byte_count{42 * MiB});
  give_back(exact, take(exact, 20 * MiB));
  take(exact, 22 * MiB);
  BOOST_TEST(reserved(exact) == 42 * MiB);
  BOOST_TEST((exact.counters() == allocator_counters{0, 0}));

  caching_allocator short_by_one(settings_type{}, byte_count{42 * MiB - 1});
  give_back(short_by_one, take(short_by_one, 20 * MiB));
  take(short_by_one, 22 * MiB);
  BOOST_TEST(reserved(short_by_one) == 22 * MiB);
  BOOST_TEST((short_by_one.counters() == allocator_counters{1, 0}));
}

// 22 MiB in use under 42 MiB - 1: a 20 MiB + 1 request needs a 22 MiB segment
// (20 MiB + 512 rounded up to 2 MiB); nothing is cached to release, the retry
// fails too: one retry, one out of memory, and the failure's figures.
BOOST_AUTO_TEST_CASE(past_the_capacity_with_nothing_cached_the_request_fails) {
  caching_allocator a(settings_type{}, byte_count{42 * MiB - 1});
  take(a, 22 * MiB);
  const auto failed = a.allocate(byte_count{20 * MiB + 1});
  BOOST_REQUIRE(!failed.has_value());
  BOOST_TEST((failed.error().code == allocation_errc::out_of_memory));
  BOOST_TEST(failed.error().segment.value == 22 * MiB);
  BOOST_TEST(failed.error().reserved.value == 22 * MiB);
  BOOST_TEST((a.counters() == allocator_counters{1, 1}));
}

// ---- Streams ---------------------------------------------------------------

// A block freed on stream 1 serves stream 1 again but not stream 2, which
// reserves its own 2 MiB small segment.
BOOST_AUTO_TEST_CASE(a_free_block_serves_only_its_own_stream) {
  caching_allocator a;
  give_back(a, take(a, 1000, 1));
  take(a, 1000, 2);
  BOOST_TEST(reserved(a) == 4 * MiB);
  take(a, 1000, 1);
  BOOST_TEST(reserved(a) == 4 * MiB);
  const std::vector<segment_event> expected{event(segment_action::segment_alloc, top - 32 * MiB, 2 * MiB, 1),
                                            event(segment_action::segment_alloc, top - 30 * MiB, 2 * MiB, 2)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// ---- Placement -------------------------------------------------------------

// The hint places the next segment where a recorded trace shows it; an
// overlapping hint is ignored (the segment goes below the lowest chunk); a
// hint lasts one allocate() call. With no room left below the lowest
// chunk, nor in any, a new one goes above the highest.
BOOST_AUTO_TEST_CASE(a_placement_hint_places_the_next_segment) {
  caching_allocator a;
  constexpr std::uint64_t there = std::uint64_t{1} << 30U;
  a.place_next_segment_at(there);
  BOOST_TEST(take(a, 3 * MiB).address == there);  // a 20 MiB segment at 1 GiB
  a.place_next_segment_at(there + 10 * MiB);      // inside it: ignored
  BOOST_TEST(take(a, 30 * MiB).address == there - 32 * MiB);
  a.place_next_segment_at(2 * MiB);
  take(a, 1000);  // served by a new small segment at the hint, the lowest address a segment may have
  BOOST_TEST(a.segments().front().address == 2 * MiB);
  a.place_next_segment_at(8 * MiB);
  take(a, 2000);  // served from the small segment: the hint goes unused and lapses
  take(a, 40 * MiB);
  BOOST_TEST(a.segments().back().address == there + 32 * MiB);
}

// The driver reserves address space in chunks of whole 32 MiB, each new one
// just below the lowest held, the segment at the chunk's start: a 20 MiB
// segment lies at top - 32 MiB, a 40 MiB one at top - 96 MiB (its chunk is
// 64 MiB). A later segment that fits in the unused part of a chunk goes
// there, the newest chunk first: the 2 MiB small segment lands in the 40 MiB
// segment's chunk, right after it (oracle traces, H100: 836 of 855
// reservations land where this rule says).
BOOST_AUTO_TEST_CASE(a_segment_goes_in_the_unused_part_of_the_newest_chunk_with_room) {
  caching_allocator a;
  take(a, 20 * MiB);
  take(a, 40 * MiB);
  take(a, 1000);
  const std::vector<segment_event> expected{event(segment_action::segment_alloc, top - 32 * MiB, 20 * MiB),
                                            event(segment_action::segment_alloc, top - 96 * MiB, 40 * MiB),
                                            event(segment_action::segment_alloc, top - 56 * MiB, 2 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// In a chunk, the smallest gap that holds the segment: the 100 MiB segment's
// chunk [top - 128, top) holds it and two small segments; with the first one
// freed and released, the gaps are [top - 28, top - 26) (2 MiB) and
// [top - 24, top) (24 MiB): the next small segment takes the 2 MiB one.
BOOST_AUTO_TEST_CASE(in_a_chunk_the_smallest_gap_that_fits_is_taken) {
  caching_allocator a;
  take(a, 100 * MiB);
  const block_handle first = take(a, 1000);
  take(a, 1000, 1);
  give_back(a, first);
  a.empty_cache();
  a.clear_segment_events();
  take(a, 1000, 2);
  BOOST_TEST(events(a).at(0) == event(segment_action::segment_alloc, top - 28 * MiB, 2 * MiB, 2));
}

// A chunk whose segments are all released gives its range back; a later
// chunk smaller than such a range goes at its top, one of exactly its size
// below the lowest chunk: 100 MiB [top - 128, top) and 30 MiB [top - 160,
// top - 128); the first released; 60 MiB (chunk 64) takes the top of the
// range, 62 MiB (chunk 64, as large as what is left) goes below the 30 MiB.
BOOST_AUTO_TEST_CASE(a_range_given_back_is_taken_again_at_its_top_by_a_smaller_chunk) {
  caching_allocator a;
  const block_handle big = take(a, 100 * MiB);
  take(a, 30 * MiB);
  give_back(a, big);
  a.empty_cache();
  take(a, 60 * MiB);
  take(a, 62 * MiB);
  const std::vector<segment_event> expected{event(segment_action::segment_alloc, top - 128 * MiB, 100 * MiB),
                                            event(segment_action::segment_alloc, top - 160 * MiB, 30 * MiB),
                                            event(segment_action::segment_free, top - 128 * MiB, 100 * MiB),
                                            event(segment_action::segment_alloc, top - 64 * MiB, 60 * MiB),
                                            event(segment_action::segment_alloc, top - 224 * MiB, 62 * MiB)};
  BOOST_TEST(events(a) == expected, boost::test_tools::per_element());
}

// Where segments land decides a tie between free blocks of one size, taken
// at the lower address (BlockComparatorSize): A 60 MiB [top - 64, top), B
// 30 MiB below it; A released, its 64 MiB range given back; C 30 MiB (chunk
// 32) goes at the top of that range, above B. B and C freed: a 20 MiB
// request splits B, the lower one (placed below B, as before, C would have
// been split).
BOOST_AUTO_TEST_CASE(of_two_free_blocks_of_one_size_the_lower_one_is_split) {
  caching_allocator a;
  const block_handle first = take(a, 60 * MiB);
  const block_handle second = take(a, 30 * MiB);
  give_back(a, first);
  a.empty_cache();
  const block_handle third = take(a, 30 * MiB);
  BOOST_TEST(third.address == top - 32 * MiB);
  BOOST_TEST(second.address == top - 96 * MiB);
  give_back(a, second);
  give_back(a, third);
  BOOST_TEST(take(a, 20 * MiB).address == second.address);
}

// With default settings the new constructor is the old one.
BOOST_AUTO_TEST_CASE(default_settings_give_the_default_allocator) {
  caching_allocator old_way(byte_count{64 * MiB});
  caching_allocator new_way(settings_type{}, byte_count{64 * MiB});
  for (caching_allocator* a : {&old_way, &new_way}) {
    const block_handle x = take(*a, 3 * MiB);
    take(*a, 700);
    give_back(*a, x);
    take(*a, 30 * MiB);
    take(*a, 5 * MiB);
  }
  BOOST_TEST((old_way.statistics() == new_way.statistics()));
  BOOST_TEST((old_way.segments() == new_way.segments()));
}

BOOST_AUTO_TEST_SUITE_END()
