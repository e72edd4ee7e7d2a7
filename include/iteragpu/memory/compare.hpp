#ifndef ITERAGPU_MEMORY_COMPARE_HPP
#define ITERAGPU_MEMORY_COMPARE_HPP

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Two measurements side by side, B against A: the memory of every phase row
/// (exact), the time of warm_forward from the confidence intervals of the
/// two medians, the environments and the configurations, and one line that
/// sums it up. Values only: reading the files is report/compare.hpp's.
namespace iteragpu {

// ---------------------------------------------------------------------------
// Time

/// The median of a series with its 95 % confidence interval, which a
/// measurement has from 6 repeats on.
struct median_estimate {
  /// The interval's bounds, in the series' unit.
  struct interval {
    double lower{0};  ///< lower bound
    double upper{0};  ///< upper bound
    /// Equal when every member is equal.
    friend bool operator==(const interval&, const interval&) = default;
  };
  std::size_t count{0};          ///< values in the series
  double median{0};              ///< their median
  std::optional<interval> ci{};  ///< its 95 % interval; nothing with 5 repeats or fewer
  /// Equal when every member is equal.
  friend bool operator==(const median_estimate&, const median_estimate&) = default;
};

/// The median and interval of a summary.
[[nodiscard]] inline median_estimate median_estimate_of(const sample_summary& s) {
  median_estimate e{s.count, s.median, std::nullopt};
  if (s.median_ci) {
    e.ci = median_estimate::interval{s.median_ci->lower, s.median_ci->upper};
  }
  return e;
}

/// B against A.
enum class time_verdict { faster, slower, same, ambiguous };

/// The verdict as the text prints it: "FASTER", "SLOWER", "SAME" or "AMBIGUOUS".
[[nodiscard]] inline std::string_view name_of(time_verdict v) noexcept {
  switch (v) {
    case time_verdict::faster:
      return "FASTER";
    case time_verdict::slower:
      return "SLOWER";
    case time_verdict::same:
      return "SAME";
    case time_verdict::ambiguous:
      return "AMBIGUOUS";
  }
  return "unknown";
}

/// Which step of the rule decided.
enum class time_basis {
  intervals_apart,           ///< FASTER or SLOWER
  overlap_within_tolerance,  ///< SAME
  overlap_beyond_tolerance,  ///< AMBIGUOUS
  no_interval,               ///< AMBIGUOUS: one run has 5 repeats or fewer
  no_reference,              ///< AMBIGUOUS: A's median is 0 and B's is not, no relative change
};

/// Two medians whose intervals overlap are the SAME when they differ by at
/// most this fraction of A's: two runs that each stopped with their
/// interval within the default --max-noise (1 %) of their median can be
/// this far apart and still be consistent with one true median.
inline constexpr double same_time_tolerance = 0.02;

/// The rule of compare_times(), in words, as outputs quote it.
inline constexpr std::string_view time_rule =
    "B against A, from the 95 % confidence intervals of the two medians: FASTER when B's interval lies wholly below "
    "A's, SLOWER when wholly above, SAME when they overlap and the medians differ by at most the tolerance (a "
    "fraction of A's median), AMBIGUOUS when they overlap and differ by more, or when a run has no interval (5 "
    "repeats or fewer)";

/// The verdict on the time of B against A, with what it rests on.
struct time_comparison {
  time_verdict verdict{time_verdict::ambiguous};  ///< B against A
  time_basis basis{time_basis::no_interval};      ///< the step of the rule that decided
  /// (median B - median A) / median A; nothing when A's median is 0 and B's
  /// is not. Both 0 is no change.
  std::optional<double> relative_change{};
  median_estimate a;                      ///< A's median and interval
  median_estimate b;                      ///< B's median and interval
  double tolerance{same_time_tolerance};  ///< the fraction of A's median within which overlapping medians are the SAME
};

/// (b - a) / a; 0 when both are equal, nothing when a is not above 0.
[[nodiscard]] inline std::optional<double> relative_change(double a, double b) noexcept {
  if (a == b) {
    return 0.0;
  }
  if (!(a > 0.0)) {
    return std::nullopt;
  }
  return (b - a) / a;
}

/// The rule of time_rule, in its order.
[[nodiscard]] inline time_comparison compare_times(const median_estimate& a, const median_estimate& b,
                                                   double tolerance = same_time_tolerance) {
  time_comparison c{time_verdict::ambiguous, time_basis::no_interval, relative_change(a.median, b.median), a, b,
                    tolerance};
  if (!a.ci || !b.ci) {
    return c;
  }
  if (b.ci->upper < a.ci->lower || b.ci->lower > a.ci->upper) {
    c.verdict = b.ci->upper < a.ci->lower ? time_verdict::faster : time_verdict::slower;
    c.basis = time_basis::intervals_apart;
    return c;
  }
  if (!c.relative_change) {
    c.basis = time_basis::no_reference;
    return c;
  }
  const bool within = std::abs(*c.relative_change) <= tolerance;
  c.verdict = within ? time_verdict::same : time_verdict::ambiguous;
  c.basis = within ? time_basis::overlap_within_tolerance : time_basis::overlap_beyond_tolerance;
  return c;
}

/// A percentage with one decimal and its sign: "+12.9 %", "-0.3 %".
[[nodiscard]] inline std::string signed_percent(double fraction) {
  std::array<char, 400> digits{};  // any finite double in fixed notation fits
  const auto [end, error] =
      std::to_chars(digits.data(), digits.data() + digits.size(), fraction * 100.0, std::chars_format::fixed, 1);
  if (error != std::errc{}) {
    return "?";
  }
  const std::string number(digits.data(), end);
  return (number.starts_with('-') ? "" : "+") + number + " %";
}

/// Why the rule gave its verdict, in a sentence.
[[nodiscard]] inline std::string describe(const time_comparison& c) {
  const std::string tolerance = signed_percent(c.tolerance).substr(1);  // no sign
  const std::string change = c.relative_change ? signed_percent(*c.relative_change) : std::string("undefined");
  switch (c.basis) {
    case time_basis::intervals_apart:
      return std::string("B's interval lies wholly ") + (c.verdict == time_verdict::faster ? "below" : "above") +
             " A's; B's median is " + change + " from A's";
    case time_basis::overlap_within_tolerance:
      return "the intervals overlap and the medians differ by " + change + ", within " + tolerance;
    case time_basis::overlap_beyond_tolerance:
      return "the intervals overlap but the medians differ by " + change + ", more than " + tolerance;
    case time_basis::no_reference:
      return "the intervals overlap and A's median is 0: no relative change";
    case time_basis::no_interval: {
      std::string who;
      for (const auto& [name, side] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}}) {
        if (!side->ci) {
          who += (who.empty() ? "" : " and ") + std::string(name) + " has " + to_decimal_string(side->count) +
                 (side->count == 1 ? " repeat" : " repeats");
        }
      }
      return "no confidence interval: " + who + ", an interval needs 6 or more";
    }
  }
  return "unknown";
}

