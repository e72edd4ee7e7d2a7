#ifndef ITERAGPU_SWEEP_SUMMARY_HPP
#define ITERAGPU_SWEEP_SUMMARY_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/text.hpp"

/// \file
/// summary.csv: one row per point of one or more sweeps, with its
/// parameters, its outcome, the measured and predicted figures side by side
/// (a prediction's row leaves the measured columns empty and says
/// `prediction` in its kind column), the timing and the process's overhead.
namespace iteragpu::sweep {

/// A point of a plan and its record, if it has one yet; `source` names the
/// sweep's folder (its last component: no path of the user's is written).
struct summary_entry {
  std::string source;                  ///< the sweep folder's last component
  std::size_t plan_size{0};            ///< the points of its plan (for its file names)
  sweep_point point;                   ///< the point of the plan
  std::optional<point_record> record;  ///< its record; nothing while it has no result
};

/// Floating-point operations of one forward pass: two matrix products of
/// rows x width x 4 width multiply-adds each (2 operations per
/// multiply-add); the bias additions and GELU are left out.
[[nodiscard]] double forward_flops(const memory::synthetic_shape& s);

/// TFLOP/s at the median warm pass's GPU time (10^12 operations per
/// second, from forward_flops()); nothing without a positive median GPU time.
[[nodiscard]] std::optional<double> tflops(const point_record& r);

/// The process's wall time less the time of its phases: starting the
/// program, loading its libraries, describing the environment, writing the
/// result. Nothing unless the record has both its process and its measured
/// figures.
[[nodiscard]] std::optional<double> overhead_seconds(const point_record& r);

/// Bytes in GiB (2^30) with one decimal, rounded half up: "23.4 GiB".
[[nodiscard]] std::string gib_text(std::uint64_t bytes);

/// Seconds with two decimals, rounded: "12.34 s"; a negative or non-finite
/// time reads "0.00 s".
[[nodiscard]] std::string seconds_text(double seconds);

/// The shortest text that reads back as the same double; empty for an
/// infinity or a NaN.
[[nodiscard]] std::string number_text(double v);

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
/// end, with its quotes doubled.
[[nodiscard]] std::string csv_field(std::string_view text);

/// The header of summary.csv: its 35 columns, in order.
inline constexpr std::array<std::string_view, 35> summary_columns{
    "source",
    "index",
    "kind",
    "outcome",
    "reason",
    "gpu_name",
    "device",
    "batch",
    "context",
    "width",
    "dtype",
    "warmup",
    "repeats",
    "measured_peak_allocated_bytes",
    "measured_peak_reserved_bytes",
    "predicted_peak_allocated_bytes",
    "predicted_peak_reserved_bytes",
    "outside_allocator_bytes_assumed",
    "outside_allocator_bytes_measured",
    "predicted_host_bytes",
    "host_available_bytes",
    "device_free_bytes",
    "device_total_bytes",
    "warm_seconds_median",
    "warm_seconds_ci_lower",
    "warm_seconds_ci_upper",
    "warm_gpu_seconds_median",
    "warm_gpu_seconds_ci_lower",
    "warm_gpu_seconds_ci_upper",
    "tflops",
    "process_wall_seconds",
    "process_overhead_seconds",
    "exit_code",
    "signal",
    "result_file",
};

/// The cells of one row, in the order of summary_columns, not yet quoted
/// (csv_field()); a figure the record lacks is an empty cell. A point without
/// a record yet has the outcome `no_result` and its parameters only.
[[nodiscard]] std::vector<std::string> summary_cells(const summary_entry& e);

/// The whole of summary.csv: the header, then one line per entry, each line
/// ending with a line feed.
[[nodiscard]] std::string summary_csv(const std::vector<summary_entry>& entries);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/summary.ipp"
#endif

#endif  // ITERAGPU_SWEEP_SUMMARY_HPP
