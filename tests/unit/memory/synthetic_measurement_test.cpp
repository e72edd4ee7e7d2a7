// What a measurement's rows give: the memory outside the allocator (device
// used less reserved) and the need, its largest peak plus that memory.
#include <iteragpu/memory/synthetic_measurement.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

namespace {

mem::phase_row row(mem::phase_kind phase, std::uint64_t baseline_reserved, std::uint64_t end_reserved,
                   std::uint64_t peak_reserved) {
  mem::phase_row r;
  r.phase = phase;
  r.baseline_reserved_bytes = baseline_reserved;
  r.end_reserved_bytes = end_reserved;
  r.peak_reserved_bytes = peak_reserved;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(synthetic_measurement)

BOOST_AUTO_TEST_CASE(the_need_is_the_largest_peak_plus_the_largest_memory_outside) {
  auto load = row(mem::phase_kind::model_load, 0, 4096, 4096);
  load.baseline_device_used_bytes = 300;  // 300 - 0 = 300 outside
  load.end_device_used_bytes = 5096;      // 5096 - 4096 = 1000 outside
  auto warm = row(mem::phase_kind::warm_forward, 4096, 8192, 10'000);
  warm.repeat = 0;
  warm.baseline_device_used_bytes = 4596;  // 4596 - 4096 = 500 outside
  warm.end_device_used_bytes = 8692;       // 8692 - 8192 = 500 outside
  const std::vector<mem::phase_row> rows{load, warm};
  BOOST_TEST(mem::device_samples(rows).size() == 4U);
  BOOST_TEST(mem::memory_outside_allocator(rows).value() == 1000U);
  // 10,000 (the largest peak, warm_forward's) + 1000.
  const auto need = mem::need_of(rows).value();
  BOOST_TEST(need.bytes.value == 11'000U);
  BOOST_TEST(need.source == std::string(mem::measured_need_source));
}

BOOST_AUTO_TEST_CASE(without_device_readings_the_need_is_the_peak_and_says_so) {
  const std::vector<mem::phase_row> rows{row(mem::phase_kind::model_load, 0, 4096, 6144)};
  BOOST_TEST(mem::device_samples(rows).empty());
  BOOST_TEST(!mem::memory_outside_allocator(rows).has_value());
  const auto need = mem::need_of(rows).value();
  BOOST_TEST(need.bytes.value == 6144U);
  BOOST_TEST(need.source == std::string(mem::measured_need_without_outside_source));
}

BOOST_AUTO_TEST_SUITE_END()