// ---------------------------------------------------------------------------
// Memory

/// One byte field of one row that differs: A's value and B's.
struct byte_change {
  std::size_t field{0};  ///< index into prediction::byte_field_names
  std::uint64_t a{0};    ///< A's value
  std::uint64_t b{0};    ///< B's value

  /// b - a, when it fits a signed 64-bit integer (any two counts of a real
  /// device do).
  [[nodiscard]] std::optional<std::int64_t> difference() const noexcept {
    constexpr auto largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (b >= a) {
      return b - a <= largest ? std::optional<std::int64_t>(static_cast<std::int64_t>(b - a)) : std::nullopt;
    }
    return a - b <= largest ? std::optional<std::int64_t>(-static_cast<std::int64_t>(a - b)) : std::nullopt;
  }

  /// "end_allocated_bytes 34743808 -> 34747904 (+4096)".
  [[nodiscard]] std::string describe() const {
    const std::uint64_t magnitude = b >= a ? b - a : a - b;
    return std::string(prediction::byte_field_names[field]) + ' ' + to_decimal_string(a) + " -> " +
           to_decimal_string(b) + " (" + (b >= a ? "+" : "-") + to_decimal_string(magnitude) + ")";
  }
};

/// A phase row whose byte fields differ between the two runs.
struct row_difference {
  phase_kind phase{phase_kind::model_load};  ///< the row's phase
  std::optional<std::uint64_t> repeat{};     ///< the row's repeat, for warm_forward rows
  std::vector<byte_change> fields;           ///< the fields that differ, in the order of prediction::byte_field_names
};

/// "cold_forward", "warm_forward 3".
[[nodiscard]] inline std::string row_name(phase_kind phase, const std::optional<std::uint64_t>& repeat) {
  return std::string(name_of(phase)) + (repeat ? " " + to_decimal_string(*repeat) : std::string());
}

/// The rows are matched by phase and repeat; a warm_forward row that only
/// one run has (the runs made different numbers of repeats) is counted, not
/// compared. Only the six allocator fields are compared: the device's used
/// memory is the whole GPU's and moves with other processes.
struct memory_comparison {
  std::size_t rows_compared{0};                ///< rows present in both runs
  std::vector<row_difference> different_rows;  ///< the compared rows that differ, in A's order
  std::size_t rows_only_in_a{0};               ///< warm_forward rows only A has
  std::size_t rows_only_in_b{0};               ///< warm_forward rows only B has

