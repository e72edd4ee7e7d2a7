#ifndef ITERAGPU_SWEEP_SUMMARY_HPP
#define ITERAGPU_SWEEP_SUMMARY_HPP

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
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
[[nodiscard]] inline double forward_flops(const synthetic_shape& s) {
  const auto rows = static_cast<double>(s.batch) * static_cast<double>(s.context);
  const auto w = static_cast<double>(s.width);
  return 2.0 * 2.0 * rows * w * static_cast<double>(hidden_multiplier) * w;
}

/// TFLOP/s at the median warm pass's GPU time (10^12 operations per
/// second, from forward_flops()); nothing without a positive median GPU time.
[[nodiscard]] inline std::optional<double> tflops(const point_record& r) {
  if (!r.measured || !r.measured->warm_gpu_seconds || !(r.measured->warm_gpu_seconds->median > 0)) {
    return std::nullopt;
  }
  return forward_flops(r.point.shape) / r.measured->warm_gpu_seconds->median / 1e12;
}

/// The process's wall time less the time of its phases: starting the
/// program, loading its libraries, describing the environment, writing the
/// result. Nothing unless the record has both its process and its measured
/// figures.
[[nodiscard]] inline std::optional<double> overhead_seconds(const point_record& r) {
  if (!r.process || !r.measured) {
    return std::nullopt;
  }
  return r.process->wall_seconds - r.measured->phase_seconds;
}

/// Bytes in GiB (2^30) with one decimal, rounded half up: "23.4 GiB".
[[nodiscard]] inline std::string gib_text(std::uint64_t bytes) {
  std::uint64_t whole = bytes >> 30U;
  const std::uint64_t rest = bytes & ((std::uint64_t{1} << 30U) - 1U);
  std::uint64_t tenth = (rest * 10U + (std::uint64_t{1} << 29U)) >> 30U;  // rest * 10 < 2^34
  if (tenth == 10) {
    ++whole;
    tenth = 0;
  }
  return to_decimal_string(whole) + "." + to_decimal_string(tenth) + " GiB";
}

/// A size for people: gib_text() from 0.1 GiB on, so that no size reads
/// "0.0 GiB"; below, MiB (2^20) with one decimal rounded half up ("34.0
/// MiB"); below 0.1 MiB, whole bytes ("1 byte", "512 bytes").
[[nodiscard]] inline std::string size_text(std::uint64_t bytes) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30U;
  constexpr std::uint64_t mib = std::uint64_t{1} << 20U;
  if (bytes >= gib / 10U + 1U) {  // 0.1 GiB is 107374182.4 bytes
    return gib_text(bytes);
  }
  if (bytes >= mib / 10U + 1U) {  // 0.1 MiB is 104857.6 bytes
    std::uint64_t whole = bytes >> 20U;
    std::uint64_t tenth = ((bytes & (mib - 1U)) * 10U + (mib >> 1U)) >> 20U;
    if (tenth == 10) {
      ++whole;
      tenth = 0;
    }
    return to_decimal_string(whole) + "." + to_decimal_string(tenth) + " MiB";
  }
  return bytes_text(bytes);
}

/// Seconds with two decimals, rounded: "12.34 s"; a negative or non-finite
/// time reads "0.00 s".
[[nodiscard]] inline std::string seconds_text(double seconds) {
  const auto hundredths =
      seconds > 0 && std::isfinite(seconds) ? static_cast<std::uint64_t>(std::llround(seconds * 100)) : 0U;
  return to_decimal_string(hundredths / 100) + "." + (hundredths % 100 < 10 ? "0" : "") +
         to_decimal_string(hundredths % 100) + " s";
}

/// The shortest text that reads back as the same double; empty for an
/// infinity or a NaN.
[[nodiscard]] inline std::string number_text(double v) {
  if (!std::isfinite(v)) {
    return {};
  }
  std::array<char, 32> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  return written.ec == std::errc{} ? std::string(buffer.data(), written.ptr) : std::string();
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
/// end, with its quotes doubled.
[[nodiscard]] inline std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(text);
  }
  std::string out = "\"";
  for (const char c : text) {
    out += c;
    if (c == '"') {
      out += '"';
    }
  }
  return out + "\"";
}

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
[[nodiscard]] inline std::vector<std::string> summary_cells(const summary_entry& e) {
  const auto integer = [](const std::optional<std::uint64_t>& v) { return v ? to_decimal_string(*v) : std::string(); };
  const auto real = [](const std::optional<double>& v) { return v ? number_text(*v) : std::string(); };
  const auto& p = e.point;
  std::vector<std::string> cells{e.source,
                                 to_decimal_string(p.index),
                                 e.record ? std::string(name_of(e.record->kind)) : std::string(),
                                 e.record ? std::string(name_of(e.record->outcome)) : std::string("no_result"),
                                 e.record ? e.record->reason : std::string(),
                                 e.record ? e.record->gpu_name.value_or("") : std::string(),
                                 e.record && e.record->device ? device_name(*e.record->device) : std::string(),
                                 to_decimal_string(p.shape.batch),
                                 to_decimal_string(p.shape.context),
                                 to_decimal_string(p.shape.width),
                                 std::string(name_of(p.dtype)),
                                 to_decimal_string(p.warmup),
                                 p.repeats.text()};
  cells.resize(summary_columns.size());
  if (!e.record) {
    return cells;
  }
  const point_record& r = *e.record;
  const auto& m = r.measured;
  const auto& f = r.prediction;
  const auto timing = [&](const std::optional<timing_summary>& t, std::size_t at) {
    if (t) {
      cells[at] = number_text(t->median);
      cells[at + 1] = real(t->lower);
      cells[at + 2] = real(t->upper);
    }
  };
  cells[13] = m ? to_decimal_string(m->peak_allocated_bytes) : "";
  cells[14] = m ? to_decimal_string(m->peak_reserved_bytes) : "";
  cells[15] = f ? to_decimal_string(f->peak_allocated_bytes) : "";
  cells[16] = f ? to_decimal_string(f->peak_reserved_bytes) : "";
  cells[17] = to_decimal_string(r.outside_allocator_bytes);
  cells[18] = m ? integer(m->outside_allocator_bytes) : "";
  cells[19] = f ? to_decimal_string(f->host.total) : "";
  cells[20] = integer(r.host_available_bytes);
  cells[21] = integer(r.device_free_bytes);
  cells[22] = integer(r.device_total_bytes);
  if (m) {
    timing(m->warm_seconds, 23);
    timing(m->warm_gpu_seconds, 26);
  }
  cells[29] = real(tflops(r));
  cells[30] = r.process ? number_text(r.process->wall_seconds) : "";
  cells[31] = real(overhead_seconds(r));
  cells[32] = r.process && r.process->exit_code ? std::to_string(*r.process->exit_code) : "";
  cells[33] = r.process && r.process->signal ? std::to_string(*r.process->signal) : "";
  cells[34] = record_name(p.index, e.plan_size);
  return cells;
}

/// The whole of summary.csv: the header, then one line per entry, each line
/// ending with a line feed.
[[nodiscard]] inline std::string summary_csv(const std::vector<summary_entry>& entries) {
  std::string text;
  for (std::size_t c = 0; c < summary_columns.size(); ++c) {
    text += (c == 0 ? "" : ",") + std::string(summary_columns[c]);
  }
  text += '\n';
  for (const auto& entry : entries) {
    const auto cells = summary_cells(entry);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      text += (c == 0 ? "" : ",") + csv_field(cells[c]);
    }
    text += '\n';
  }
  return text;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_SUMMARY_HPP
