// Statistics of the repeats, against values worked out by hand (the working
// is in the comments). The stopping rule of `--repeats auto`:
// stopping_rule_test.cpp.
#include <iteragpu/memory/statistics.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace {

using iteragpu::memory::median_confidence_ranks;
using iteragpu::memory::noise_verdict;
using iteragpu::memory::sample_errc;
using iteragpu::memory::sample_summary;

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

sample_summary summary_of(const std::vector<double>& values) {
  const auto s = iteragpu::memory::summarize(values);
  BOOST_TEST_REQUIRE(s.has_value());
  return *s;
}

struct rank_case {
  std::size_t n;
  std::size_t lower;
  std::size_t upper;
  double coverage;
};

// sum_{i <= k} C(n, i), exactly, for n <= 62 (the whole sum is 2^n).
std::uint64_t binomial_prefix(unsigned n, unsigned k) {
  std::uint64_t term = 1;  // C(n, 0)
  std::uint64_t sum = 1;
  for (unsigned i = 1; i <= k; ++i) {
    term = term * (n - i + 1U) / i;  // C(n, i) = C(n, i - 1) (n - i + 1) / i, exact
    sum += term;
  }
  return sum;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(statistics)

// Sorted: 1 2 3. h = 2p/100: p10 -> 0.2, p25 -> 0.5, p75 -> 1.5, p90 -> 1.8.
// Mean 2; standard deviation sqrt((1 + 0 + 1) / 2) = 1; IQR = 2.5 - 1.5 = 1.
BOOST_AUTO_TEST_CASE(an_odd_count_has_its_middle_value_as_median) {
  const auto s = summary_of({3.0, 1.0, 2.0});
  BOOST_TEST(s.count == 3U);
  BOOST_TEST(s.min == 1.0);
  BOOST_TEST(s.p10 == 1.2, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.p25 == 1.5);
  BOOST_TEST(s.median == 2.0);
  BOOST_TEST(s.p75 == 2.5);
  BOOST_TEST(s.p90 == 2.8, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.max == 3.0);
  BOOST_TEST(s.mean == 2.0);
  BOOST_TEST(s.standard_deviation.value() == 1.0);
  BOOST_TEST(s.iqr_over_median.value() == 0.5);
  BOOST_TEST((s.noise == noise_verdict::very_noisy));
  BOOST_TEST(!s.median_ci.has_value());
}

// Sorted: 1 2 3 4. h = 3p/100: p10 -> 0.3, p25 -> 0.75, p50 -> 1.5,
// p75 -> 2.25, p90 -> 2.7. Mean 2.5; squares of deviations 2.25 + 0.25 +
// 0.25 + 2.25 = 5, over n - 1 = 3: sd = sqrt(5/3) = 1.2909944487358056.
// IQR = 3.25 - 1.75 = 1.5, over 2.5: 0.6.
BOOST_AUTO_TEST_CASE(an_even_count_interpolates_its_median_between_the_middle_two) {
  const auto s = summary_of({4.0, 1.0, 3.0, 2.0});
  BOOST_TEST(s.count == 4U);
  BOOST_TEST(s.min == 1.0);
  BOOST_TEST(s.p10 == 1.3, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.p25 == 1.75);
  BOOST_TEST(s.median == 2.5);
  BOOST_TEST(s.p75 == 3.25);
  BOOST_TEST(s.p90 == 3.7, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.max == 4.0);
  BOOST_TEST(s.mean == 2.5);
  BOOST_TEST(s.standard_deviation.value() == 1.2909944487358056, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.iqr_over_median.value() == 0.6, boost::test_tools::tolerance(1e-15));
  BOOST_TEST((s.noise == noise_verdict::very_noisy));
}

// Sorted: 1 2. h = p/100: p10 -> 1.1, p25 -> 1.25, p50 -> 1.5, p75 -> 1.75,
// p90 -> 1.9. sd = sqrt((0.25 + 0.25) / 1) = 0.7071067811865476.
// IQR / median = 0.5 / 1.5 = 1/3.
BOOST_AUTO_TEST_CASE(two_samples_interpolate_every_percentile_between_them) {
  const auto s = summary_of({2.0, 1.0});
  BOOST_TEST(s.p10 == 1.1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.p25 == 1.25);
  BOOST_TEST(s.median == 1.5);
  BOOST_TEST(s.p75 == 1.75);
  BOOST_TEST(s.p90 == 1.9, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.mean == 1.5);
  BOOST_TEST(s.standard_deviation.value() == 0.7071067811865476, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(s.iqr_over_median.value() == 1.0 / 3.0, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(one_sample_is_every_statistic_and_has_no_deviation_and_no_interval) {
  const auto s = summary_of({0.004});
  BOOST_TEST(s.count == 1U);
  for (const double v : {s.min, s.p10, s.p25, s.median, s.p75, s.p90, s.max, s.mean}) {
    BOOST_TEST(v == 0.004);
  }
  BOOST_TEST(!s.standard_deviation.has_value());
  BOOST_TEST(s.iqr_over_median.value() == 0.0);
  BOOST_TEST((s.noise == noise_verdict::steady));
  BOOST_TEST(!s.median_ci.has_value());
}

BOOST_AUTO_TEST_CASE(ties_give_the_tied_value_and_zero_spread) {
  const auto s = summary_of({5.0, 5.0, 5.0, 5.0, 5.0, 5.0});
  for (const double v : {s.min, s.p10, s.p25, s.median, s.p75, s.p90, s.max, s.mean}) {
    BOOST_TEST(v == 5.0);
  }
  BOOST_TEST(s.standard_deviation.value() == 0.0);
  BOOST_TEST(s.iqr_over_median.value() == 0.0);
  BOOST_TEST(s.median_ci.value().lower == 5.0);
  BOOST_TEST(s.median_ci.value().upper == 5.0);
}

// Sorted 2 2 2 7: h = 3p/100; p75 -> 2.25: 2 + 0.25 x 5 = 3.25; median 2.
BOOST_AUTO_TEST_CASE(partial_ties_interpolate_only_where_the_neighbours_differ) {
  const auto s = summary_of({2.0, 7.0, 2.0, 2.0});
  BOOST_TEST(s.p25 == 2.0);
  BOOST_TEST(s.median == 2.0);
  BOOST_TEST(s.p75 == 3.25);
  BOOST_TEST(s.mean == 3.25);
  BOOST_TEST(s.iqr_over_median.value() == 0.625);
}

BOOST_AUTO_TEST_CASE(a_median_of_zero_has_no_iqr_ratio_and_no_verdict) {
  const auto s = summary_of({0.0, 0.0, 0.0, 1.0});
  BOOST_TEST(s.median == 0.0);
  BOOST_TEST(!s.iqr_over_median.has_value());
  BOOST_TEST(!s.noise.has_value());
  BOOST_TEST(s.standard_deviation.value() == 0.5);  // mean 0.25: (3 x 0.0625 + 0.5625) / 3 = 0.25
}

BOOST_AUTO_TEST_CASE(all_zeros_have_a_deviation_of_zero) {
  const auto s = summary_of({0.0, 0.0, 0.0});
  BOOST_TEST(s.standard_deviation.value() == 0.0);
  BOOST_TEST(s.mean == 0.0);
}

// The mean is a running mean and the deviation is scaled by the maximum:
// values near the largest double give finite results, where a plain sum of
// squares would be infinite.
BOOST_AUTO_TEST_CASE(huge_values_give_finite_mean_and_deviation) {
  constexpr double big = 1e308;
  const auto s = summary_of({big, big, 0.0, 0.0});
  BOOST_TEST(s.mean == big / 2, boost::test_tools::tolerance(1e-15));
  // Deviations +-big/2, squares 4 x big^2/4 = big^2, over 3: sd = big / sqrt(3).
  BOOST_TEST(s.standard_deviation.value() == big / std::sqrt(3.0), boost::test_tools::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(a_permutation_gives_the_same_summary_bit_for_bit) {
  constexpr std::size_t n = 57;
  std::vector<double> values;
  values.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    values.push_back(0.003 + 0.0001 * std::sin(static_cast<double>(i) * 1.7) + (i % 5 == 0 ? 0.0004 : 0.0));
  }
  const auto reference = summary_of(values);
  // Value i goes to place (i x stride) mod 57: a permutation for every
  // stride prime to 57 = 3 x 19.
  for (const std::size_t stride : {2U, 5U, 11U, 20U, 56U}) {
    std::vector<double> permuted(n);
    for (std::size_t i = 0; i < n; ++i) {
      permuted[i * stride % n] = values[i];
    }
    BOOST_TEST((summary_of(permuted) == reference), "stride " << stride);
  }
  std::reverse(values.begin(), values.end());
  BOOST_TEST((summary_of(values) == reference));
}

BOOST_AUTO_TEST_CASE(negative_zero_counts_as_zero_whatever_its_place) {
  const auto a = summary_of({-0.0, 0.0, 1.0});
  const auto b = summary_of({0.0, -0.0, 1.0});
  BOOST_TEST(!std::signbit(a.min));
  BOOST_TEST(!std::signbit(b.min));
  BOOST_TEST(!std::signbit(a.p25));
  BOOST_TEST((a == b));
}

BOOST_AUTO_TEST_CASE(an_empty_sample_is_refused) {
  const auto s = iteragpu::memory::summarize({});
  BOOST_TEST_REQUIRE(!s.has_value());
  BOOST_TEST((s.error().code == sample_errc::empty));
  BOOST_TEST(describe(s.error()) == "the sample is empty: a summary needs at least one value");
}

BOOST_AUTO_TEST_CASE(a_value_that_is_not_finite_is_refused_with_its_index) {
  for (const double bad : {not_a_number, infinity, -infinity}) {
    const std::vector<double> values{1.0, 2.0, bad, 3.0};
    const auto s = iteragpu::memory::summarize(values);
    BOOST_TEST_REQUIRE(!s.has_value());
    BOOST_TEST((s.error().code == sample_errc::not_finite));
    BOOST_TEST(s.error().index == 2U);
    BOOST_TEST(describe(s.error()) == "value 2 (0-based) of the sample is not a finite number");
  }
}

BOOST_AUTO_TEST_CASE(a_negative_value_is_refused_with_its_index) {
  const std::vector<double> values{1.0, -1e-9, 2.0};
  const auto s = iteragpu::memory::summarize(values);
  BOOST_TEST_REQUIRE(!s.has_value());
  BOOST_TEST((s.error().code == sample_errc::negative));
  BOOST_TEST(s.error().index == 1U);
  BOOST_TEST(describe(s.error()) == "value 1 (0-based) of the sample is negative: seconds are at least 0");
}

// The ranks l, u = n + 1 - l: l the largest with P(B <= l - 1) <= 0.025,
// B ~ Binomial(n, 1/2); coverage 1 - 2 P(B <= l - 1).
//
// n = 6, 2^6 = 64; C(6, k) = 1 6 15 20; cumulative 1 7 22:
//   1/64 = 0.0156 <= 0.025 < 7/64 = 0.109 -> l = 1, u = 6, coverage 62/64.
// n = 10, 2^10 = 1024; C(10, k) = 1 10 45 120; cumulative 1 11 56:
//   11/1024 = 0.0107 <= 0.025 < 56/1024 = 0.0547 -> l = 2, u = 9,
//   coverage 1 - 22/1024 = 0.978515625.
// n = 20, 2^20 = 1048576, 0.025 x 2^20 = 26214.4; C(20, k) = 1 20 190 1140
//   4845 15504 38760; cumulative 1 21 211 1351 6196 21700 60460:
//   21700 <= 26214.4 < 60460 -> l = 6, u = 15, coverage 1 - 43400/1048576
//   = 0.95861053466796875.
// n = 100, 2^100 = 1267650600228229401496703205376:
//   sum_{k<=39} C(100, k) = 22310777467063680597071392880 -> 0.0176001
//   sum_{k<=40} C(100, k) = 36057011612866492098338762600 -> 0.0284440
//   -> l = 40, u = 61, coverage 1 - 2 x 0.017600100108852407 = 0.9647997997822952.
BOOST_AUTO_TEST_CASE(confidence_ranks_of_the_median_match_the_binomial_tables) {
  for (const auto& e : std::array<rank_case, 4>{{{6, 1, 6, 62.0 / 64.0},
                                                 {10, 2, 9, 0.978515625},
                                                 {20, 6, 15, 0.95861053466796875},
                                                 {100, 40, 61, 0.9647997997822952}}}) {
    BOOST_TEST_CONTEXT("n = " << e.n) {
      const auto r = median_confidence_ranks(e.n);
      BOOST_TEST_REQUIRE(r.has_value());
      BOOST_TEST(r->lower == e.lower);
      BOOST_TEST(r->upper == e.upper);
      BOOST_TEST(r->coverage == e.coverage, boost::test_tools::tolerance(1e-14));
    }
  }
}

// n = 5: even [X_(1), X_(5)] covers only 1 - 2/32 = 0.9375 < 0.95.
BOOST_AUTO_TEST_CASE(five_samples_or_fewer_have_no_interval) {
  for (std::size_t n = 0; n <= 5; ++n) {
    BOOST_TEST(!median_confidence_ranks(n).has_value(), "n = " << n);
  }
  BOOST_TEST(!summary_of({1, 2, 3, 4, 5}).median_ci.has_value());
}

// Against exact integer sums: every tail probability P(B <= k) for
// n <= 62 within the documented relative bound (3n + 2) 2^-53, and the
// ranks equal to those of the exact test 40 S(l - 1) <= 2^n.
BOOST_AUTO_TEST_CASE(binomial_tails_are_within_their_bound_of_the_exact_sums) {
  for (unsigned n = 1; n <= 62; ++n) {
    const auto tails = iteragpu::memory::binomial_half_lower_tails(n);
    BOOST_TEST_REQUIRE(tails.size() == n / 2U + 1U);
    const double whole = std::ldexp(1.0, static_cast<int>(n));
    const double bound = (3.0 * n + 2.0) * std::ldexp(1.0, -53);
    std::optional<unsigned> exact_lower;
    for (unsigned k = 0; k <= n / 2U; ++k) {
      const std::uint64_t sum = binomial_prefix(n, k);
      const double exact = static_cast<double>(sum) / whole;  // sum < 2^53 here or rounded once
      BOOST_TEST(std::abs(tails[k] - exact) <= (bound + std::ldexp(1.0, -53)) * exact, "n = " << n << ", k = " << k);
      if (sum <= (std::uint64_t{1} << n) / 40U) {  // 40 S <= 2^n, S an integer
        exact_lower = k + 1U;
      }
    }
    const auto r = median_confidence_ranks(n);
    BOOST_TEST(r.has_value() == exact_lower.has_value(), "n = " << n);
    if (r && exact_lower) {
      BOOST_TEST(r->lower == *exact_lower, "n = " << n);
      BOOST_TEST(r->upper == n + 1U - *exact_lower, "n = " << n);
    }
  }
}

BOOST_AUTO_TEST_CASE(large_counts_give_ranks_near_the_normal_approximation_and_no_underflow) {
  // The normal approximation n/2 - 1.96 sqrt(n)/2 (+1): 49 690 at n = 100 000;
  // the exact ranks were checked with integer arithmetic.
  const auto r = median_confidence_ranks(100'000);
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(r->lower == 49'690U);
  BOOST_TEST(r->upper == 50'311U);
  BOOST_TEST(r->coverage >= 0.95);
  BOOST_TEST(r->coverage == 0.95044428533047409, boost::test_tools::tolerance(1e-9));
}

// 1..10 shuffled: ranks 2 and 9 -> [2, 9] around the median 5.5.
BOOST_AUTO_TEST_CASE(the_interval_of_the_median_is_read_at_its_ranks_in_the_sorted_sample) {
  const auto s = summary_of({7, 3, 10, 1, 5, 9, 2, 8, 6, 4});
  BOOST_TEST(s.median == 5.5);
  BOOST_TEST_REQUIRE(s.median_ci.has_value());
  BOOST_TEST(s.median_ci->ranks.lower == 2U);
  BOOST_TEST(s.median_ci->ranks.upper == 9U);
  BOOST_TEST(s.median_ci->lower == 2.0);
  BOOST_TEST(s.median_ci->upper == 9.0);
  // max(5.5 - 2, 9 - 5.5) / 5.5
  BOOST_TEST(iteragpu::memory::median_interval_reach(s).value() == 3.5 / 5.5, boost::test_tools::tolerance(1e-15));
}

// IQR / median exactly 10 % and 25 %: sorted 9 10 11 -> p25 9.5, p75 10.5,
// IQR 1 over 10; 7.5 10 12.5 -> p25 8.75, p75 11.25, IQR 2.5 over 10.
BOOST_AUTO_TEST_CASE(the_noise_verdict_changes_just_above_ten_and_twenty_five_percent) {
  const auto at_ten = summary_of({9.0, 10.0, 11.0});
  BOOST_TEST(at_ten.iqr_over_median.value() == 0.1);
  BOOST_TEST((at_ten.noise == noise_verdict::steady));
  const auto above_ten = summary_of({8.9, 10.0, 11.0});  // (10.5 - 9.45) / 10 = 0.105
  BOOST_TEST((above_ten.noise == noise_verdict::noisy));
  const auto below_ten = summary_of({9.1, 10.0, 11.0});  // (10.5 - 9.55) / 10 = 0.095
  BOOST_TEST((below_ten.noise == noise_verdict::steady));
  const auto at_twenty_five = summary_of({7.5, 10.0, 12.5});
  BOOST_TEST(at_twenty_five.iqr_over_median.value() == 0.25);
  BOOST_TEST((at_twenty_five.noise == noise_verdict::noisy));
  const auto above_twenty_five = summary_of({7.4, 10.0, 12.5});  // (11.25 - 8.7) / 10 = 0.255
  BOOST_TEST((above_twenty_five.noise == noise_verdict::very_noisy));
}

BOOST_AUTO_TEST_CASE(the_verdict_is_printed_with_its_thresholds) {
  BOOST_TEST(describe(noise_verdict::steady) == "steady (IQR/median at most 10 %)");
  BOOST_TEST(describe(noise_verdict::noisy) == "noisy (IQR/median above 10 %, at most 25 %)");
  BOOST_TEST(describe(noise_verdict::very_noisy) == "very noisy (IQR/median above 25 %)");
}

BOOST_AUTO_TEST_CASE(the_reach_of_the_interval_needs_an_interval_and_a_positive_median) {
  BOOST_TEST(!iteragpu::memory::median_interval_reach(summary_of({1, 2, 3, 4, 5})).has_value());
  BOOST_TEST(!iteragpu::memory::median_interval_reach(summary_of({0, 0, 0, 0, 0, 0, 1})).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
