#ifndef ITERAGPU_REPORT_STATISTICS_HPP
#define ITERAGPU_REPORT_STATISTICS_HPP

#include <optional>
#include <string>
#include <string_view>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/report/gpu_state.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The statistics of a sample and the GPU's state, as JSON and as text.
namespace iteragpu::report {

/// How the percentiles are computed, as the JSON states it.
inline constexpr std::string_view percentile_method =
    "linear interpolation between closest ranks (NumPy's default): x[floor(h)] + (h - floor(h)) x "
    "(x[floor(h)+1] - x[floor(h)]), h = (n - 1) p / 100";
/// How the confidence interval of the median is computed, as the JSON states it.
inline constexpr std::string_view median_interval_method =
    "distribution-free 95 % confidence interval of the median from order statistics: X_(l) and X_(n+1-l), l the "
    "largest rank with P(Binomial(n, 1/2) <= l - 1) <= 0.025; none for 5 samples or fewer";

/// The number, or JSON null.
[[nodiscard]] boost::json::value optional_number(const std::optional<double>& v);

/// The summary as JSON: order statistics, mean, spread, noise and the interval of the median; null
/// without a sample.
[[nodiscard]] boost::json::value to_json(const std::optional<memory::sample_summary>& s);

/// The thresholds of the noise verdict, as fractions: {"noisy_above", "very_noisy_above"}.
[[nodiscard]] boost::json::object noise_thresholds_json();

/// Each reading is its value, or null with its reason in `unavailable`.
[[nodiscard]] boost::json::value to_json(const std::optional<memory::gpu_state>& state);

/// `n=20 median 3.1e-03 s [95 % CI 3.09e-03, 3.12e-03] IQR/median 1.2 % steady`
void write_summary(std::ostream& out, std::string_view label, const std::optional<memory::sample_summary>& s);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/statistics.ipp"
#endif

#endif  // ITERAGPU_REPORT_STATISTICS_HPP
