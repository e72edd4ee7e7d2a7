#ifndef ITERAGPU_SWEEP_IMPL_SUMMARY_IPP
#define ITERAGPU_SWEEP_IMPL_SUMMARY_IPP

#include <charconv>
#include <cmath>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/units.hpp"

// The bodies of the functions that <iteragpu/sweep/summary.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE double forward_flops(const memory::synthetic_shape& s) {
  const auto rows = static_cast<double>(s.batch) * static_cast<double>(s.context);
  const auto w = static_cast<double>(s.width);
  return 2.0 * 2.0 * rows * w * static_cast<double>(memory::hidden_multiplier) * w;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> tflops(const point_record& r) {
  if (!r.measured || !r.measured->warm_gpu_seconds || !(r.measured->warm_gpu_seconds->median > 0)) {
    return std::nullopt;
  }
  return forward_flops(r.point.shape) / r.measured->warm_gpu_seconds->median / 1e12;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> overhead_seconds(const point_record& r) {
  if (!r.process || !r.measured) {
    return std::nullopt;
  }
  return r.process->wall_seconds - r.measured->phase_seconds;
}

[[nodiscard]] ITERAGPU_INLINE std::string gib_text(std::uint64_t bytes) {
  std::uint64_t whole = bytes >> 30U;
  const std::uint64_t rest = bytes & (gibibyte - 1U);
  std::uint64_t tenth = (rest * 10U + (std::uint64_t{1} << 29U)) >> 30U;  // rest * 10 < 2^34
  if (tenth == 10) {
    ++whole;
    tenth = 0;
  }
  return to_decimal_string(whole) + "." + to_decimal_string(tenth) + " GiB";
}

[[nodiscard]] ITERAGPU_INLINE std::string seconds_text(double seconds) {
  const auto hundredths =
      seconds > 0 && std::isfinite(seconds) ? static_cast<std::uint64_t>(std::llround(seconds * 100)) : 0U;
  return to_decimal_string(hundredths / 100) + "." + (hundredths % 100 < 10 ? "0" : "") +
         to_decimal_string(hundredths % 100) + " s";
}

[[nodiscard]] ITERAGPU_INLINE std::string number_text(double v) {
  if (!std::isfinite(v)) {
    return {};
  }
  std::array<char, 32> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  return written.ec == std::errc{} ? std::string(buffer.data(), written.ptr) : std::string();
}

[[nodiscard]] ITERAGPU_INLINE std::string csv_field(std::string_view text) {
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

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> summary_cells(const summary_entry& e) {
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

[[nodiscard]] ITERAGPU_INLINE std::string summary_csv(const std::vector<summary_entry>& entries) {
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

#endif  // ITERAGPU_SWEEP_IMPL_SUMMARY_IPP
