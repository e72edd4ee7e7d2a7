// Statistics as JSON: absent numbers are null, the thresholds as fractions.
#include <iteragpu/report/statistics.hpp>

#include <optional>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/statistics.hpp>

namespace report = iteragpu::report;

BOOST_AUTO_TEST_SUITE(statistics_json)

BOOST_AUTO_TEST_CASE(summaries_and_thresholds_as_json) {
  BOOST_TEST(report::optional_number(std::nullopt).is_null());
  BOOST_TEST(report::optional_number(0.5).as_double() == 0.5);
  BOOST_TEST(report::to_json(std::optional<iteragpu::memory::sample_summary>{}).is_null());
  BOOST_TEST(report::to_json(std::optional<iteragpu::memory::gpu_state>{}).is_null());
  // The noise thresholds in percent, as fractions.
  const auto t = report::noise_thresholds_json();
  BOOST_TEST(t.at("noisy_above").as_double() == static_cast<double>(iteragpu::memory::noisy_above_percent) / 100.0);
  BOOST_TEST(t.at("very_noisy_above").as_double() > t.at("noisy_above").as_double());
  // One sample of 2 s: median, mean, min and max 2; no deviation, as statistics_test works it out.
  const auto s = iteragpu::memory::summarize(std::vector<double>{2.0});
  const auto o = report::to_json(std::optional<iteragpu::memory::sample_summary>(s.value())).as_object();
  BOOST_TEST(o.at("median").as_double() == 2.0);
  BOOST_TEST(o.at("count").to_number<int>() == 1);
  BOOST_TEST(o.at("standard_deviation").is_null());
}

BOOST_AUTO_TEST_SUITE_END()