  /// Whether every compared row is equal.
  [[nodiscard]] bool same() const noexcept { return different_rows.empty(); }
};

/// The phase rows of B against A's, field by field (see memory_comparison).
[[nodiscard]] inline memory_comparison compare_memory(const std::vector<phase_row>& a, const std::vector<phase_row>& b) {
  // A row's key: its phase, and its repeat (none sorts last).
  const auto key = [](const phase_row& row) {
    return std::pair{static_cast<int>(row.phase), row.repeat.value_or(std::numeric_limits<std::uint64_t>::max())};
  };
  std::map<std::pair<int, std::uint64_t>, const phase_row*> rows_of_b;
  for (const auto& row : b) {
    rows_of_b.emplace(key(row), &row);
  }
  memory_comparison m;
  for (const auto& row : a) {
    const auto found = rows_of_b.find(key(row));
    if (found == rows_of_b.end()) {
      ++m.rows_only_in_a;
      continue;
    }
    ++m.rows_compared;
    const auto bytes_a = prediction::byte_fields(row);
    const auto bytes_b = prediction::byte_fields(*found->second);
    row_difference d{row.phase, row.repeat, {}};
    for (std::size_t f = 0; f < bytes_a.size(); ++f) {
      if (bytes_a[f] != bytes_b[f]) {
        d.fields.push_back(byte_change{f, bytes_a[f], bytes_b[f]});
      }
    }
    if (!d.fields.empty()) {
      m.different_rows.push_back(std::move(d));
    }
  }
  m.rows_only_in_b = b.size() - m.rows_compared;
  return m;
}

// ---------------------------------------------------------------------------
// What each run says about itself

/// The shape and passes of a run.
struct run_configuration {
  std::string device;                      ///< "cuda:0"
  std::uint64_t batch{0};                  ///< --batch
  std::uint64_t context{0};                ///< --context
  std::uint64_t width{0};                  ///< --width
  std::string dtype;                       ///< "float32", "bfloat16" or "float16"
  std::uint64_t warmup{0};                 ///< warm-up passes before the measured ones
  std::optional<std::uint64_t> repeats{};  ///< nothing for --repeats auto
};

/// The facts of an environment that can change a result; nothing where the
/// file does not say.
struct run_environment {
  std::optional<std::string> library{};     ///< "iteragpu 0.1.0"
  std::optional<std::string> libtorch{};    ///< LibTorch's version
  std::optional<std::string> cuda_build{};  ///< the CUDA version LibTorch was built with
  std::optional<std::string> gpu{};         ///< the measured device's name
  std::optional<std::string> driver{};      ///< NVML's driver version (schema 2)
};

/// A measurement as compare reads it.
struct compared_run {
  std::int64_t schema_version{0};   ///< the file's schema_version (1 or 2)
  run_configuration configuration;  ///< its shape and passes
  run_environment environment;      ///< its environment
  std::vector<phase_row> phases;    ///< its phase rows, in the protocol's order
  median_estimate seconds;          ///< of warm_forward
  median_estimate gpu_seconds;      ///< of warm_forward
  bool statistics_recorded{false};  ///< read from the file, else computed from the rows (schema 1)
  /// Rows with a readable throttle state, and of those the rows under a
  /// reason other than gpu_idle; nothing where the file does not say.
  std::optional<std::size_t> repeats_with_gpu_state{};
  std::optional<std::size_t> repeats_under_throttling{};  ///< see repeats_with_gpu_state

  /// The warm_forward rows measured.
  [[nodiscard]] std::size_t warm_repeats() const noexcept { return gpu_seconds.count; }
};

/// What comparing one fact of the two environments found.
enum class fact_status { same, different, not_compared };

/// The status as outputs print it: "same", "different" or "not_compared".
[[nodiscard]] inline std::string_view name_of(fact_status s) noexcept {
  switch (s) {
    case fact_status::same:
      return "same";
    case fact_status::different:
      return "different";
    case fact_status::not_compared:
      return "not_compared";
  }
  return "unknown";
}

/// One fact of the environments, A's value beside B's.
struct fact_comparison {
  std::string_view name;                  ///< "library", "libtorch", "cuda_build", "gpu" or "driver"
  std::optional<std::string> a{};         ///< A's value; nothing where its file does not say
  std::optional<std::string> b{};         ///< B's value; nothing where its file does not say
  fact_status status{fact_status::same};  ///< same, different, or not compared
};

