// A reading of the caching allocator's statistics, over a stand-in for
// LibTorch's DeviceStats (this header needs no LibTorch).
#include <iteragpu/torch/allocator_stats.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(allocator_statistics)

// The shape of LibTorch's DeviceStats: StatArrays of {current, peak} whose
// index 0 is the aggregate over pool types.
struct fake_stat {
  std::int64_t current{0};
  std::int64_t peak{0};
};
struct fake_device_stats {
  std::array<fake_stat, 3> allocated_bytes;
  std::array<fake_stat, 3> reserved_bytes;
};

BOOST_AUTO_TEST_CASE(a_reading_takes_the_aggregate_entry_of_allocated_and_reserved) {
  fake_device_stats stats;
  stats.allocated_bytes = {fake_stat{1'645'297'664, 5'940'264'960}, fake_stat{1, 2}, fake_stat{3, 4}};
  stats.reserved_bytes = {fake_stat{5'941'231'616, 5'941'231'616}, fake_stat{5, 6}, fake_stat{7, 8}};
  const auto r = iteragpu::torch_adapter::reading_from(stats);
  BOOST_TEST(r.allocated_bytes == 1'645'297'664U);
  BOOST_TEST(r.peak_allocated_bytes == 5'940'264'960U);
  BOOST_TEST(r.reserved_bytes == 5'941'231'616U);
  BOOST_TEST(r.peak_reserved_bytes == 5'941'231'616U);
}

BOOST_AUTO_TEST_CASE(a_negative_counter_is_an_error_not_a_huge_number) {
  fake_device_stats stats;
  stats.allocated_bytes[0] = fake_stat{-1, 0};
  BOOST_CHECK_THROW(static_cast<void>(iteragpu::torch_adapter::reading_from(stats)), std::range_error);
}

BOOST_AUTO_TEST_SUITE_END()
