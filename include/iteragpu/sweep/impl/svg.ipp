#ifndef ITERAGPU_SWEEP_IMPL_SVG_IPP
#define ITERAGPU_SWEEP_IMPL_SVG_IPP

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <numbers>
#include <set>
#include <tuple>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/svg.hpp"

// The bodies of the functions that <iteragpu/sweep/svg.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string xml_text(std::string_view raw) {
  const std::string text = escaped(raw);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace iteragpu::sweep

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE std::string series_device(const std::vector<summary_entry>& entries,
                                                        const summary_entry& e) {
  if (e.record && e.record->kind == record_kind::prediction) {
    return "prediction (no GPU)";
  }
  if (e.record && e.record->gpu_name) {
    return *e.record->gpu_name;
  }
  for (const auto& other : entries) {
    if (other.source == e.source && other.record && other.record->kind == record_kind::measurement &&
        other.record->gpu_name) {
      return *other.record->gpu_name;
    }
  }
  return e.record ? "unknown GPU" : "no result yet";
}

[[nodiscard]] ITERAGPU_INLINE std::string fixed1(double v) {
  std::array<char, 40> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::fixed, 1);
  return written.ec == std::errc{} ? std::string(buffer.data(), written.ptr) : std::string("0");
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string power_of_two_bytes(int k) {
  static constexpr std::array<std::string_view, 7> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (k < 0) {
    return "1/" + to_decimal_string(std::uint64_t{1} << static_cast<unsigned>(-k)) + " B";
  }
  const auto unit = static_cast<std::size_t>(std::min(k / 10, 6));
  return to_decimal_string(std::uint64_t{1} << static_cast<unsigned>(k - static_cast<int>(unit) * 10)) + " " +
         std::string(units[unit]);
}

[[nodiscard]] ITERAGPU_INLINE std::string power_of_ten_seconds(int k, std::uint64_t times) {
  static constexpr std::array<std::string_view, 5> units{"s", "ms", "us", "ns", "ps"};
  // 10^k = 10^within x 1000^-step, within 0, 1 or 2.
  const int step = k >= 0 ? 0 : (-k + 2) / 3;
  const int within = k + step * 3;
  if (step >= static_cast<int>(units.size()) || within > 6) {
    return to_decimal_string(times) + "e" + std::to_string(k) + " s";
  }
  std::uint64_t value = times;
  for (int i = 0; i < within; ++i) {
    value *= 10;
  }
  return to_decimal_string(value) + " " + std::string(units[static_cast<std::size_t>(step)]);
}

[[nodiscard]] ITERAGPU_INLINE double text_width(std::string_view raw, double size, bool bold) {
  const std::string text = escaped(raw);
  double ems = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0U) == 0x80U) {
      continue;  // a UTF-8 continuation byte: its character is counted once
    }
    if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '@' || c == '%' || byte >= 0x80U) {
      ems += 0.95;
    } else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '&' || c == '#') {
      ems += 0.75;
    } else {
      ems += 0.62;
    }
  }
  return ems * size * (bold ? 1.12 : 1.0);
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> wrap_text(std::string_view text, double size, double width,
                                                                 bool bold) {
  std::vector<std::string> lines;
  std::string current;
  const auto place = [&](const std::string& word) {
    const std::string joined = current.empty() ? word : current + " " + word;
    if (text_width(joined, size, bold) <= width) {
      current = joined;
      return;
    }
    if (!current.empty()) {
      lines.push_back(current);
      current.clear();
    }
    for (const char c : word) {
      if (!current.empty() && text_width(current + c, size, bold) > width &&
          (static_cast<unsigned char>(c) & 0xC0U) != 0x80U) {
        lines.push_back(current);
        current.clear();
      }
      current += c;
    }
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) {
      place(std::string(text.substr(at, end - at)));
    }
    at = end + 1;
  }
  if (!current.empty() || lines.empty()) {
    lines.push_back(current);
  }
  return lines;
}

}  // namespace iteragpu::sweep

namespace iteragpu::sweep::detail {

ITERAGPU_INLINE void svg_writer::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
                                      std::string_view dash) {
  out_ += "<line x1=\"" + fixed1(x1) + "\" y1=\"" + fixed1(y1) + "\" x2=\"" + fixed1(x2) + "\" y2=\"" + fixed1(y2) +
          "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + fixed1(width) + "\"" + dash_attribute(dash) +
          "/>\n";
}

ITERAGPU_INLINE void svg_writer::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                                          double width, std::string_view dash) {
  if (points.size() < 2) {
    return;
  }
  out_ += R"(<polyline fill="none" stroke=")" + std::string(stroke) + "\" stroke-width=\"" + fixed1(width) + "\"" +
          dash_attribute(dash) + " points=\"";
  for (const auto& [x, y] : points) {
    out_ += fixed1(x) + "," + fixed1(y) + " ";
  }
  out_ += "\"/>\n";
}

