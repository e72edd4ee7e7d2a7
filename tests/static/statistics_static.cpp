// Percentiles, the noise verdict and the stopping rule's test schedule,
// pinned at compile time. Every expected value is exact in binary: the
// interpolation weights used here are multiples of 1/4, or their products
// round to the whole number written.
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>

#include <iteragpu/memory/statistics.hpp>

namespace {

using iteragpu::memory::noise_of;
using iteragpu::memory::noise_verdict;
using iteragpu::memory::percentile_of_sorted;

constexpr std::array<double, 5> five{0.0, 10.0, 20.0, 30.0, 40.0};
constexpr std::array<double, 4> four{1.0, 2.0, 3.0, 4.0};
constexpr std::array<double, 4> tied{2.0, 2.0, 2.0, 5.0};
constexpr std::array<double, 1> one{7.0};
constexpr std::array<double, 3> unsorted{1.0, 3.0, 2.0};
constexpr std::array<double, 2> with_nan{1.0, std::numeric_limits<double>::quiet_NaN()};
constexpr std::array<double, 2> with_infinity{1.0, std::numeric_limits<double>::infinity()};

// Five values: h = 4p/100. Exact ranks at p = 0, 25, 50, 75, 100.
static_assert(percentile_of_sorted(five, 0) == 0.0);
static_assert(percentile_of_sorted(five, 25) == 10.0);  // h = 1
static_assert(percentile_of_sorted(five, 50) == 20.0);  // h = 2
static_assert(percentile_of_sorted(five, 75) == 30.0);  // h = 3
static_assert(percentile_of_sorted(five, 100) == 40.0);
// Between ranks: h = 0.4 -> 0 + 0.4 x 10 = 4; h = 3.6 -> 30 + 0.6 x 10 = 36.
static_assert(percentile_of_sorted(five, 10) == 4.0);
static_assert(percentile_of_sorted(five, 90) == 36.0);

// Four values: h = 3p/100. The median is halfway between the middle two.
static_assert(percentile_of_sorted(four, 50) == 2.5);   // h = 1.5: 2 + 0.5 x 1
static_assert(percentile_of_sorted(four, 25) == 1.75);  // h = 0.75: 1 + 0.75 x 1
static_assert(percentile_of_sorted(four, 75) == 3.25);  // h = 2.25: 3 + 0.25 x 1

// Ties: interpolating between equal values gives that value.
static_assert(percentile_of_sorted(tied, 50) == 2.0);   // h = 1.5 between 2 and 2
static_assert(percentile_of_sorted(tied, 75) == 2.75);  // h = 2.25: 2 + 0.25 x 3

// One value is every percentile.
static_assert(percentile_of_sorted(one, 0) == 7.0);
static_assert(percentile_of_sorted(one, 37) == 7.0);
static_assert(percentile_of_sorted(one, 100) == 7.0);

// Refused: no value, a percent past 100, unsorted values, NaN, infinity.
static_assert(!percentile_of_sorted(std::span<const double>{}, 50).has_value());
static_assert(!percentile_of_sorted(five, 101).has_value());
static_assert(!percentile_of_sorted(unsorted, 50).has_value());
static_assert(!percentile_of_sorted(with_nan, 0).has_value());
static_assert(!percentile_of_sorted(with_infinity, 0).has_value());

// The verdict: steady up to and including 10 %, noisy above, very noisy above 25 %.
static_assert(iteragpu::memory::noisy_above_percent == 10);
static_assert(iteragpu::memory::very_noisy_above_percent == 25);
static_assert(noise_of(0.0) == noise_verdict::steady);
static_assert(noise_of(0.1) == noise_verdict::steady);
static_assert(noise_of(0.1000000001) == noise_verdict::noisy);
static_assert(noise_of(0.25) == noise_verdict::noisy);
static_assert(noise_of(0.2500000001) == noise_verdict::very_noisy);
static_assert(noise_of(std::numeric_limits<double>::infinity()) == noise_verdict::very_noisy);
static_assert(!noise_of(-0.01).has_value());
static_assert(!noise_of(std::numeric_limits<double>::quiet_NaN()).has_value());
static_assert(iteragpu::memory::name_of(noise_verdict::steady) == "steady");
static_assert(iteragpu::memory::name_of(noise_verdict::noisy) == "noisy");
static_assert(iteragpu::memory::name_of(noise_verdict::very_noisy) == "very_noisy");

// The stop reasons' names in JSON.
static_assert(iteragpu::memory::name_of(iteragpu::memory::stop_reason::converged) == "converged");
static_assert(iteragpu::memory::name_of(iteragpu::memory::stop_reason::max_seconds) == "max_seconds");
static_assert(iteragpu::memory::name_of(iteragpu::memory::stop_reason::max_repeats) == "max_repeats");

// Convergence is tested after every one of the first 1024 samples, then
// every 16th up to 2047 (2^(10 - 6)), every 32nd up to 4095, ...
using iteragpu::memory::convergence_tested_at;
static_assert(convergence_tested_at(1) && convergence_tested_at(10) && convergence_tested_at(1023));
static_assert(convergence_tested_at(1024));
static_assert(!convergence_tested_at(1025));
static_assert(!convergence_tested_at(1039));
static_assert(convergence_tested_at(1040));  // 65 x 16
static_assert(convergence_tested_at(2048));
static_assert(!convergence_tested_at(2064));  // 129 x 16, not a multiple of 32
static_assert(convergence_tested_at(2080));   // 65 x 32
static_assert(convergence_tested_at(std::uint64_t{1} << 63U));
static_assert(!convergence_tested_at((std::uint64_t{1} << 63U) + 1U));

// The parameters of the stopping rule are refused with the first rule they
// break, when compiled as at run time; a NaN or an infinity is no bound.
using iteragpu::memory::check_stopping_parameters;
using iteragpu::memory::stopping_errc;
using iteragpu::memory::stopping_parameters;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();
static_assert(check_stopping_parameters(stopping_parameters{}).has_value());
static_assert(check_stopping_parameters({.min_repeats = 0}).error() == stopping_errc::zero_min_repeats);
static_assert(check_stopping_parameters({.min_repeats = 0, .max_repeats = 0, .max_noise = nan}).error() ==
              stopping_errc::zero_min_repeats);
static_assert(check_stopping_parameters({.min_repeats = 8, .max_repeats = 7}).error() ==
              stopping_errc::max_repeats_below_min);
static_assert(check_stopping_parameters({.min_repeats = 7, .max_repeats = 7}).has_value());
static_assert(check_stopping_parameters({.max_noise = 0.0}).error() == stopping_errc::max_noise_not_positive);
static_assert(check_stopping_parameters({.max_noise = nan}).error() == stopping_errc::max_noise_not_positive);
static_assert(check_stopping_parameters({.max_noise = inf}).error() == stopping_errc::max_noise_not_positive);
static_assert(check_stopping_parameters({.max_seconds = std::chrono::duration<double>(-1.0)}).error() ==
              stopping_errc::max_seconds_not_positive);
static_assert(check_stopping_parameters({.max_seconds = std::chrono::duration<double>(nan)}).error() ==
              stopping_errc::max_seconds_not_positive);
static_assert(check_stopping_parameters({.max_seconds = std::chrono::duration<double>(inf)}).error() ==
              stopping_errc::max_seconds_not_positive);

}  // namespace
