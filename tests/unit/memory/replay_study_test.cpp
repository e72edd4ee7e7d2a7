// The settings a replay study starts from: those a snapshot recorded, in the
// prediction's terms, or the defaults where it recorded none.
#include <iteragpu/memory/replay_study.hpp>

#include <cstdint>
#include <optional>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(replay_study_settings)

BOOST_AUTO_TEST_CASE(recorded_settings_become_the_predictions_settings) {
  const auto defaults = mem::settings_of(std::nullopt);
  BOOST_TEST(!defaults.max_split_size.has_value());
  BOOST_TEST(!defaults.expandable_segments);
  BOOST_TEST(defaults.garbage_collection_threshold == 0.0);

  mem::recorded_settings recorded;
  recorded.max_split_size = std::uint64_t{64} << 20U;
  recorded.garbage_collection_threshold = 0.75;
  recorded.expandable_segments = true;
  // 4 MiB is bucket 2 (1, 2, 4 MiB: bit width 3, less 1); 3 MiB is no power of two and is left out.
  recorded.roundup_power2_divisions = {{4, 8}, {3, 2}};
  const auto s = mem::settings_of(recorded);
  BOOST_TEST(s.max_split_size.value().value == std::uint64_t{67'108'864});
  BOOST_TEST(s.garbage_collection_threshold == 0.75);
  BOOST_TEST(s.expandable_segments);
  BOOST_TEST(s.roundup_power2_divisions.at(2) == 8U);
  BOOST_TEST(s.roundup_power2_divisions.at(1) == 0U);
  BOOST_TEST(s.roundup_power2_divisions.at(0) == 0U);
}

BOOST_AUTO_TEST_SUITE_END()
