#ifndef ITERAGPU_MEMORY_IMPL_STATISTICS_IPP
#define ITERAGPU_MEMORY_IMPL_STATISTICS_IPP

#include <cmath>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/statistics.hpp"

// The bodies of the functions that <iteragpu/memory/statistics.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::vector<double> binomial_half_lower_tails(std::size_t n) {
  const std::size_t centre = n / 2U;
  double central = 1.0;
  for (std::size_t i = 1; i <= centre; ++i) {
    central *= static_cast<double>(2U * i - 1U) / static_cast<double>(2U * i);
  }
  if (n % 2U == 1U) {
    central *= static_cast<double>(n) / static_cast<double>(2U * (centre + 1U));
  }
  std::vector<double> tails(centre + 1U);
  tails[centre] = central;
  for (std::size_t k = centre; k > 0; --k) {
    tails[k - 1U] = tails[k] * (static_cast<double>(k) / static_cast<double>(n - k + 1U));
  }
  for (std::size_t k = 1; k <= centre; ++k) {
    tails[k] += tails[k - 1U];
  }
  return tails;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<median_ranks> median_confidence_ranks(std::size_t count) {
  if (count == 0U) {
    return std::nullopt;
  }
  const std::vector<double> tails = binomial_half_lower_tails(count);
  // tails.back() = P(B <= floor(n / 2)) >= 1/2, so the search always stops
  // inside the vector.
  const auto first_above = std::upper_bound(tails.begin(), tails.end(), median_interval_tail);
  if (first_above == tails.begin()) {
    return std::nullopt;
  }
  const auto below = static_cast<std::size_t>(first_above - tails.begin()) - 1U;  // l - 1
  return median_ranks{below + 1U, count - below, 1.0 - 2.0 * tails[below]};
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(noise_verdict v) {
  switch (v) {
    case noise_verdict::steady:
      return "steady (IQR/median at most " + std::to_string(noisy_above_percent) + " %)";
    case noise_verdict::noisy:
      return "noisy (IQR/median above " + std::to_string(noisy_above_percent) + " %, at most " +
             std::to_string(very_noisy_above_percent) + " %)";
    case noise_verdict::very_noisy:
      return "very noisy (IQR/median above " + std::to_string(very_noisy_above_percent) + " %)";
  }
  return "unknown noise verdict";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const sample_error& e) {
  switch (e.code) {
    case sample_errc::empty:
      return "the sample is empty: a summary needs at least one value";
    case sample_errc::not_finite:
      return "value " + std::to_string(e.index) + " (0-based) of the sample is not a finite number";
    case sample_errc::negative:
      return "value " + std::to_string(e.index) + " (0-based) of the sample is negative: seconds are at least 0";
  }
  return "unknown sample error";
}

[[nodiscard]] ITERAGPU_INLINE result<sample_summary, sample_error> summarize(std::span<const double> seconds) {
  if (seconds.empty()) {
    return unexpected{sample_error{sample_errc::empty, 0}};
  }
  std::vector<double> sorted;
  sorted.reserve(seconds.size());
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    const double v = seconds[i];
    if (!std::isfinite(v)) {
      return unexpected{sample_error{sample_errc::not_finite, i}};
    }
    if (v < 0.0) {
      return unexpected{sample_error{sample_errc::negative, i}};
    }
    sorted.push_back(v == 0.0 ? 0.0 : v);
  }
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  // Valid for every percent: the values are finite, sorted and n >= 1.
  const auto at = [&](unsigned percent) { return percentile_of_sorted(sorted, percent).value_or(0.0); };

  sample_summary s;
  s.count = n;
  s.min = sorted.front();
  s.p10 = at(10);
  s.p25 = at(25);
  s.median = at(50);
  s.p75 = at(75);
  s.p90 = at(90);
  s.max = sorted.back();
  double mean = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    mean += (sorted[i] - mean) / static_cast<double>(i + 1U);
  }
  s.mean = mean;
  if (n > 1U) {
    double scaled_squares = 0.0;
    if (s.max > 0.0) {
      for (const double v : sorted) {
        const double d = (v - mean) / s.max;  // |d| <= 1
        scaled_squares += d * d;
      }
    }
    s.standard_deviation = s.max * std::sqrt(scaled_squares / static_cast<double>(n - 1U));
  }
  if (s.median > 0.0) {
    s.iqr_over_median = (s.p75 - s.p25) / s.median;
    s.noise = noise_of(*s.iqr_over_median);
  }
  if (const auto ranks = median_confidence_ranks(n)) {
    s.median_ci = median_interval{*ranks, sorted[ranks->lower - 1U], sorted[ranks->upper - 1U]};
  }
  return s;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> median_interval_reach(const sample_summary& s) noexcept {
  if (!s.median_ci || !(s.median > 0.0)) {
    return std::nullopt;
  }
  return std::max(s.median - s.median_ci->lower, s.median_ci->upper - s.median) / s.median;
}

}  // namespace iteragpu::memory

namespace iteragpu::memory::detail {

[[nodiscard]] ITERAGPU_INLINE bool median_within(std::span<const double> seconds, double max_noise) {
  const auto summary = summarize(seconds);
  if (!summary.has_value()) {
    return false;
  }
  const auto reach = median_interval_reach(*summary);
  return reach && *reach <= max_noise;
}

}  // namespace iteragpu::memory::detail

namespace iteragpu::memory {

ITERAGPU_INLINE result<stopping_rule, stopping_errc> make_stopping_rule(const stopping_parameters& p) noexcept {
  if (const auto checked = check_stopping_parameters(p); !checked) {
    return unexpected{checked.error()};
  }
  return stopping_rule(p, &detail::median_within);
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_STATISTICS_IPP
