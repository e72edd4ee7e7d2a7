// prediction.hpp brings the simulated caching allocator and its settings.
#include <iteragpu/prediction.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace pred = iteragpu::memory::prediction;

BOOST_AUTO_TEST_SUITE(prediction_umbrella)

BOOST_AUTO_TEST_CASE(a_small_request_takes_a_rounded_block_of_a_new_small_segment) {
  const auto settings = pred::parse_alloc_conf("expandable_segments:False");
  BOOST_TEST(settings.has_value());
  pred::caching_allocator allocator(settings.value(), std::nullopt);
  // One byte is rounded to PyTorch's smallest block, 512 bytes, in a new
  // segment of the small pool, 2 MiB.
  BOOST_TEST(allocator.allocate(iteragpu::byte_count{1}).has_value());
  const auto s = allocator.statistics();
  BOOST_TEST(s.allocated.value == 512U);
  BOOST_TEST(s.reserved.value == std::uint64_t{2} << 20U);
}

BOOST_AUTO_TEST_SUITE_END()