ITERAGPU_INLINE void svg_writer::text(double x, double y, std::string_view content, double size, bool bold,
                                      std::string_view attributes) {
  out_ += "<text x=\"" + fixed1(x) + "\" y=\"" + fixed1(y) + "\" font-size=\"" + fixed1(size) + "\"" +
          (bold ? " font-weight=\"bold\"" : "") + (attributes.empty() ? std::string() : " " + std::string(attributes)) +
          ">" + xml_text(content) + "</text>\n";
}

ITERAGPU_INLINE void svg_writer::marker(marker_shape shape, double x, double y, std::string_view colour, bool filled,
                                        double radius) {
  const std::string fill = filled ? std::string(colour) : std::string("white");
  const std::string paint = "\" fill=\"" + fill + "\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.5\"/>\n";
  const double r = radius;
  switch (shape) {
    case marker_shape::circle:
      out_ += "<circle cx=\"" + fixed1(x) + "\" cy=\"" + fixed1(y) + "\" r=\"" + fixed1(r * 0.9) + paint;
      return;
    case marker_shape::square:
      out_ += "<rect x=\"" + fixed1(x - r * 0.8) + "\" y=\"" + fixed1(y - r * 0.8) + "\" width=\"" + fixed1(r * 1.6) +
              "\" height=\"" + fixed1(r * 1.6) + paint;
      return;
    case marker_shape::cross:
      line(x - r, y - r, x + r, y + r, colour, 2);
      line(x - r, y + r, x + r, y - r, colour, 2);
      return;
    case marker_shape::plus:
      line(x - r * 1.2, y, x + r * 1.2, y, colour, 2.5);
      line(x, y - r * 1.2, x, y + r * 1.2, colour, 2.5);
      return;
    case marker_shape::bar:
      line(x - r * 1.2, y, x + r * 1.2, y, colour, 3.5);
      return;
    case marker_shape::asterisk:
      line(x, y - r, x, y + r, colour, 1.8);
      line(x - r * 0.87, y - r * 0.5, x + r * 0.87, y + r * 0.5, colour, 1.8);
      line(x - r * 0.87, y + r * 0.5, x + r * 0.87, y - r * 0.5, colour, 1.8);
      return;
    default:
      break;
  }
  out_ += "<polygon points=\"";
  for (const auto& [dx, dy] : outline(shape)) {
    out_ += fixed1(x + dx * r) + "," + fixed1(y + dy * r) + " ";
  }
  out_ += paint;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::pair<double, double>> svg_writer::outline(marker_shape shape) {
  switch (shape) {
    case marker_shape::diamond:
      return {{0, -1.2}, {1.2, 0}, {0, 1.2}, {-1.2, 0}};
    case marker_shape::triangle_down:
      return {{-1.1, -0.9}, {1.1, -0.9}, {0, 1.1}};
    case marker_shape::triangle_left:
      return {{-1.1, 0}, {0.9, -1.1}, {0.9, 1.1}};
    case marker_shape::triangle_right:
      return {{1.1, 0}, {-0.9, -1.1}, {-0.9, 1.1}};
    case marker_shape::star: {
      std::vector<std::pair<double, double>> corners;
      for (int i = 0; i < 10; ++i) {
        const double angle = -std::numbers::pi / 2 + i * std::numbers::pi / 5;
        const double reach = i % 2 == 0 ? 1.3 : 0.55;
        corners.emplace_back(reach * std::cos(angle), reach * std::sin(angle));
      }
      return corners;
    }
    default:  // the failed point's triangle
      return {{0, -1.3}, {-1.3, 1.1}, {1.3, 1.1}};
  }
}

[[nodiscard]] ITERAGPU_INLINE std::array<bool, 3> varying_axes(const std::vector<summary_entry>& entries) {
  std::array<bool, 3> varies{};
  for (std::size_t a = 0; a < numeric_axes.size(); ++a) {
    std::set<std::uint64_t> values;
    for (const auto& e : entries) {
      values.insert(numeric_axes[a].value(e.point));
    }
    varies[a] = values.size() > 1;
  }
  return varies;
}

[[nodiscard]] ITERAGPU_INLINE std::string configuration_text(const std::vector<summary_entry>& entries,
                                                             const std::array<bool, 3>& varies, std::size_t x_axis,
                                                             const std::set<memory::element_type>& dtypes) {
  std::string text;
  std::set<std::string> runs;
  for (const auto& e : entries) {
    runs.insert("warmup " + to_decimal_string(e.point.warmup) + ", repeats " + e.point.repeats.text());
  }
  for (std::size_t a = 0; a < numeric_axes.size(); ++a) {
    if (!varies[a] && a != x_axis && !entries.empty()) {
      text += std::string(numeric_axes[a].name) + " " +
              to_decimal_string(numeric_axes[a].value(entries.front().point)) + ", ";
    }
  }
  if (dtypes.size() == 1) {
    text += std::string(name_of(*dtypes.begin())) + ", ";
  }
  return text + (runs.size() == 1 ? *runs.begin() : std::string("warmup and repeats differ by source"));
}

[[nodiscard]] ITERAGPU_INLINE std::string series_label(const std::string& device, const summary_entry& e,
                                                       const std::array<bool, 3>& varies, std::size_t x_axis,
                                                       std::optional<std::size_t> panel_axis, bool dtype_varies) {
  std::string label = device;
  for (std::size_t a = 0; a < numeric_axes.size(); ++a) {
    if (varies[a] && a != x_axis && a != panel_axis) {
      label += ", " + std::string(numeric_axes[a].name) + " " + to_decimal_string(numeric_axes[a].value(e.point));
    }
  }
  if (dtype_varies) {
    label += ", " + std::string(name_of(e.point.dtype));
  }
  return label;
}

[[nodiscard]] ITERAGPU_INLINE point_mark mark_of(outcome_kind o) noexcept {
  switch (o) {
    case outcome_kind::measured:
    case outcome_kind::predicted:
      return point_mark::done;
    case outcome_kind::skipped_device_memory:
      return point_mark::skipped_device_memory;
    case outcome_kind::skipped_host_memory:
      return point_mark::skipped_host_memory;
    case outcome_kind::skipped_after_failure:
      return point_mark::skipped_after_failure;
    case outcome_kind::skipped_unpredictable:
      return point_mark::skipped_unpredictable;
    default:
      return point_mark::failed;
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string status_of(const point_record& r) {
  if (r.process && r.process->exit_code) {
    return "exit " + std::to_string(*r.process->exit_code);
  }
  if (r.process && r.process->signal) {
    return "signal " + std::to_string(*r.process->signal);
  }
  return std::string(name_of(r.outcome));
}

ITERAGPU_INLINE void add_point(plot_series& s, const summary_entry& e, double x) {
  plot_point pp;
  pp.x = x;
  if (!e.record) {
    s.prediction = false;
    s.points.push_back(pp);
    return;
  }
  const point_record& r = *e.record;
  s.prediction = s.prediction && r.kind == record_kind::prediction;
  if (r.prediction) {
    pp.predicted_allocated = static_cast<double>(r.prediction->peak_allocated_bytes);
    pp.predicted_reserved = static_cast<double>(r.prediction->peak_reserved_bytes);
  }
  if (r.measured) {
    pp.measured_allocated = static_cast<double>(r.measured->peak_allocated_bytes);
    pp.measured_reserved = static_cast<double>(r.measured->peak_reserved_bytes);
    pp.warm_seconds = r.measured->warm_seconds;
  }
  if (r.device_total_bytes) {
    s.total_memory = std::max(s.total_memory.value_or(0), static_cast<double>(*r.device_total_bytes));
  }
  pp.mark = mark_of(r.outcome);
  if (pp.mark == point_mark::failed) {
    pp.status = status_of(r);
  }
  s.points.push_back(pp);
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::size_t> panel_axis_of(const std::array<bool, 3>& varies) {
  if (std::all_of(varies.begin(), varies.end(), [](bool v) { return v; })) {
    return varies.size() - 1;
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::set<std::uint64_t> values_of(const std::vector<summary_entry>& entries,
                                                                std::optional<std::size_t> axis) {
  std::set<std::uint64_t> values;
  for (const auto& e : entries) {
    if (axis) {
      values.insert(numeric_axes[*axis].value(e.point));
    }
  }
  return values;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> panel_titles(const std::string& axis,
                                                                    const std::set<std::uint64_t>& values) {
  std::vector<std::string> titles;
  titles.reserve(values.size());
  for (const auto v : values) {
    titles.push_back(axis + " " + to_decimal_string(v));
  }
  return titles;
}

ITERAGPU_INLINE void finish_series(std::vector<plot_series>& series, const std::vector<summary_entry>& entries) {
  std::set<std::string> devices;
  for (const auto& e : entries) {
    devices.insert(series_device(entries, e));
  }
  const std::string prefix = devices.size() == 1 ? *devices.begin() + ", " : std::string();
  for (auto& s : series) {
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const plot_point& a, const plot_point& b) { return a.x < b.x; });
    if (!prefix.empty() && s.label.starts_with(prefix)) {
      s.label.erase(0, prefix.size());
    }
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string devices_text(const std::set<std::string>& devices, bool any_prediction) {
  std::string list;
  for (const auto& d : devices) {
    list += (list.empty() ? "" : "; ") + d;
  }
  return !devices.empty() ? (devices.size() == 1 ? "GPU: " : "GPUs: ") + list
         : any_prediction ? "no GPU: every figure is a prediction (nothing was measured)"
                          : "no point has a result yet";
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE plot_input make_plot_input(const std::vector<summary_entry>& entries) {
  plot_input in;
  const auto varies = detail::varying_axes(entries);
  std::size_t x_axis = 0;  // batch when nothing varies
  for (std::size_t a = varies.size(); a-- > 0;) {
    if (varies[a]) {
      x_axis = a;
    }
  }
  const auto panel_axis = detail::panel_axis_of(varies);
  const auto& axis = detail::numeric_axes[x_axis];
  std::set<memory::element_type> dtypes;
  const auto panel_values = detail::values_of(entries, panel_axis);
  for (const auto& e : entries) {
    dtypes.insert(e.point.dtype);
  }
  in.axis = std::string(axis.name);
  in.axis_label = std::string(axis.label);
  in.configuration = detail::configuration_text(entries, varies, x_axis, dtypes);
  in.panels = {std::string()};
  if (panel_axis) {
    in.panel_axis = std::string(detail::numeric_axes[*panel_axis].name);
    in.panels = detail::panel_titles(in.panel_axis, panel_values);
  }
  std::map<std::pair<std::size_t, std::string>, std::size_t> series_of;
  std::map<std::string, std::size_t> style_of_label;
  std::set<std::string> devices;
  bool any_prediction = false;
  for (const auto& e : entries) {
    const std::string device = detail::series_device(entries, e);
    const std::string label = detail::series_label(device, e, varies, x_axis, panel_axis, dtypes.size() > 1);
    const std::size_t panel =
        panel_axis ? static_cast<std::size_t>(std::distance(
                         panel_values.begin(), panel_values.find(detail::numeric_axes[*panel_axis].value(e.point))))
                   : 0;
    const auto style = style_of_label.try_emplace(label, style_of_label.size()).first->second;
    const auto [it, inserted] = series_of.try_emplace({panel, label}, in.series.size());
    if (inserted) {
      in.series.push_back(plot_series{label, true, std::nullopt, {}, device, panel, style});
    }
    detail::add_point(in.series[it->second], e, static_cast<double>(axis.value(e.point)));
    if (e.record && e.record->kind == record_kind::measurement) {
      devices.insert(device);
    }
    any_prediction = any_prediction || (e.record && e.record->kind == record_kind::prediction);
  }
  detail::finish_series(in.series, entries);
  // A folder whose points have no record yet is neither measured nor
  // predicted: it says so rather than call its empty plot predictions.
  in.predictions_only = devices.empty() && any_prediction;
  in.devices = detail::devices_text(devices, any_prediction);
  return in;
}

}  // namespace iteragpu::sweep

namespace iteragpu::sweep::detail {

ITERAGPU_INLINE void value_range::add(double v) {
  low = std::min(low.value_or(v), v);
  high = std::max(high.value_or(v), v);
}

[[nodiscard]] ITERAGPU_INLINE std::pair<int, int> log_bounds(const value_range& r, double (*log)(double), int first,
                                                             int last) {
  if (r.low && r.high) {
    first = static_cast<int>(std::floor(log(*r.low)));
    last = static_cast<int>(std::ceil(log(*r.high)));
  }
  return {first, last <= first ? first + 1 : last};
}

ITERAGPU_INLINE void add_ranges(const plot_point& p, value_range& bytes, value_range& seconds) {
  for (const auto& v : {p.measured_allocated, p.measured_reserved, p.predicted_allocated, p.predicted_reserved}) {
    if (v && *v > 0) {
      bytes.add(*v);
    }
  }
  if (!p.warm_seconds || !(p.warm_seconds->median > 0)) {
    return;
  }
  seconds.add(p.warm_seconds->median);
  for (const auto& v : {p.warm_seconds->lower, p.warm_seconds->upper}) {
    if (v && *v > 0) {
      seconds.add(*v);
    }
  }
}

[[nodiscard]] ITERAGPU_INLINE plot_frame frame_of(const plot_input& in) {
  plot_frame f;
  value_range x;
  value_range bytes;
  value_range seconds;
  for (const auto& s : in.series) {
    for (const auto& p : s.points) {
      x.add(std::log2(p.x));
      f.x_ticks.insert(p.x);
      add_ranges(p, bytes, seconds);
    }
  }
  // A device's memory joins the scale when it lies within 8 times the
  // largest figure; further above, it would squeeze the figures to the
  // bottom of the chart, and a note at the top gives it instead.
  for (const auto& s : in.series) {
    if (s.total_memory && (!bytes.high || *s.total_memory <= *bytes.high * total_reach)) {
      bytes.add(*s.total_memory);
    }
  }
  const double x_low = x.low.value_or(0);
  const double x_high = x.high.value_or(0);
  const double pad = x_high - x_low < 1 ? 1.0 : 0.5;
  f.x = scale{x_low - pad, x_high + pad, left, right};
  std::tie(f.memory_first, f.memory_last) = log_bounds(bytes, &log2_of, 20, 30);
  if (seconds.low) {
    f.time = log_bounds(seconds, &log10_of, 0, 1);
  }
  return f;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<text_line> header_lines(const plot_input& in) {
  std::vector<text_line> lines;
  std::string title = in.title_start + ": peak memory against " + in.axis;
  if (!in.panel_axis.empty()) {
    title += ", one panel per " + in.panel_axis;
  }
  for (auto& l : wrap_text(title, title_font, header_width, true)) {
    lines.push_back({std::move(l), title_font, true, ""});
  }
  for (auto& l : wrap_text("Configuration: " + in.configuration, font, header_width)) {
    lines.push_back({std::move(l), font, false, ""});
  }
  for (auto& l : wrap_text(in.devices, font, header_width)) {
    lines.push_back({std::move(l), font, false, ""});
  }
  if (in.predictions_only) {
    for (auto& l :
         wrap_text("Every point below is a PREDICTION of the caching allocator's counters, not a measurement.", font,
                   header_width, true)) {
      lines.push_back({std::move(l), font, true, "#d62728"});
    }
  }
  return lines;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<text_line> footer_lines(const plot_input& in, bool timing) {
  std::vector<std::string> notes{
      "Filled markers and solid lines: measured by the process's caching allocator counters. Dashed and dotted "
      "lines, hollow markers: predicted. Memory on log2 scales, 1 GiB = 2^30 bytes.",
      "Skipped and failed points are drawn at their predicted peak reserved (at the bottom when there is none); "
      "no line joins a measured point to a failed one; a failed point carries its exit status."};
  if (timing) {
    notes.emplace_back("Time: the host wall time of a warm_forward pass, its median over the repeats; bars: the 95 % "
                       "confidence interval of the median.");
  }
  if (!in.panel_axis.empty()) {
    notes.emplace_back("Every panel has the same scales; a series keeps its colour and marker in every panel.");
  }
  std::vector<text_line> lines;
  for (const auto& n : notes) {
    for (auto& l : wrap_text(n, note_font, header_width)) {
      lines.push_back({std::move(l), note_font, false, "#444444"});
    }
  }
  return lines;
}

[[nodiscard]] ITERAGPU_INLINE std::string_view fitting(std::initializer_list<std::string_view> labels, double size,
                                                       double room, bool bold) {
  std::string_view chosen;
  for (const auto label : labels) {
    chosen = label;
    if (text_width(label, size, bold) <= room) {
      break;
    }
  }
  return chosen;
}

ITERAGPU_INLINE void draw_x_ticks(svg_writer& w, const plot_frame& f, double top, double bottom) {
  std::size_t shown = 0;
  const std::size_t every = f.x_ticks.size() > 14 ? (f.x_ticks.size() + 13) / 14 : 1;
  for (const double x : f.x_ticks) {
    const double px = f.x(std::log2(x));
    w.line(px, top, px, bottom, "#f0f0f0", 1);
    if (shown++ % every == 0) {
      w.text(px, bottom + 18, to_decimal_string(static_cast<std::uint64_t>(x)), small_font, false,
             R"(text-anchor="middle")");
    }
  }
}

ITERAGPU_INLINE void draw_axes(svg_writer& w, const plot_frame& f, const plot_input& in, double top, double bottom,
                               std::initializer_list<std::string_view> y_labels) {
  w.raw(R"(<rect class="plot-area" x=")" + fixed1(left) + R"(" y=")" + fixed1(top) + R"(" width=")" +
        fixed1(right - left) + "\" height=\"" + fixed1(bottom - top) + "\" fill=\"none\"/>\n");
  draw_x_ticks(w, f, top, bottom);
  w.line(left, bottom, right, bottom, "black", 1);
  w.line(left, top, left, bottom, "black", 1);
  w.text((left + right) / 2, bottom + 40, in.axis_label, small_font, true, R"(text-anchor="middle")");
  const std::string_view y_label = fitting(y_labels, small_font, bottom - top, true);
  const std::string middle = fixed1((top + bottom) / 2);
  w.text(28, (top + bottom) / 2, y_label, small_font, true,
         R"svg(text-anchor="middle" transform="rotate(-90 28 )svg" + middle + ")\"");
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::vector<std::pair<double, double>>> runs_of(
    const plot_frame& f, const scale& memory, const plot_series& s, point_value value, bool measured) {
  std::vector<std::vector<std::pair<double, double>>> runs(1);
  for (const auto& p : s.points) {
    if (p.*value && (!measured || p.mark == point_mark::done)) {
      runs.back().emplace_back(f.x(std::log2(p.x)), memory(std::log2(*(p.*value))));
    } else if (!runs.back().empty()) {
      runs.emplace_back();
    }
  }
  return runs;
}

[[nodiscard]] ITERAGPU_INLINE marker_shape shape_of(point_mark m) noexcept {
  switch (m) {
    case point_mark::skipped_device_memory:
      return marker_shape::cross;
    case point_mark::skipped_host_memory:
      return marker_shape::plus;
    case point_mark::skipped_after_failure:
      return marker_shape::bar;
    case point_mark::skipped_unpredictable:
      return marker_shape::asterisk;
    default:
      return marker_shape::triangle_up;
  }
}

ITERAGPU_INLINE void draw_point(svg_writer& w, const plot_frame& f, const scale& memory, double bottom,
                                const plot_series& s, const plot_point& p, legend_use& used) {
  const auto style = style_of(s.style);
  const double px = f.x(std::log2(p.x));
  const auto y = [&](double bytes) { return memory(std::log2(bytes)); };
  if (p.mark != point_mark::done && p.mark != point_mark::none) {
    const double py = p.predicted_reserved ? y(*p.predicted_reserved) : bottom - 8;
    const bool failed = p.mark == point_mark::failed;
    w.marker(shape_of(p.mark), px, py, failed ? failed_colour : skipped_colour, true, 5);
    used.marks.insert(p.mark);
    if (failed) {
      const bool on_left = px + 9 + text_width(p.status, note_font, true) > right;
      w.text(on_left ? px - 9 : px + 9, py + 4, p.status, note_font, true,
             std::string(R"(class="status" fill=")") + std::string(failed_colour) + "\"" +
                 (on_left ? " text-anchor=\"end\"" : ""));
    }
    return;
  }
  if (p.measured_reserved) {
    w.marker(style.marker, px, y(*p.measured_reserved), style.colour, true, 5);
    used.measured = true;
  }
  if (p.measured_allocated) {
    w.marker(style.marker, px, y(*p.measured_allocated), style.colour, true, 3);
  }
  if (s.prediction && p.predicted_reserved) {
    w.marker(style.marker, px, y(*p.predicted_reserved), style.colour, false, 5);
  }
  if (s.prediction && p.predicted_allocated) {
    w.marker(style.marker, px, y(*p.predicted_allocated), style.colour, false, 3);
  }
  used.predicted = used.predicted || p.predicted_reserved.has_value();
}

ITERAGPU_INLINE void draw_total(svg_writer& w, const scale& memory, const panel_place& place, const plot_series& s,
                                const std::string& colour, std::set<std::string>& drawn, legend_use& used) {
  const std::string what =
      s.prediction ? std::string("usable memory given (--memory-gib)") : "device total memory, " + s.device;
  if (!drawn.insert(what + fixed1(*s.total_memory)).second) {
    return;
  }
  const double y = memory(std::log2(*s.total_memory));
  const bool above = y < place.memory_top;
  const double note_y = above ? place.memory_top + 14 + 14 * static_cast<double>(drawn.size() - 1) : y - 5;
  if (!above) {
    w.line(left, y, right, y, colour, 1.5, "10 3 2 3");
    used.total = true;
  }
  const std::string text =
      what + ": " + gib_text(static_cast<std::uint64_t>(*s.total_memory)) + (above ? ", above this chart" : "");
  const auto note = wrap_text(text, note_font, right - left - 12);
  w.text(left + 6, note_y, note.front() + (note.size() > 1 ? "..." : ""), note_font, false, "fill=\"" + colour + "\"");
}

ITERAGPU_INLINE void draw_memory_chart(svg_writer& w, const plot_frame& f, const plot_input& in, std::size_t panel,
                                       const panel_place& place, legend_use& used) {
  const scale memory{static_cast<double>(f.memory_first), static_cast<double>(f.memory_last), place.memory_bottom,
                     place.memory_top};
  const int step = std::max(1, (f.memory_last - f.memory_first + 9) / 10);
  for (int k = f.memory_first; k <= f.memory_last; k += step) {
    const double y = memory(k);
    w.line(left, y, right, y, "#e0e0e0", 1);
    w.text(left - 8, y + 4, power_of_two_bytes(k), small_font, false, R"(text-anchor="end")");
  }
  draw_axes(w, f, in, place.memory_top, place.memory_bottom,
            {"peak memory on the device (log2 scale)", "peak memory (log2 scale)", "peak memory"});
  std::set<std::string> totals_drawn;  // series of one GPU share its line
  for (const auto& s : in.series) {
    if (s.panel != panel) {
      continue;
    }
    const std::string colour(style_of(s.style).colour);
    w.raw(R"(<g class="series" data-style=")" + std::to_string(s.style) + "\">\n");
    if (s.total_memory) {
      draw_total(w, memory, place, s, colour, totals_drawn, used);
    }
    // The prediction as lines; hollow markers where it is all there is.
    for (const auto& run : runs_of(f, memory, s, &plot_point::predicted_reserved, false)) {
      w.polyline(run, colour, 1.5, "7 4");
    }
    for (const auto& run : runs_of(f, memory, s, &plot_point::predicted_allocated, false)) {
      w.polyline(run, colour, 1.2, "2 3");
    }
    for (const auto& run : runs_of(f, memory, s, &plot_point::measured_reserved, true)) {
      w.polyline(run, colour, 2.5);
    }
    for (const auto& run : runs_of(f, memory, s, &plot_point::measured_allocated, true)) {
      w.polyline(run, colour, 1.2);
    }
    for (const auto& p : s.points) {
      draw_point(w, f, memory, place.memory_bottom, s, p, used);
    }
    w.raw("</g>\n");
  }
}

ITERAGPU_INLINE void draw_times(svg_writer& w, const plot_frame& f, const scale& time, const plot_series& s) {
  const auto style = style_of(s.style);
  const auto t = [&](double seconds) { return time(std::log10(seconds)); };
  std::vector<std::vector<std::pair<double, double>>> runs(1);
  for (const auto& p : s.points) {
    if (!p.warm_seconds || !(p.warm_seconds->median > 0)) {
      if (!runs.back().empty()) {
        runs.emplace_back();
      }
      continue;
    }
    const double px = f.x(std::log2(p.x));
    runs.back().emplace_back(px, t(p.warm_seconds->median));
    const auto& lower = p.warm_seconds->lower;
    const auto& upper = p.warm_seconds->upper;
    if (lower && upper && *lower > 0) {
      w.line(px, t(*lower), px, t(*upper), style.colour, 1.2);
      w.line(px - 4, t(*lower), px + 4, t(*lower), style.colour, 1.2);
      w.line(px - 4, t(*upper), px + 4, t(*upper), style.colour, 1.2);
    }
  }
  for (const auto& run : runs) {
    w.polyline(run, style.colour, 2);
    for (const auto& [px, py] : run) {
      w.marker(style.marker, px, py, style.colour, true, 4);
    }
  }
}

ITERAGPU_INLINE void draw_time_chart(svg_writer& w, const plot_frame& f, const plot_input& in, std::size_t panel,
                                     const panel_place& place) {
  const auto [first, last] = *f.time;
  const double top = *place.time_top;
  const scale time{static_cast<double>(first), static_cast<double>(last), place.time_bottom, top};
  w.text(left, top - 10, "Median warm pass time (bars: 95 % interval)", small_font, true);
  const bool minor_ticks = last - first <= 2;  // 2 and 5 times each power too
  for (int k = first; k <= last; ++k) {
    const double y = time(k);
    w.line(left, y, right, y, "#e0e0e0", 1);
    w.text(left - 8, y + 4, power_of_ten_seconds(k), small_font, false, R"(text-anchor="end")");
    for (const std::uint64_t times : {std::uint64_t{2}, std::uint64_t{5}}) {
      if (minor_ticks && k < last) {
        const double minor = time(k + std::log10(static_cast<double>(times)));
        w.line(left, minor, right, minor, "#f0f0f0", 1);
        w.text(left - 8, minor + 4, power_of_ten_seconds(k, times), note_font, false,
               R"(text-anchor="end" fill="#555555")");
      }
    }
  }
  draw_axes(w, f, in, top, place.time_bottom, {"seconds per pass (log10 scale)", "seconds per pass", "seconds"});
  for (const auto& s : in.series) {
    if (s.panel == panel) {
      draw_times(w, f, time, s);
    }
  }
}

ITERAGPU_INLINE void legend_writer::heading(std::string_view text) {
  for (const auto& l : wrap_text(text, font, legend_right - legend_x, true)) {
    w_->text(legend_x, y_, l, font, true);
    y_ += 20;
  }
}

ITERAGPU_INLINE void legend_writer::entry(std::string_view label, std::string_view colour,
                                          std::optional<marker_shape> marker, double width, std::string_view dash,
                                          bool filled) {
  w_->raw(R"(<g class="legend-entry" data-colour=")" + std::string(colour) + R"(" data-marker=")" +
          std::string(marker ? name_of(*marker) : "none") + "\" data-line=\"" +
          (width > 0 ? fixed1(width) + " " + std::string(dash) : std::string("none")) + "\">\n");
  if (width > 0) {
    w_->line(legend_x, y_ - 4, legend_x + 30, y_ - 4, colour, width, dash);
  }
  if (marker) {
    w_->marker(*marker, legend_x + 15, y_ - 4, colour, filled, 5);
  }
  const auto lines = wrap_text(label, small_font, legend_right - legend_x - 40);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    w_->text(legend_x + 40, y_ + static_cast<double>(i) * 15, lines[i], small_font);
  }
  w_->raw("</g>\n");
  y_ += 20 + static_cast<double>(lines.size() - 1) * 15;
}

[[nodiscard]] ITERAGPU_INLINE std::string_view mark_label(point_mark m) noexcept {
  switch (m) {
    case point_mark::skipped_device_memory:
      return "skipped for device memory: predicted peak reserved > the GPU's free memory";
    case point_mark::skipped_host_memory:
      return "skipped for host memory: the model's build on the CPU > the host's available memory";
    case point_mark::skipped_after_failure:
      return "skipped after a failure: a point no larger ran out of memory";
    case point_mark::skipped_unpredictable:
      return "skipped: the shape cannot be predicted (drawn at the bottom)";
    default:
      return "failed, labelled with its exit status (exit 3: out of memory or another failure while measuring)";
  }
}

ITERAGPU_INLINE double draw_legend(svg_writer& w, const plot_input& in, const legend_use& used, double top) {
  w.raw("<g id=\"legend\">\n");
  legend_writer legend(w, top);
  legend.heading("Legend");
  constexpr std::string_view ink = "#444444";
  if (used.measured) {
    legend.entry("peak reserved, measured", ink, std::nullopt, 2.5, "");
    legend.entry("peak allocated, measured", ink, std::nullopt, 1.2, "");
  }
  if (used.predicted) {
    legend.entry("peak reserved, predicted", ink, std::nullopt, 1.5, "7 4");
    legend.entry("peak allocated, predicted", ink, std::nullopt, 1.2, "2 3");
  }
  if (used.total) {
    legend.entry(in.predictions_only ? "usable memory given" : "device total memory", ink, std::nullopt, 1.5,
                 "10 3 2 3");
  }
  for (const auto m : used.marks) {
    legend.entry(mark_label(m), m == point_mark::failed ? failed_colour : skipped_colour, shape_of(m), 0, "");
  }
  legend.gap();
  legend.heading("Series (colour and marker)");
  std::vector<std::string> labels;
  for (const auto& s : in.series) {
    if (s.style >= labels.size()) {
      labels.resize(s.style + 1);
    }
    labels[s.style] = s.label;
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto style = style_of(i);
    legend.entry(labels[i], style.colour, style.marker, 1.5, "");
  }
  w.raw("</g>\n");
  return legend.bottom();
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string plot_svg(const plot_input& in, bool standalone) {
  const detail::plot_frame frame = detail::frame_of(in);
  const bool several = in.panels.size() > 1;
  const double memory_height = several ? 260 : 450;
  const double time_height = several ? 190 : 270;
  detail::svg_writer body;
  double y = 34;
  for (const auto& l : detail::header_lines(in)) {
    body.text(detail::left, y, l.text, l.size, l.bold, l.fill.empty() ? "" : "fill=\"" + l.fill + "\"");
    y += 20;
  }
  const double charts_top = y + 22;
  detail::legend_use used;
  y = charts_top;
  for (std::size_t panel = 0; panel < in.panels.size(); ++panel) {
    detail::panel_place place;
    if (several) {
      y += 24;
      body.text(detail::left, y - 12, in.panels[panel], detail::font + 1, true, "class=\"panel-title\"");
    }
    place.memory_top = y;
    place.memory_bottom = y + memory_height;
    place.bottom = place.memory_bottom + 50;
    if (frame.time) {
      place.time_top = place.bottom + 30;
      place.time_bottom = *place.time_top + time_height;
      place.bottom = place.time_bottom + 50;
    }
    body.raw("<g class=\"panel\">\n");
    detail::draw_memory_chart(body, frame, in, panel, place, used);
    if (frame.time) {
      detail::draw_time_chart(body, frame, in, panel, place);
    }
    body.raw("</g>\n");
    y = place.bottom + 10;
  }
  if (!frame.time) {
    body.text(detail::left, y + 10,
              in.predictions_only ? "No timing: these points are predictions, nothing ran"
                                  : "No timing: no point was measured",
              detail::font + 2, false, R"(fill="#7f7f7f")");
    y += 30;
  }
  const double legend_bottom = detail::draw_legend(body, in, used, charts_top + 4);
  y = std::max(y, legend_bottom) + 16;
  for (const auto& l : detail::footer_lines(in, frame.time.has_value())) {
    body.text(detail::left, y, l.text, l.size, l.bold, "fill=\"" + l.fill + "\"");
    y += 15;
  }
  const double page_height = std::ceil(y + 10);
  detail::svg_writer w;
  if (standalone) {
    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  }
  const std::string title = in.title_start + ": peak memory against " + in.axis;
  const std::string width = detail::fixed1(detail::page_width);
  const std::string height = detail::fixed1(page_height);
  w.raw(R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" + width + "\" height=\"" + height + "\" viewBox=\"0 0 " +
        width + " " + height + R"(" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">)" + "\n");
  w.raw("<title>" + xml_text(title) + "</title>\n");
  w.raw(R"(<rect x="0" y="0" width=")" + width + R"(" height=")" + height + R"(" fill="white"/>)" + "\n");
  w.raw(body.take());
  w.raw("</svg>\n");
  return w.take();
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_SVG_IPP