/// Library, LibTorch, CUDA build and GPU: a value against none is a
/// difference (a build without LibTorch is not one with it). The driver
/// is compared only when both files have it: a schema-1 file, or a run
/// where NVML was not there, does not say.
[[nodiscard]] inline std::vector<fact_comparison> compare_environments(const run_environment& a,
                                                                      const run_environment& b) {
  const auto fact = [](std::string_view name, const std::optional<std::string>& x,
                       const std::optional<std::string>& y, bool only_when_both) {
    fact_comparison f{name, x, y, x == y ? fact_status::same : fact_status::different};
    if (only_when_both && (!x || !y)) {
      f.status = fact_status::not_compared;
    }
    return f;
  };
  return {fact("library", a.library, b.library, false), fact("libtorch", a.libtorch, b.libtorch, false),
          fact("cuda_build", a.cuda_build, b.cuda_build, false), fact("gpu", a.gpu, b.gpu, false),
          fact("driver", a.driver, b.driver, true)};
}

/// One setting of the configurations that differs, as text.
struct setting_difference {
  std::string_view name;  ///< "device", "batch", "context", "width", "dtype" or "warmup"
  std::string a;          ///< A's value
  std::string b;          ///< B's value
};

/// The settings that change the work: device, shape, dtype and warm-up. The
/// repeats are not among them: they change how well the time is known, not
/// the work of a pass.
[[nodiscard]] inline std::vector<setting_difference> compare_configurations(const run_configuration& a,
                                                                            const run_configuration& b) {
  std::vector<setting_difference> out;
  const auto text = [&](std::string_view name, const std::string& x, const std::string& y) {
    if (x != y) {
      out.push_back(setting_difference{name, x, y});
    }
  };
  const auto number = [&](std::string_view name, std::uint64_t x, std::uint64_t y) {
    text(name, to_decimal_string(x), to_decimal_string(y));
  };
  text("device", a.device, b.device);
  number("batch", a.batch, b.batch);
  number("context", a.context, b.context);
  number("width", a.width, b.width);
  text("dtype", a.dtype, b.dtype);
  number("warmup", a.warmup, b.warmup);
  return out;
}

// ---------------------------------------------------------------------------
// The whole comparison

/// Everything compare says of B against A.
struct comparison {
  memory_comparison memory;                       ///< the phase rows' byte fields
  time_comparison gpu_seconds;                    ///< the one the verdict line quotes
  time_comparison seconds;                        ///< the host-time series of warm_forward
  std::vector<fact_comparison> environment;       ///< every fact, whether it differs or not
  std::vector<setting_difference> configuration;  ///< only the settings that differ
};

/// Compares B against A: memory, both time series, environment and configuration.
[[nodiscard]] inline comparison compare_runs(const compared_run& a, const compared_run& b) {
  return comparison{compare_memory(a.phases, b.phases), compare_times(a.gpu_seconds, b.gpu_seconds),
                    compare_times(a.seconds, b.seconds),
                    compare_environments(a.environment, b.environment),
                    compare_configurations(a.configuration, b.configuration)};
}

/// "SAME (7 rows)", "DIFFERENT (2 of 7 rows; 3 warm_forward rows only in B)".
[[nodiscard]] inline std::string memory_summary(const memory_comparison& m) {
  std::string text = m.same() ? "SAME (" + to_decimal_string(m.rows_compared) + " rows"
                              : "DIFFERENT (" + to_decimal_string(m.different_rows.size()) + " of " +
                                    to_decimal_string(m.rows_compared) + " rows";
  for (const auto& [count, side] : {std::pair{m.rows_only_in_a, "A"}, std::pair{m.rows_only_in_b, "B"}}) {
    if (count > 0) {
      text += "; " + to_decimal_string(count) + " warm_forward " + (count == 1 ? "row" : "rows") + " only in " + side;
    }
  }
  return text + ")";
}

/// The one-line verdict, B against A. The time is the gpu_seconds series.
[[nodiscard]] inline std::string verdict_line(const comparison& c) {
  std::string line = "B against A: memory " + memory_summary(c.memory) + ", time ";
  const auto& t = c.gpu_seconds;
  line += std::string(name_of(t.verdict)) + " (gpu_seconds of warm_forward";
  if (t.basis == time_basis::no_interval) {
    line += ", no confidence interval: 5 repeats or fewer)";
  } else {
    line += ", median " + (t.relative_change ? signed_percent(*t.relative_change) : std::string("undefined")) + ")";
  }
  std::string differing;
  for (const auto& f : c.environment) {
    if (f.status == fact_status::different) {
      differing += (differing.empty() ? "" : ", ") + std::string(f.name);
    }
  }
  line += differing.empty() ? ", environment same" : ", environment differs in " + differing;
  differing.clear();
  for (const auto& s : c.configuration) {
    differing += (differing.empty() ? "" : ", ") + std::string(s.name);
  }
  line += differing.empty() ? ", configuration same" : ", configuration differs in " + differing;
  return line;
}

}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_COMPARE_HPP
