#ifndef ITERAGPU_SWEEP_OUTCOME_HPP
#define ITERAGPU_SWEEP_OUTCOME_HPP

#include <algorithm>
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
#include "iteragpu/memory/device.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
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
[[nodiscard]] inline std::string_view name_of(outcome_kind k) noexcept {
  for (const auto& [kind, name] : outcome_names) {
    if (kind == k) {
      return name;
    }
  }
  return "failed";
}

/// The outcome of that name in outcome_names, or nothing.
[[nodiscard]] inline std::optional<outcome_kind> parse_outcome(std::string_view text) noexcept {
  for (const auto& [kind, name] : outcome_names) {
    if (name == text) {
      return kind;
    }
  }
  return std::nullopt;
}

/// Whether the outcome is one of the four skips: a rule decided before the
/// point ran that it could not, and no process was started.
[[nodiscard]] inline bool is_skip(outcome_kind k) noexcept {
  return k == outcome_kind::skipped_device_memory || k == outcome_kind::skipped_host_memory ||
         k == outcome_kind::skipped_after_failure || k == outcome_kind::skipped_unpredictable;
}

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
  /// Equal when every member is equal.
  friend bool operator==(const host_need&, const host_need&) = default;
};

/// The host need of building the model of `shape` for `dtype` (see
/// host_need); nothing when the float32 model passes what LibTorch can index
/// (summarize_model()) or the total passes 64 bits.

[[nodiscard]] inline std::optional<host_need> predict_host_need(const synthetic_shape& shape, element_type dtype) {
  const auto build = summarize_model(shape, element_type::float32);
  if (!build) {
    return std::nullopt;
  }
  host_need need{build->parameter_bytes, 0, build->parameter_bytes};
  if (dtype != element_type::float32) {
    // [4w, w] elements, within int64 since the whole float32 model is.
    need.converted_copy = shape.width * hidden_multiplier * shape.width * bytes_per_element(dtype);
    const auto total = checked_add(need.float32_build, need.converted_copy);
    if (!total) {
      return std::nullopt;
    }
    need.total = *total;
  }
  return need;
}

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
struct unpredictable_point {
  std::optional<prediction::prediction_failure> failure;  ///< nothing: the host's figures are too large
  /// Equal when every member is equal.
  friend bool operator==(const unpredictable_point&, const unpredictable_point&) = default;
};

/// The words of `e`, as a skipped point's record gives them after
/// "skipped: " (the record's reason is part of its file, so the library
/// writes it; report/sweep_errors.hpp uses the same words).
[[nodiscard]] inline std::string reason_of(const unpredictable_point& e) {
  return e.failure ? e.failure->message : std::string("the model or its activations would take more than 2^63-1 bytes");
}

/// The prediction of a point's phase rows (prediction/synthetic_prediction.hpp,
/// with no capacity: the peak the point would reach on an unbounded device).
/// With --repeats auto the count is not known before the run; every warm
/// pass allocates alike, so one repeat predicts the same peaks. The error
/// says why the shape cannot be predicted (a dimension of 0, or a size past
/// what LibTorch can index).
[[nodiscard]] inline result<point_prediction, unpredictable_point> predict_point(const sweep_point& p,
                                                                                const prediction::blas_workspaces& w) {
  const auto host = predict_host_need(p.shape, p.dtype);
  if (!host) {
    return unexpected{unpredictable_point{}};
  }
  const protocol_plan plan{p.warmup, p.repeats.count.value_or(1)};
  auto rows = prediction::predict_synthetic(p.shape, p.dtype, w, plan);
  if (!rows.has_value()) {
    return unexpected{unpredictable_point{rows.error()}};
  }
  point_prediction out;
  out.host = *host;
  for (const auto& row : *rows) {
    out.peak_allocated_bytes = std::max(out.peak_allocated_bytes, row.peak_allocated_bytes);
    out.peak_reserved_bytes = std::max(out.peak_reserved_bytes, row.peak_reserved_bytes);
  }
  out.rows = std::move(*rows);
  return out;
}

// ---- what ran -------------------------------------------------------------

/// A median in seconds with its 95 % confidence interval, when the sample
/// allows one (statistics.hpp: more than 5 values).
struct timing_summary {
  double median{0};             ///< the median, in seconds
  std::optional<double> lower;  ///< the interval's lower end; nothing without an interval
  std::optional<double> upper;  ///< the interval's upper end; nothing without an interval
  /// Equal when every member is equal.
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
  /// Equal when every member is equal.
  friend bool operator==(const measured_figures&, const measured_figures&) = default;
};

/// How a process that has no exit status ended: "ended by signal N", or,
/// when waitpid() could report nothing (no such child), "ended without a
/// readable exit status".
[[nodiscard]] inline std::string end_without_exit_text(std::optional<int> signal) {
  return signal ? "ended by signal " + std::to_string(*signal) : std::string("ended without a readable exit status");
}

