#ifndef ITERAGPU_MEMORY_STOPPING_RULE_HPP
#define ITERAGPU_MEMORY_STOPPING_RULE_HPP

#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include "iteragpu/result.hpp"

/// \file
/// The rule that stops `--repeats auto`: its parameters, their refusals and
/// the decision after each repeat. What the measurement protocol needs of it
/// and nothing more; the statistics it tests convergence with are in
/// memory/statistics.hpp, whose make_stopping_rule() makes a rule.
namespace iteragpu::memory {

/// Why the stopping rule ended the repeats.
enum class stop_reason {
  converged,    ///< the interval of the median is within max_noise of it
  max_seconds,  ///< the time budget is spent
  max_repeats,  ///< the repeat budget is spent
};

/// The name in JSON.
[[nodiscard]] constexpr std::string_view name_of(stop_reason r) noexcept {
  switch (r) {
    case stop_reason::converged:
      return "converged";
    case stop_reason::max_seconds:
      return "max_seconds";
    case stop_reason::max_repeats:
      return "max_repeats";
  }
  return "unknown";
}

/// The most passes of one kind a measurement or a prediction runs: the
/// warm-up passes, the repeats, and the stopping rule's default repeat
/// budget. The command lines (`measure`, `plan`, `sweep`) refuse more, so
/// that no count given by a person makes work without bound.
inline constexpr std::uint64_t pass_limit{10'000};

/// The budgets and the noise target of the stopping rule (`--min-repeats`,
/// `--max-repeats`, `--max-noise`, `--max-seconds`).
struct stopping_parameters {
  std::uint64_t min_repeats{10};          ///< repeats before convergence is tested
  std::uint64_t max_repeats{pass_limit};  ///< the repeat budget
  /// The interval of the median must lie within +-max_noise x median of the
  /// median, both ends: median_interval_reach(summary) <= max_noise.
  double max_noise{0.01};
  std::chrono::duration<double> max_seconds{15.0};  ///< the time budget of the repeats
  friend constexpr bool operator==(const stopping_parameters&, const stopping_parameters&) = default;
};

/// Why stopping parameters were refused.
enum class stopping_errc {
  zero_min_repeats,
  max_repeats_below_min,
  max_noise_not_positive,
  max_seconds_not_positive,
};

/// The rule each refusal broke, in a sentence.
[[nodiscard]] constexpr std::string_view describe(stopping_errc e) noexcept {
  switch (e) {
    case stopping_errc::zero_min_repeats:
      return "min_repeats must be at least 1";
    case stopping_errc::max_repeats_below_min:
      return "max_repeats must be at least min_repeats";
    case stopping_errc::max_noise_not_positive:
      return "max_noise must be a finite number above 0 (0.01 is 1 % of the median)";
    case stopping_errc::max_seconds_not_positive:
      return "max_seconds must be a finite number of seconds above 0";
  }
  return "unknown stopping-rule error";
}

/// Whether the rule tests convergence after `count` samples: after each of
/// the first 1024, then after every 2^(floor(log2 count) - 6)-th, 64 tests
/// per doubling. A test sorts the sample, so testing after every repeat
/// would make a long run quadratic; this way a run converges at most
/// 1/64 (1.6 %) of its repeats after the first count at which it could have.
[[nodiscard]] constexpr bool convergence_tested_at(std::uint64_t count) noexcept {
  if (count <= 1024U) {
    return true;
  }
  const auto step = std::uint64_t{1} << (static_cast<unsigned>(std::bit_width(count)) - 7U);
  return count % step == 0U;
}

/// A success, or the first rule the parameters break: at least one repeat,
/// max_repeats >= min_repeats, max_noise and max_seconds finite and above 0.
[[nodiscard]] constexpr result<void, stopping_errc> check_stopping_parameters(const stopping_parameters& p) noexcept {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  if (p.min_repeats == 0U) {
    return unexpected{stopping_errc::zero_min_repeats};
  }
  if (p.max_repeats < p.min_repeats) {
    return unexpected{stopping_errc::max_repeats_below_min};
  }
  // Also false for a NaN.
  if (!(p.max_noise > 0.0 && p.max_noise < infinity)) {
    return unexpected{stopping_errc::max_noise_not_positive};
  }
  if (!(p.max_seconds.count() > 0.0 && p.max_seconds.count() < infinity)) {
    return unexpected{stopping_errc::max_seconds_not_positive};
  }
  return {};
}

class stopping_rule;

/// A rule over parameters that check_stopping_parameters() accepts, or the first rule they
/// break. Defined in memory/statistics.hpp, with the convergence test it
/// gives the rule: a file that makes a rule includes that header.
[[nodiscard]] result<stopping_rule, stopping_errc> make_stopping_rule(const stopping_parameters& p) noexcept;

/// Decides, after each repeat, whether to go on. A pure function of the
/// samples so far and the time spent, which the caller measures: no clock.
/// Made by make_stopping_rule() (memory/statistics.hpp), which gives it its
/// convergence test, so that the protocol, which only asks the rule whether
/// to go on, includes none of the statistics.
class stopping_rule {
 public:
  /// The test of convergence: whether the interval of the median of
  /// `seconds` lies within `max_noise` x median of the median.
  using convergence_test = bool (*)(std::span<const double> seconds, double max_noise);

  /// The parameters the rule was made with.
  [[nodiscard]] const stopping_parameters& parameters() const noexcept { return parameters_; }

  /// Nothing to go on, or the reason to stop. In order:
  ///  - never before the first sample;
  ///  - `converged` once there are at least min_repeats samples and the
  ///    interval of the median is within max_noise (tested at the counts of
  ///    convergence_tested_at, and always when a budget is spent, so that a
  ///    run stopped by a budget says converged if it had);
  ///  - `max_repeats` at max_repeats samples;
  ///  - `max_seconds` once `elapsed` reaches max_seconds, even before
  ///    min_repeats. An elapsed time that is negative or not a number is a
  ///    broken clock and counts as spent, so that the run ends.
  /// A sample that cannot be summarized (a value negative or not finite)
  /// never converges: the budgets end the run.
  [[nodiscard]] std::optional<stop_reason> decide(std::span<const double> seconds,
                                                  std::chrono::duration<double> elapsed) const;

 private:
  friend result<stopping_rule, stopping_errc> make_stopping_rule(const stopping_parameters& p) noexcept;
  constexpr stopping_rule(const stopping_parameters& p, convergence_test converged) noexcept
      : parameters_(p), converged_(converged) {}

  stopping_parameters parameters_;
  convergence_test converged_;
};

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/stopping_rule.ipp"
#endif

#endif  // ITERAGPU_MEMORY_STOPPING_RULE_HPP
