// The stopping rule of `--repeats auto`, against values worked out by hand
// (the working is in the comments).
#include <iteragpu/memory/stopping_rule.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/statistics.hpp>

namespace {

using iteragpu::memory::make_stopping_rule;
using iteragpu::memory::sample_summary;
using iteragpu::memory::stop_reason;
using iteragpu::memory::stopping_errc;
using iteragpu::memory::stopping_parameters;
using iteragpu::memory::stopping_rule;
using seconds = std::chrono::duration<double>;

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

sample_summary summary_of(const std::vector<double>& values) {
  const auto s = iteragpu::memory::summarize(values);
  BOOST_TEST_REQUIRE(s.has_value());
  return *s;
}

stopping_rule rule_of(const stopping_parameters& p) {
  const auto r = make_stopping_rule(p);
  BOOST_TEST_REQUIRE(r.has_value());
  return *r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stopping_rule_of_auto_repeats)

BOOST_AUTO_TEST_CASE(the_defaults_are_ten_repeats_one_percent_and_fifteen_seconds) {
  const stopping_parameters p;
  BOOST_TEST(p.min_repeats == 10U);
  BOOST_TEST(p.max_repeats == 10'000U);
  BOOST_TEST(p.max_noise == 0.01);
  BOOST_TEST(p.max_seconds.count() == 15.0);
  BOOST_TEST(make_stopping_rule(p).has_value());
}

BOOST_AUTO_TEST_CASE(parameters_out_of_range_are_refused_with_the_reason) {
  struct bad_case {
    stopping_parameters p;
    stopping_errc error;
  };
  const std::vector<bad_case> cases{
      {{.min_repeats = 0}, stopping_errc::zero_min_repeats},
      {{.min_repeats = 10, .max_repeats = 9}, stopping_errc::max_repeats_below_min},
      {{.max_noise = 0.0}, stopping_errc::max_noise_not_positive},
      {{.max_noise = -0.01}, stopping_errc::max_noise_not_positive},
      {{.max_noise = not_a_number}, stopping_errc::max_noise_not_positive},
      {{.max_noise = infinity}, stopping_errc::max_noise_not_positive},
      {{.max_seconds = seconds{0.0}}, stopping_errc::max_seconds_not_positive},
      {{.max_seconds = seconds{-1.0}}, stopping_errc::max_seconds_not_positive},
      {{.max_seconds = seconds{not_a_number}}, stopping_errc::max_seconds_not_positive},
      {{.max_seconds = seconds{infinity}}, stopping_errc::max_seconds_not_positive},
  };
  for (const auto& c : cases) {
    const auto r = make_stopping_rule(c.p);
    BOOST_TEST_REQUIRE(!r.has_value());
    BOOST_TEST((r.error() == c.error));
  }
  BOOST_TEST(describe(stopping_errc::max_repeats_below_min) == "max_repeats must be at least min_repeats");
  BOOST_TEST(make_stopping_rule({.min_repeats = 7, .max_repeats = 7}).has_value());
}

BOOST_AUTO_TEST_CASE(a_steady_sample_converges_exactly_at_min_repeats_and_not_before) {
  const auto rule = rule_of({});
  const std::vector<double> steady(20, 0.003);
  for (std::size_t n = 0; n < 10; ++n) {
    BOOST_TEST(!rule.decide(std::span(steady).first(n), seconds{1.0}).has_value(), "n = " << n);
  }
  BOOST_TEST((rule.decide(std::span(steady).first(10), seconds{1.0}) == stop_reason::converged));
}

// Sorted: 98 99 99.5 99.8 100 100 100.2 100.5 101 102; median 100; the
// interval is [X_(2), X_(9)] = [99, 101]: 1 % on each side, which is within.
BOOST_AUTO_TEST_CASE(an_interval_reaching_exactly_max_noise_from_the_median_has_converged) {
  const auto rule = rule_of({});
  const std::vector<double> sample{101, 98, 100, 99.5, 100.2, 99, 100.5, 102, 99.8, 100};
  BOOST_TEST((rule.decide(sample, seconds{0.5}) == stop_reason::converged));
}

// Both ends must be within: [99.5, 101.2] is 1.7 wide, a half-width of
// 0.85 % of the median, but its upper end is 1.2 % above the median.
BOOST_AUTO_TEST_CASE(one_end_beyond_max_noise_is_not_converged_even_when_the_half_width_is_within) {
  const auto rule = rule_of({});
  const std::vector<double> sample{98, 99.5, 99.6, 99.8, 100, 100, 100.2, 100.5, 101.2, 103};
  BOOST_TEST(!rule.decide(sample, seconds{0.5}).has_value());
  const auto s = summary_of(sample);
  BOOST_TEST(iteragpu::memory::median_interval_reach(s).value() == 0.012, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_noisy_sample_runs_until_max_repeats) {
  const auto rule = rule_of({.min_repeats = 10, .max_repeats = 50});
  std::vector<double> noisy;
  noisy.reserve(50);
  for (int i = 0; i < 50; ++i) {
    noisy.push_back(i % 2 == 0 ? 1.0 : 2.0);
  }
  for (std::size_t n = 1; n < 50; ++n) {
    BOOST_TEST(!rule.decide(std::span(noisy).first(n), seconds{1.0}).has_value(), "n = " << n);
  }
  BOOST_TEST((rule.decide(noisy, seconds{1.0}) == stop_reason::max_repeats));
}

BOOST_AUTO_TEST_CASE(max_seconds_stops_the_run_even_before_min_repeats) {
  const auto rule = rule_of({});
  const std::vector<double> three{1.0, 2.0, 3.0};
  BOOST_TEST(!rule.decide(three, seconds{14.999}).has_value());
  BOOST_TEST((rule.decide(three, seconds{15.0}) == stop_reason::max_seconds));
  BOOST_TEST((rule.decide(three, seconds{60.0}) == stop_reason::max_seconds));
}

BOOST_AUTO_TEST_CASE(max_repeats_stops_the_run_at_min_repeats_when_they_are_equal) {
  const auto rule = rule_of({.min_repeats = 3, .max_repeats = 3});
  BOOST_TEST(!rule.decide(std::vector<double>{1.0, 2.0}, seconds{0.0}).has_value());
  BOOST_TEST((rule.decide(std::vector<double>{1.0, 2.0, 3.0}, seconds{0.0}) == stop_reason::max_repeats));
}

BOOST_AUTO_TEST_CASE(no_sample_never_stops_even_past_the_time_budget) {
  const auto rule = rule_of({});
  BOOST_TEST(!rule.decide({}, seconds{100.0}).has_value());
}

BOOST_AUTO_TEST_CASE(a_broken_clock_counts_as_the_time_budget_spent) {
  const auto rule = rule_of({});
  const std::vector<double> two{1.0, 2.0};
  BOOST_TEST((rule.decide(two, seconds{-1.0}) == stop_reason::max_seconds));
  BOOST_TEST((rule.decide(two, seconds{not_a_number}) == stop_reason::max_seconds));
  BOOST_TEST((rule.decide(two, seconds{infinity}) == stop_reason::max_seconds));
}

BOOST_AUTO_TEST_CASE(a_run_that_converged_when_a_budget_ran_out_says_converged) {
  const std::vector<double> steady(12, 0.5);
  BOOST_TEST((rule_of({}).decide(steady, seconds{20.0}) == stop_reason::converged));
  BOOST_TEST((rule_of({.min_repeats = 12, .max_repeats = 12}).decide(steady, seconds{0.0}) == stop_reason::converged));
}

BOOST_AUTO_TEST_CASE(a_sample_that_cannot_be_summarized_never_converges) {
  std::vector<double> broken(12, 0.5);
  broken[3] = not_a_number;
  const auto rule = rule_of({.min_repeats = 10, .max_repeats = 12});
  BOOST_TEST(!rule.decide(std::span(broken).first(11), seconds{1.0}).has_value());
  BOOST_TEST((rule.decide(broken, seconds{1.0}) == stop_reason::max_repeats));
  broken[3] = -0.5;
  BOOST_TEST((rule.decide(broken, seconds{1.0}) == stop_reason::max_repeats));
}

// Past 1024 samples convergence is tested every 16th count: 1025 samples
// that have converged go on, 1040 stop, and so do 1025 once the time is spent.
BOOST_AUTO_TEST_CASE(past_1024_samples_convergence_is_tested_every_sixteenth_count) {
  const auto rule = rule_of({});
  const std::vector<double> steady(1040, 0.25);
  BOOST_TEST(!rule.decide(std::span(steady).first(1025), seconds{1.0}).has_value());
  BOOST_TEST((rule.decide(steady, seconds{1.0}) == stop_reason::converged));
  BOOST_TEST((rule.decide(std::span(steady).first(1025), seconds{15.0}) == stop_reason::converged));
}

// A fake clock: the loop of a caller, each repeat taking 0.25 s of noisy
// time (values alternate 1 and 2 seconds of work, so the interval never
// narrows): the rule stops after the repeat that brings the clock to 15 s.
BOOST_AUTO_TEST_CASE(a_caller_loop_with_a_fake_clock_stops_when_the_budget_is_spent) {
  const auto rule = rule_of({});
  std::vector<double> samples;
  seconds clock{0.0};
  std::optional<stop_reason> reason;
  while (!reason) {
    samples.push_back(samples.size() % 2 == 0 ? 1.0 : 2.0);
    clock += seconds{0.25};
    reason = rule.decide(samples, clock);
  }
  BOOST_TEST((*reason == stop_reason::max_seconds));
  BOOST_TEST(samples.size() == 60U);  // 60 x 0.25 = 15
}

BOOST_AUTO_TEST_SUITE_END()