/// The point's process as the sweep saw it.
struct process_figures {
  std::optional<int> exit_code;            ///< its exit status; nothing when a signal ended it
  std::optional<int> signal;               ///< the signal that ended it; nothing when it exited
  std::optional<std::string> stderr_line;  ///< its first line on stderr, when it wrote one
  double wall_seconds{0};                  ///< from the spawn to the end of the wait
  /// Equal when every member is equal.
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
  std::optional<point_prediction> prediction;  ///< nothing when the shape cannot be predicted
  std::uint64_t outside_allocator_bytes{0};    ///< the figure the fit rule added
  prediction::blas_workspaces workspaces;      ///< the sizes the prediction used
  std::optional<measured_figures> measured;    ///< the figures of its result; measured points only
  std::optional<process_figures> process;      ///< its `measure` process; nothing when none ran
};

// ---- the rules --------------------------------------------------------------

/// "skipped: predicted N bytes > free M bytes" when the predicted peak
/// reserved plus the memory outside the allocator exceeds the device's free
/// memory (or passes 64 bits); nothing when it fits.
[[nodiscard]] inline std::optional<std::string> device_skip_reason(const point_prediction& p, byte_count outside,
                                                                   std::uint64_t free_bytes) {
  const auto need = checked_add(p.peak_reserved_bytes, outside.value);
  if (need && *need <= free_bytes) {
    return std::nullopt;
  }
  return "skipped: predicted " + (need ? to_decimal_string(*need) : std::string("more than 2^64")) + " bytes > free " +
         to_decimal_string(free_bytes) + " bytes (peak reserved " + to_decimal_string(p.peak_reserved_bytes) +
         " + outside the allocator " + to_decimal_string(outside.value) + ")";
}

/// "skipped: predicted host N bytes > available M bytes" when the host need
/// exceeds the host's available memory; nothing when it fits.
[[nodiscard]] inline std::optional<std::string> host_skip_reason(const host_need& need, std::uint64_t available) {
  if (need.total <= available) {
    return std::nullopt;
  }
  return "skipped: predicted host " + to_decimal_string(need.total) + " bytes > available " +
         to_decimal_string(available) + " bytes (float32 build on the CPU " + to_decimal_string(need.float32_build) +
         " + converted copy " + to_decimal_string(need.converted_copy) + ")";
}

/// Whether `larger` is at least `smaller` on every axis that can only add
/// memory: batch, context, width and bytes per element.
[[nodiscard]] inline bool at_least_as_large(const sweep_point& larger, const sweep_point& smaller) noexcept {
  return larger.shape.batch >= smaller.shape.batch && larger.shape.context >= smaller.shape.context &&
         larger.shape.width >= smaller.shape.width &&
         bytes_per_element(larger.dtype) >= bytes_per_element(smaller.dtype);
}

/// The first of `failures` whose outcome stops larger points
/// (stops_larger_points()) and that `p` is at least as large as, as the
/// reason to skip `p`; nothing when there is none.
[[nodiscard]] inline std::optional<std::string> cut_off_reason(const sweep_point& p,
                                                               const std::vector<point_record>& failures) {
  for (const auto& f : failures) {
    if (stops_larger_points(f.outcome) && at_least_as_large(p, f.point)) {
      return "skipped: point " + to_decimal_string(f.point.index) + " (" + describe(f.point) + ") ended with " +
             std::string(name_of(f.outcome)) +
             " and this point is at least as large in batch, context, width and bytes per element";
    }
  }
  return std::nullopt;
}

/// The outcome of exit 3: out_of_memory when the process's first line on
/// stderr says "out of memory" (in any case), failed_while_measuring
/// otherwise.
[[nodiscard]] inline outcome_kind exit_3_outcome(std::string_view stderr_line) {
  std::string lower(stderr_line);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return lower.find("out of memory") != std::string::npos ? outcome_kind::out_of_memory
                                                           : outcome_kind::failed_while_measuring;
}

// ---- the host's available memory ----------------------------------------------

/// MemAvailable of /proc/meminfo in bytes ("MemAvailable:   123 kB"): the
/// kernel's estimate of what can be allocated without swapping. Nothing when
/// the line is missing, is not in kB or passes 64 bits in bytes.
[[nodiscard]] inline std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo) {
  constexpr std::string_view key = "MemAvailable:";
  std::size_t at = 0;
  while (at < meminfo.size()) {
    const std::size_t end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(key)) {
      continue;
    }
    line.remove_prefix(key.size());
    while (!line.empty() && line.front() == ' ') {
      line.remove_prefix(1);
    }
    if (!line.ends_with(" kB")) {
      return std::nullopt;
    }
    const auto kib = parse_unsigned(line.substr(0, line.size() - 3));
    const auto bytes = kib.has_value() ? checked_mul<std::uint64_t>(*kib, 1024) : std::nullopt;
    return bytes;
  }
  return std::nullopt;
}

/// The host's available memory in bytes, from at most 1 MiB of `meminfo`
/// (parse_mem_available()); nothing when the file cannot be read or says
/// no such figure.
[[nodiscard]] inline std::optional<std::uint64_t> read_mem_available(
    const std::filesystem::path& meminfo = "/proc/meminfo") {
  const auto text = read_file_within(meminfo, std::size_t{1} << 20U);
  return text.has_value() ? parse_mem_available(*text) : std::nullopt;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_OUTCOME_HPP
