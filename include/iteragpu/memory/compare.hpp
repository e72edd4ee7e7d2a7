#ifndef ITERAGPU_MEMORY_COMPARE_HPP
#define ITERAGPU_MEMORY_COMPARE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
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
namespace iteragpu::memory {

// ---------------------------------------------------------------------------
// Time

/// The median of a series with its 95 % confidence interval, which a
/// measurement has from 6 repeats on.
struct median_estimate {
  /// The interval's bounds, in the series' unit.
  struct interval {
    double lower{0};  ///< lower bound
    double upper{0};  ///< upper bound
    friend bool operator==(const interval&, const interval&) = default;
  };
  std::size_t count{0};          ///< values in the series
  double median{0};              ///< their median
  std::optional<interval> ci{};  ///< its 95 % interval; nothing with 5 repeats or fewer
  friend bool operator==(const median_estimate&, const median_estimate&) = default;
};

/// The median and interval of a summary.
[[nodiscard]] median_estimate median_estimate_of(const sample_summary& s);

/// B against A.
enum class time_verdict { faster, slower, same, ambiguous };

/// The verdict as the text prints it: "FASTER", "SLOWER", "SAME" or "AMBIGUOUS".
[[nodiscard]] std::string_view name_of(time_verdict v) noexcept;

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
[[nodiscard]] std::optional<double> relative_change(double a, double b) noexcept;

/// The rule of time_rule, in its order.
[[nodiscard]] time_comparison compare_times(const median_estimate& a, const median_estimate& b,
                                            double tolerance = same_time_tolerance);

/// A percentage with one decimal and its sign: "+12.9 %", "-0.3 %".
[[nodiscard]] std::string signed_percent(double fraction);

/// Why the rule gave its verdict, in a sentence.
[[nodiscard]] std::string describe(const time_comparison& c);

// ---------------------------------------------------------------------------
// Memory

/// One byte field of one row that differs: A's value and B's.
struct byte_change {
  std::size_t field{0};  ///< index into prediction::byte_field_names
  std::uint64_t a{0};    ///< A's value
  std::uint64_t b{0};    ///< B's value

  /// b - a, when it fits a signed 64-bit integer (any two counts of a real
  /// device do).
  [[nodiscard]] std::optional<std::int64_t> difference() const noexcept;

  /// "end_allocated_bytes 34743808 -> 34747904 (+4096)".
  [[nodiscard]] std::string describe() const;
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
[[nodiscard]] memory_comparison compare_memory(const std::vector<phase_row>& a, const std::vector<phase_row>& b);

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
  /// The measured device's memory (environment.device.total_memory_bytes);
  /// not compared, but shown where a sweep reads the file.
  std::optional<std::uint64_t> device_total_bytes{};
};

/// A run of the protocol as its measurement file records it, read by the
/// one reader of that file (memory/files/measurement_file.hpp): what compare
/// compares, what a sweep derives a point's figures from
/// (sweep::files::figures_of()) and what a memory need is derived from
/// (need_of_measurement()).
struct measured_run {
  std::int64_t schema_version{0};  ///< the file's schema_version (1 or 2)
  /// A run of the synthetic network; false for a measurement of the
  /// user's own module (its document has a `workload`), whose
  /// configuration has no batch, context, width or dtype (0 and empty).
  bool synthetic{true};
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
[[nodiscard]] std::string_view name_of(fact_status s) noexcept;

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
[[nodiscard]] std::vector<fact_comparison> compare_environments(const run_environment& a, const run_environment& b);

/// One setting of the configurations that differs, as text.
struct setting_difference {
  std::string_view name;  ///< "device", "batch", "context", "width", "dtype" or "warmup"
  std::string a;          ///< A's value
  std::string b;          ///< B's value
};

/// The settings that change the work: device, shape, dtype and warm-up. The
/// repeats are not among them: they change how well the time is known, not
/// the work of a pass.
[[nodiscard]] std::vector<setting_difference> compare_configurations(const run_configuration& a,
                                                                     const run_configuration& b);

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
[[nodiscard]] comparison compare_runs(const measured_run& a, const measured_run& b);

/// "SAME (7 rows)", "DIFFERENT (2 of 7 rows; 3 warm_forward rows only in B)".
[[nodiscard]] std::string memory_summary(const memory_comparison& m);

/// The one-line verdict, B against A. The time is the gpu_seconds series.
[[nodiscard]] std::string verdict_line(const comparison& c);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/compare.ipp"
#endif

#endif  // ITERAGPU_MEMORY_COMPARE_HPP
