#ifndef ITERAGPU_SWEEP_OUTCOME_HPP
#define ITERAGPU_SWEEP_OUTCOME_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// What became of a point: its outcome, the figures behind it, and the
/// rules that decide, before a point runs, that it cannot fit (the device's
/// free memory, the host's available memory, a smaller point that already
/// ran out of memory).
namespace iteragpu::sweep {

/// Whether a record's figures were measured or only predicted: a
/// prediction is never shown as a measurement.
enum class record_kind {
  measurement,  ///< a `measure` process ran the point on a GPU
  prediction    ///< --predict-only: nothing ran; the figures are the simulated allocator's
};

/// "measurement" or "prediction", as records and summary.csv write the kind.
[[nodiscard]] inline std::string_view name_of(record_kind k) noexcept {
  return k == record_kind::measurement ? "measurement" : "prediction";
}

/// What became of a point: run, predicted, skipped before it ran (one kind
/// per rule), or failed.
enum class outcome_kind {
  measured,                ///< `measure` exited 0 and its result was read
  predicted,               ///< --predict-only: the prediction fits (or no capacity was given)
  skipped_device_memory,   ///< predicted peak reserved + outside the allocator > the device's free memory
  skipped_host_memory,     ///< the float32 build on the CPU > the host's available memory
  skipped_after_failure,   ///< a point no larger on any axis ran out of memory (exit 3)
  skipped_unpredictable,   ///< the shape is past what LibTorch can index: nothing can run it
  out_of_memory,           ///< exit 3 with "out of memory" in its message
  failed_while_measuring,  ///< exit 3 for another reason
  failed,                  ///< any other exit, or a result that could not be read
};

/// Every outcome with its name in records and summary.csv (the enumerator's name).
inline constexpr std::array<std::pair<outcome_kind, std::string_view>, 9> outcome_names{{
    {outcome_kind::measured, "measured"},
    {outcome_kind::predicted, "predicted"},
    {outcome_kind::skipped_device_memory, "skipped_device_memory"},
    {outcome_kind::skipped_host_memory, "skipped_host_memory"},
    {outcome_kind::skipped_after_failure, "skipped_after_failure"},
    {outcome_kind::skipped_unpredictable, "skipped_unpredictable"},
    {outcome_kind::out_of_memory, "out_of_memory"},
    {outcome_kind::failed_while_measuring, "failed_while_measuring"},
    {outcome_kind::failed, "failed"},
}};

/// The outcome's name in records and summary.csv, as outcome_names gives it.
[[nodiscard]] std::string_view name_of(outcome_kind k) noexcept;

/// The outcome of that name in outcome_names, or nothing.
[[nodiscard]] std::optional<outcome_kind> parse_outcome(std::string_view text) noexcept;

/// Whether the outcome is one of the four skips: a rule decided before the
/// point ran that it could not, and no process was started.
[[nodiscard]] bool is_skip(outcome_kind k) noexcept;

/// Whether the outcome cuts off the points at least as large on every axis
/// (out_of_memory and failed_while_measuring). Exit 3 is a failure while
/// measuring, out of memory above all: a point at least as large on every
/// axis would fail the same way.
[[nodiscard]] inline bool stops_larger_points(outcome_kind k) noexcept {
  return k == outcome_kind::out_of_memory || k == outcome_kind::failed_while_measuring;
}

// ---- predictions -----------------------------------------------------------

/// The host memory the model takes while `measure` builds it: LibTorch
/// builds the network on the CPU in float32 (parameters x 4 bytes), then
/// moves it parameter by parameter; a blocking copy to another dtype
/// converts on the CPU first, so while the first weight matrix [4w, w]
/// moves, a converted copy of it exists beside the float32 model. The
/// process's own libraries (LibTorch, the CUDA runtime) are not counted.
struct host_need {
  std::uint64_t float32_build{0};   ///< the float32 model on the CPU, in bytes: parameters x 4
  std::uint64_t converted_copy{0};  ///< the [4w, w] matrix in the point's dtype, in bytes; 0 for float32
  std::uint64_t total{0};           ///< float32_build + converted_copy
  friend bool operator==(const host_need&, const host_need&) = default;
};

/// The host need of building the model of `shape` for `dtype` (see
/// host_need); nothing when the float32 model passes what LibTorch can index
/// (summarize_model()) or the total passes 64 bits.

[[nodiscard]] std::optional<host_need> predict_host_need(const memory::synthetic_shape& shape,
                                                         memory::element_type dtype);

/// What the simulated allocator predicts for a point, and its host need.
struct point_prediction {
  std::uint64_t peak_allocated_bytes{0};  ///< the largest peak allocated of the rows
  std::uint64_t peak_reserved_bytes{0};   ///< the largest peak reserved of the rows
  host_need host;                         ///< the host memory of the model's build
  std::vector<phase_row> rows;            ///< for the prediction file; empty in a record read back
};

/// Why a point cannot be predicted: the host's figures of its model pass
/// 2^63-1 bytes (no failure), or the simulation refused its shape (the
/// failure it gave).
struct point_prediction_error {
  std::optional<memory::prediction::prediction_error> failure;  ///< nothing: the host's figures are too large
  friend bool operator==(const point_prediction_error&, const point_prediction_error&) = default;
};

/// The words of `e`, as a skipped point's record gives them after
/// "skipped: " (the record's reason is part of its file, so the library
/// writes it; report/sweep_errors.hpp uses the same words).
[[nodiscard]] std::string reason_of(const point_prediction_error& e);

/// The prediction of a point's phase rows (prediction/synthetic_prediction.hpp,
/// with no capacity: the peak the point would reach on an unbounded device).
/// With --repeats auto the count is not known before the run; every warm
/// pass allocates alike, so one repeat predicts the same peaks. The error
/// says why the shape cannot be predicted (a dimension of 0, or a size past
/// what LibTorch can index).
[[nodiscard]] result<point_prediction, point_prediction_error> predict_point(
    const sweep_point& p, const memory::prediction::blas_workspaces& w);

// ---- what ran -------------------------------------------------------------

/// A median in seconds with its 95 % confidence interval, when the sample
/// allows one (statistics.hpp: more than 5 values).
struct timing_summary {
  double median{0};             ///< the median, in seconds
  std::optional<double> lower;  ///< the interval's lower end; nothing without an interval
  std::optional<double> upper;  ///< the interval's upper end; nothing without an interval
  friend bool operator==(const timing_summary&, const timing_summary&) = default;
};

/// The figures of a measured point, read from the result file of its
/// `measure` process (or from its record).
struct measured_figures {
  std::uint64_t peak_allocated_bytes{0};  ///< the largest peak allocated of the rows
  std::uint64_t peak_reserved_bytes{0};   ///< the largest peak reserved of the rows
  /// The largest device-used minus reserved of any row end or baseline,
  /// where the rows carry the device's used memory: the CUDA context and
  /// libraries outside the allocator, and other processes on the device.
  /// Nothing when no row carries it.
  std::optional<std::uint64_t> outside_allocator_bytes;
  std::optional<timing_summary> warm_seconds;       ///< host wall time of a warm pass; nothing without one
  std::optional<timing_summary> warm_gpu_seconds;   ///< device time of a warm pass; nothing without one
  double phase_seconds{0};                          ///< the sum of every row's seconds
  std::optional<std::string> gpu_name;              ///< the GPU's name, as the result's environment gives it
  std::optional<std::uint64_t> device_total_bytes;  ///< the GPU's memory, as the result's environment gives it
  friend bool operator==(const measured_figures&, const measured_figures&) = default;
};

/// How a process that has no exit status ended: "ended by signal N", or,
/// when waitpid() could report nothing (no such child), "ended without a
/// readable exit status".
[[nodiscard]] std::string end_without_exit_text(std::optional<int> signal);

/// The point's process as the sweep saw it.
struct process_figures {
  std::optional<int> exit_code;            ///< its exit status; nothing when a signal ended it
  std::optional<int> signal;               ///< the signal that ended it; nothing when it exited
  std::optional<std::string> stderr_line;  ///< its first line on stderr, when it wrote one
  double wall_seconds{0};                  ///< from the spawn to the end of the wait
  friend bool operator==(const process_figures&, const process_figures&) = default;
};

/// The result of one point, whatever its outcome; one record file each.
struct point_record {
  record_kind kind{record_kind::measurement};       ///< measured or predicted: the sweep's kind
  sweep_point point;                                ///< the point of the plan
  std::optional<device_index> device;               ///< the GPU it was given; measurements only
  outcome_kind outcome{outcome_kind::failed};       ///< what became of it
  std::string reason;                               ///< one line: why skipped or failed; empty otherwise
  std::optional<std::string> gpu_name;              ///< the GPU's name, read before the point or from its result
  std::optional<std::uint64_t> device_free_bytes;   ///< read before the point (--memory-gib for predictions)
  std::optional<std::uint64_t> device_total_bytes;  ///< read before the point (--memory-gib for predictions)
  /// The host's available memory the host rule used, less what the points
  /// still running were predicted to take; nothing when the rule was not
  /// applied.
  std::optional<std::uint64_t> host_available_bytes;
  std::optional<point_prediction> prediction;      ///< nothing when the shape cannot be predicted
  std::uint64_t outside_allocator_bytes{0};        ///< the figure the fit rule added
  memory::prediction::blas_workspaces workspaces;  ///< the sizes the prediction used
  std::optional<measured_figures> measured;        ///< the figures of its result; measured points only
  std::optional<process_figures> process;          ///< its `measure` process; nothing when none ran
};

// ---- the rules --------------------------------------------------------------

/// "skipped: predicted N bytes > free M bytes" when the predicted peak
/// reserved plus the memory outside the allocator exceeds the device's free
/// memory (or passes 64 bits); nothing when it fits.
[[nodiscard]] std::optional<std::string> device_skip_reason(const point_prediction& p, byte_count outside,
                                                            std::uint64_t free_bytes);

/// "skipped: predicted host N bytes > available M bytes" when the host need
/// exceeds the host's available memory; nothing when it fits.
[[nodiscard]] std::optional<std::string> host_skip_reason(const host_need& need, std::uint64_t available);

/// Whether `larger` is at least `smaller` on every axis that can only add
/// memory: batch, context, width and bytes per element.
[[nodiscard]] bool at_least_as_large(const sweep_point& larger, const sweep_point& smaller) noexcept;

/// The first of `failures` whose outcome stops larger points
/// (stops_larger_points()) and that `p` is at least as large as, as the
/// reason to skip `p`; nothing when there is none.
[[nodiscard]] std::optional<std::string> cut_off_reason(const sweep_point& p,
                                                        const std::vector<point_record>& failures);

/// The outcome of exit 3: out_of_memory when the process's first line on
/// stderr says "out of memory" (in any case), failed_while_measuring
/// otherwise.
[[nodiscard]] outcome_kind exit_3_outcome(std::string_view stderr_line);

// ---- the host's available memory ----------------------------------------------

/// MemAvailable of /proc/meminfo in bytes ("MemAvailable:   123 kB"): the
/// kernel's estimate of what can be allocated without swapping. Nothing when
/// the line is missing, is not in kB or passes 64 bits in bytes.
[[nodiscard]] std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo);

/// The host's available memory in bytes, from at most 1 MiB of `meminfo`
/// (parse_mem_available()); nothing when the file cannot be read or says
/// no such figure.
[[nodiscard]] std::optional<std::uint64_t> read_mem_available(const std::filesystem::path& meminfo = "/proc/meminfo");

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/outcome.ipp"
#endif

#endif  // ITERAGPU_SWEEP_OUTCOME_HPP
