#ifndef ITERAGPU_MEMORY_STATISTICS_HPP
#define ITERAGPU_MEMORY_STATISTICS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/memory/stopping_rule.hpp"
#include "iteragpu/result.hpp"

/// \file
/// Statistics of the repeats of a measurement: order statistics, a
/// distribution-free confidence interval of the median, a noise verdict, and
/// the convergence test of the rule that stops `--repeats auto`
/// (make_stopping_rule(); the rule itself is in memory/stopping_rule.hpp).
/// Every result depends on the sorted sample only, so the same values in any
/// order give the same bits.
namespace iteragpu::memory {

// ---------------------------------------------------------------------------
// Percentiles

/// The p-th percentile (p an integer from 0 to 100) of values sorted in
/// ascending order, by linear interpolation between the closest ranks: the
/// method "linear" of NumPy's percentile (its default; Hyndman and Fan's
/// type 7). With x[0] <= ... <= x[n-1] and h = (n - 1) p / 100,
///   percentile = x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)]).
/// h is computed in integers, so an exact rank (h whole) returns that value
/// itself. Nothing when the span is empty, p > 100, a value is not finite,
/// or the values are not sorted.
[[nodiscard]] constexpr std::optional<double> percentile_of_sorted(std::span<const double> sorted,
                                                                   unsigned percent) noexcept {
  if (sorted.empty() || percent > 100U) {
    return std::nullopt;
  }
  // NaN and the infinities fail both comparisons.
  constexpr double lowest = std::numeric_limits<double>::lowest();
  constexpr double highest = std::numeric_limits<double>::max();
  if (!std::all_of(sorted.begin(), sorted.end(), [&](double v) { return lowest <= v && v <= highest; }) ||
      !std::is_sorted(sorted.begin(), sorted.end())) {
    return std::nullopt;
  }
  // (n - 1) p in integers; no span holds enough values to overflow it, but
  // the bound costs one comparison.
  if (sorted.size() - 1U > std::numeric_limits<std::size_t>::max() / 100U) {
    return std::nullopt;
  }
  const std::size_t scaled = (sorted.size() - 1U) * percent;
  const std::size_t below = scaled / 100U;
  const std::size_t hundredths = scaled % 100U;
  if (hundredths == 0U) {
    return sorted[below];
  }
  const double weight = static_cast<double>(hundredths) / 100.0;
  return sorted[below] + weight * (sorted[below + 1U] - sorted[below]);
}

// ---------------------------------------------------------------------------
// The confidence interval of the median

/// The interval [X_(l), X_(u)] between two order statistics (ranks counted
/// from 1) covers the population median with probability
/// P(l <= B <= n - l) = 1 - 2 P(B <= l - 1), B ~ Binomial(n, 1/2), whatever
/// the (continuous) distribution: B counts the values below the median. The
/// ranks are symmetric, u = n + 1 - l, with l the largest rank for which
/// P(B <= l - 1) <= median_interval_tail, so the coverage is at least
/// median_confidence_level. For n <= 5 even [X_(1), X_(n)] covers less
/// (1 - 2 / 2^5 = 93.75 % at n = 5): there is no interval.
inline constexpr double median_confidence_level = 0.95;
inline constexpr double median_interval_tail = 0.025;  ///< (1 - 0.95) / 2, on each side

/// The ranks of the confidence interval of the median, and the coverage they give.
struct median_ranks {
  std::size_t lower{0};  ///< l, 1-based
  std::size_t upper{0};  ///< u = n + 1 - l
  double coverage{0};    ///< 1 - 2 P(B <= l - 1), >= median_confidence_level
  friend constexpr bool operator==(const median_ranks&, const median_ranks&) = default;
};

/// P(B <= k) for k = 0 .. floor(n / 2), B ~ Binomial(n, 1/2), element k:
/// the tails from which median_confidence_ranks() picks its ranks.
///
/// How, without underflow: the central probability C(n, m) / 2^n (m =
/// floor(n / 2)) is the product prod_{i=1..m} (2i - 1) / (2i), times
/// n / (2 (m + 1)) when n = 2m + 1; it is at least 1 / (n + 1), never
/// small. The others follow downwards, P(B = k - 1) = P(B = k) k / (n - k + 1),
/// and the cumulative sums are taken upwards, smallest terms first. No
/// factorial, power of two or logarithm is formed, so nothing overflows, and
/// the only terms that underflow are those below 2^-1022, which cannot move
/// a comparison with 0.025.
///
/// Accuracy: every term is a product of at most 2n + 2 correctly rounded
/// operations, and each cumulative sum adds at most n / 2 more, so each
/// element is within a relative (3n + 2) 2^-53 of its exact value: 3.4e-11
/// at n = 100 000. The ranks below can therefore differ from the exact ones
/// only if an exact P(B <= k) lay that close to 0.025; for every n from 6
/// to 100 000 the nearest one lies 2.6e-7 away, relatively (n = 79 608;
/// checked once, exhaustively, when this was written, and the ranks at
/// n = 10^3, 10^4, 10^5 against exact integer sums; the unit tests check
/// every tail against exact integer sums for n <= 62).
[[nodiscard]] std::vector<double> binomial_half_lower_tails(std::size_t n);

/// The ranks of the 95 % interval for a sample of `count` values, or nothing
/// when count <= 5. O(count) time and memory.
[[nodiscard]] std::optional<median_ranks> median_confidence_ranks(std::size_t count);

// ---------------------------------------------------------------------------
// The noise verdict

/// How noisy a sample is, from its IQR / median.
enum class noise_verdict { steady, noisy, very_noisy };

/// IQR / median above these percentages is noisy, very noisy (the thresholds
/// of torch.utils.benchmark's warnings).
inline constexpr unsigned noisy_above_percent = 10;
inline constexpr unsigned very_noisy_above_percent = 25;  ///< see noisy_above_percent

/// The verdict on an IQR / median ratio (0.1 is 10 %): steady up to and
/// including 10 %, noisy above, very noisy above 25 %. Nothing for a ratio
/// that is negative or NaN.
[[nodiscard]] constexpr std::optional<noise_verdict> noise_of(double iqr_over_median) noexcept {
  if (!(iqr_over_median >= 0.0)) {
    return std::nullopt;
  }
  if (iqr_over_median > static_cast<double>(very_noisy_above_percent) / 100.0) {
    return noise_verdict::very_noisy;
  }
  if (iqr_over_median > static_cast<double>(noisy_above_percent) / 100.0) {
    return noise_verdict::noisy;
  }
  return noise_verdict::steady;
}

/// The name in JSON.
[[nodiscard]] constexpr std::string_view name_of(noise_verdict v) noexcept {
  switch (v) {
    case noise_verdict::steady:
      return "steady";
    case noise_verdict::noisy:
      return "noisy";
    case noise_verdict::very_noisy:
      return "very_noisy";
  }
  return "unknown";
}

/// The verdict with its threshold, for a person: "noisy (IQR/median above 10 %)".
[[nodiscard]] std::string describe(noise_verdict v);

// ---------------------------------------------------------------------------
// The summary of a sample

/// The confidence interval of the median: its ranks and the values at them.
struct median_interval {
  median_ranks ranks;  ///< l, u and the coverage
  double lower{0};     ///< X_(l)
  double upper{0};     ///< X_(u)
  friend constexpr bool operator==(const median_interval&, const median_interval&) = default;
};

/// Order statistics, mean and spread of a sample of seconds (see summarize()).
struct sample_summary {
  std::size_t count{0};  ///< values in the sample
  double min{0};         ///< the smallest value
  double p10{0};         ///< 10th percentile (percentile_of_sorted)
  double p25{0};         ///< 25th percentile
  double median{0};      ///< 50th percentile
  double p75{0};         ///< 75th percentile
  double p90{0};         ///< 90th percentile
  double max{0};         ///< the largest value
  double mean{0};        ///< arithmetic mean
  /// The sample standard deviation, sqrt(sum (x - mean)^2 / (n - 1));
  /// nothing for a single value.
  std::optional<double> standard_deviation{};
  /// (p75 - p25) / median; nothing when the median is 0.
  std::optional<double> iqr_over_median{};
  std::optional<noise_verdict> noise{};        ///< of iqr_over_median
  std::optional<median_interval> median_ci{};  ///< nothing when count <= 5
  friend constexpr bool operator==(const sample_summary&, const sample_summary&) = default;
};

/// Why a sample cannot be summarized.
enum class sample_errc {
  empty,       ///< no value at all
  not_finite,  ///< NaN or an infinity
  negative,    ///< seconds cannot be negative
};

/// Why a sample cannot be summarized, and where.
struct sample_error {
  sample_errc code{sample_errc::empty};  ///< what is wrong
  std::size_t index{0};                  ///< of the first offending value (0-based); 0 when empty
  friend constexpr bool operator==(const sample_error&, const sample_error&) = default;
};

/// The problem in a sentence that names the value at fault.
[[nodiscard]] std::string describe(const sample_error& e);

/// The summary of a sample of seconds: at least one value, every value finite
/// and >= 0. -0.0 counts as 0.0 (so that a permutation cannot flip the sign
/// of a result). The mean is a running mean and the standard deviation is
/// scaled by the maximum, so neither overflows for any finite input.
[[nodiscard]] result<sample_summary, sample_error> summarize(std::span<const double> seconds);

/// How far the confidence interval of the median reaches from the median,
/// relative to it: max(median - X_(l), X_(u) - median) / median. Nothing
/// without an interval or with a median of 0.
[[nodiscard]] std::optional<double> median_interval_reach(const sample_summary& s) noexcept;

// ---------------------------------------------------------------------------
// The stopping rule of `--repeats auto` (memory/stopping_rule.hpp)

namespace detail {

// The stopping rule's test: the sample summarizes and the interval of its
// median lies within max_noise x median of the median. A sample that cannot
// be summarized (a value negative or not finite) never converges.
[[nodiscard]] bool median_within(std::span<const double> seconds, double max_noise);

}  // namespace detail

// Declared in memory/stopping_rule.hpp. The rule's convergence test is
// summarize() and median_interval_reach() above.
result<stopping_rule, stopping_errc> make_stopping_rule(const stopping_parameters& p) noexcept;

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/statistics.ipp"
#endif

#endif  // ITERAGPU_MEMORY_STATISTICS_HPP
