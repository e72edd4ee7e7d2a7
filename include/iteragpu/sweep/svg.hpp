#ifndef ITERAGPU_SWEEP_SVG_HPP
#define ITERAGPU_SWEEP_SVG_HPP

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/text.hpp"

/// \file
/// plot.svg, written by hand (no plotting dependency): peak memory against
/// the swept axis on log2 scales, measured and predicted, the device's total
/// memory, skipped and failed points marked; below it the median warm pass
/// time. Readable on its own: a title, the configuration, the GPU, axis
/// labels with units and a legend.
namespace iteragpu::sweep {

/// How a point is marked on the memory panel, from its record's outcome.
enum class point_mark {
  none,     ///< no record yet: nothing is drawn
  done,     ///< measured or predicted: its figures are drawn
  skipped,  ///< a skip: a grey cross at its predicted peak reserved (at the bottom without one)
  failed    ///< a failure: a red triangle at its predicted peak reserved (at the bottom without one)
};

/// One point of a series: its place on the x axis and its figures.
struct plot_point {
  double x{1};                                 ///< the swept axis's value (drawn on a log2 scale)
  std::optional<double> measured_allocated;    ///< measured peak allocated bytes; nothing when not measured
  std::optional<double> measured_reserved;     ///< measured peak reserved bytes; nothing when not measured
  std::optional<double> predicted_allocated;   ///< predicted peak allocated bytes; nothing without a prediction
  std::optional<double> predicted_reserved;    ///< predicted peak reserved bytes; nothing without a prediction
  point_mark mark{point_mark::none};           ///< how the point is marked
  std::optional<timing_summary> warm_seconds;  ///< the measured warm pass's host wall time, for the time panel
};

/// One series of the plot, drawn in one colour: the points of one GPU (the
/// predictions form their own) at one value of each other axis that varies.
struct plot_series {
  std::string label;                   ///< the GPU, then the values of the other axes that vary
  bool prediction{false};              ///< every point has a record, and every record is a prediction
  std::optional<double> total_memory;  ///< the largest device memory its records give, in bytes; nothing without one
  std::vector<plot_point> points;      ///< its points, by increasing x
};

/// What plot_svg() draws, as make_plot_input() makes it.
struct plot_input {
  std::string axis;                 ///< the swept axis: "batch", "context" or "width"
  std::string axis_label;           ///< the x axis's label, with its unit
  std::string configuration;        ///< the parameters that do not vary
  std::string devices;              ///< the GPUs, or that there is none
  bool predictions_only{false};     ///< records, all predictions: the plot says every point is a prediction
  std::vector<plot_series> series;  ///< the series, in the order of their first point
};

/// &, <, >, " and ' as entities, and the text escaped as messages are (no
/// control character reaches the file): safe in XML text and attributes.
[[nodiscard]] inline std::string xml_text(std::string_view raw) {
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

namespace detail {

struct axis_choice {
  std::string_view name;
  std::string_view label;
  std::uint64_t (*value)(const sweep_point&);
};

inline constexpr std::array<axis_choice, 3> numeric_axes{{
    {"batch", "batch (inputs per pass, log2 scale)", [](const sweep_point& p) { return p.shape.batch; }},
    {"context", "context (positions per input, log2 scale)", [](const sweep_point& p) { return p.shape.context; }},
    {"width", "width (model width; hidden = 4 x width; log2 scale)", [](const sweep_point& p) { return p.shape.width; }},
}};

// The GPU a record names; a measurement's record without one (a point
// skipped before its device was read) takes the first GPU its source
// names, and a point without a record too.
[[nodiscard]] inline std::string series_device(const std::vector<summary_entry>& entries, const summary_entry& e) {
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

[[nodiscard]] inline std::string fixed1(double v) {
  std::array<char, 40> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::fixed, 1);
  return written.ec == std::errc{} ? std::string(buffer.data(), written.ptr) : std::string("0");
}

// "512 MiB", "1 GiB", "64 GiB" for 2^k bytes.
[[nodiscard]] inline std::string power_of_two_bytes(int k) {
  static constexpr std::array<std::string_view, 7> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (k < 0) {
    return "1/" + to_decimal_string(std::uint64_t{1} << static_cast<unsigned>(-k)) + " B";
  }
  const auto unit = static_cast<std::size_t>(std::min(k / 10, 6));
  return to_decimal_string(std::uint64_t{1} << static_cast<unsigned>(k - static_cast<int>(unit) * 10)) + " " +
         std::string(units[unit]);
}

// "1 us", "20 ms", "5 s" for times x 10^k seconds (times 1, 2 or 5).
[[nodiscard]] inline std::string power_of_ten_seconds(int k, std::uint64_t times = 1) {
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

// A linear map from [from_low, from_high] to [to_low, to_high].
struct scale {
  double from_low{0};
  double from_high{1};
  double to_low{0};
  double to_high{1};
  [[nodiscard]] double operator()(double v) const {
    return to_low + (v - from_low) / (from_high - from_low) * (to_high - to_low);
  }
};

// Series colours; red and grey are kept for failed and skipped points.
inline constexpr std::array<std::string_view, 12> palette{"#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                                          "#e377c2", "#17becf", "#bcbd22", "#ff7f0e",
                                                          "#000000", "#6b6ecf", "#637939", "#e7969c"};
inline constexpr std::string_view skipped_colour = "#7f7f7f";
inline constexpr std::string_view failed_colour = "#d62728";

class svg_writer {
 public:
  void raw(std::string_view s) { out_ += s; }
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            std::string_view dash = "") {
    out_ += "<line x1=\"" + fixed1(x1) + "\" y1=\"" + fixed1(y1) + "\" x2=\"" + fixed1(x2) + "\" y2=\"" + fixed1(y2) +
            "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + fixed1(width) + "\"" + dash_attribute(dash) +
            "/>\n";
  }
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                std::string_view dash = "") {
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
  void text(double x, double y, std::string_view content, std::string_view attributes = "") {
    out_ += "<text x=\"" + fixed1(x) + "\" y=\"" + fixed1(y) + "\"" +
            (attributes.empty() ? std::string() : " " + std::string(attributes)) + ">" + xml_text(content) +
            "</text>\n";
  }
  // The marker of a quantity: a square (reserved), a circle (allocated), a
  // cross (skipped) or a triangle (failed); filled when measured.
  void marker(std::string_view shape, double x, double y, std::string_view colour, bool filled) {
    const std::string fill = filled ? std::string(colour) : std::string("white");
    if (shape == "square") {
      out_ += "<rect x=\"" + fixed1(x - 4) + "\" y=\"" + fixed1(y - 4) + R"(" width="8" height="8" fill=")" + fill +
              "\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.5\"/>\n";
    } else if (shape == "circle") {
      out_ += "<circle cx=\"" + fixed1(x) + "\" cy=\"" + fixed1(y) + R"(" r="3.5" fill=")" + fill + "\" stroke=\"" +
              std::string(colour) + "\" stroke-width=\"1.5\"/>\n";
    } else if (shape == "cross") {
      line(x - 5, y - 5, x + 5, y + 5, colour, 2);
      line(x - 5, y + 5, x + 5, y - 5, colour, 2);
    } else {
      out_ += "<polygon points=\"" + fixed1(x) + "," + fixed1(y - 6) + " " + fixed1(x - 6) + "," + fixed1(y + 5) + " " +
              fixed1(x + 6) + "," + fixed1(y + 5) + "\" fill=\"" + fill + "\" stroke=\"" + std::string(colour) +
              "\" stroke-width=\"1.5\"/>\n";
    }
  }
  [[nodiscard]] std::string take() { return std::move(out_); }

 private:
  [[nodiscard]] static std::string dash_attribute(std::string_view dash) {
    return dash.empty() ? std::string() : " stroke-dasharray=\"" + std::string(dash) + "\"";
  }
  std::string out_;
};

}  // namespace detail

namespace detail {

// Which of batch, context and width take more than one value.
[[nodiscard]] inline std::array<bool, 3> varying_axes(const std::vector<summary_entry>& entries) {
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

// The parameters that do not vary (the x axis left out).
[[nodiscard]] inline std::string configuration_text(const std::vector<summary_entry>& entries,
                                                    const std::array<bool, 3>& varies, std::size_t x_axis,
                                                    const std::set<element_type>& dtypes) {
  std::string text;
  std::set<std::string> runs;
  for (const auto& e : entries) {
    runs.insert("warmup " + to_decimal_string(e.point.warmup) + ", repeats " + e.point.repeats.text());
  }
  for (std::size_t a = 0; a < numeric_axes.size(); ++a) {
    if (!varies[a] && a != x_axis && !entries.empty()) {
      text += std::string(numeric_axes[a].name) + " " + to_decimal_string(numeric_axes[a].value(entries.front().point)) +
              ", ";
    }
  }
  if (dtypes.size() == 1) {
    text += std::string(name_of(*dtypes.begin())) + ", ";
  }
  return text + (runs.size() == 1 ? *runs.begin() : std::string("warmup and repeats differ by source"));
}

// A series per GPU and per value of each other axis that varies.
[[nodiscard]] inline std::string series_label(const std::string& device, const summary_entry& e,
                                              const std::array<bool, 3>& varies, std::size_t x_axis,
                                              bool dtype_varies) {
  std::string label = device;
  for (std::size_t a = 0; a < numeric_axes.size(); ++a) {
    if (varies[a] && a != x_axis) {
      label += ", " + std::string(numeric_axes[a].name) + " " + to_decimal_string(numeric_axes[a].value(e.point));
    }
  }
  if (dtype_varies) {
    label += ", " + std::string(name_of(e.point.dtype));
  }
  return label;
}

[[nodiscard]] inline point_mark mark_of(outcome_kind o) noexcept {
  if (is_skip(o)) {
    return point_mark::skipped;
  }
  return o == outcome_kind::measured || o == outcome_kind::predicted ? point_mark::done : point_mark::failed;
}

// Adds an entry's point to its series.
inline void add_point(plot_series& s, const summary_entry& e, double x) {
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
  s.points.push_back(pp);
}

}  // namespace detail

/// The plot's data from summary entries: the x axis is the first of batch,
/// context and width that takes more than one value (batch when none does);
/// one series per GPU (predictions form their own) and per combination of
/// the other axes that vary, the dtype included.
[[nodiscard]] inline plot_input make_plot_input(const std::vector<summary_entry>& entries) {
  plot_input in;
  const auto varies = detail::varying_axes(entries);
  std::size_t x_axis = 0;  // batch when nothing varies
  for (std::size_t a = varies.size(); a-- > 0;) {
    if (varies[a]) {
      x_axis = a;
    }
  }
  const auto& axis = detail::numeric_axes[x_axis];
  std::set<element_type> dtypes;
  for (const auto& e : entries) {
    dtypes.insert(e.point.dtype);
  }
  in.axis = std::string(axis.name);
  in.axis_label = std::string(axis.label);
  in.configuration = detail::configuration_text(entries, varies, x_axis, dtypes);
  std::map<std::string, std::size_t> series_of;
  std::set<std::string> devices;
  bool any_prediction = false;
  for (const auto& e : entries) {
    const std::string device = detail::series_device(entries, e);
    const std::string label = detail::series_label(device, e, varies, x_axis, dtypes.size() > 1);
    const auto [it, inserted] = series_of.try_emplace(label, in.series.size());
    if (inserted) {
      in.series.push_back(plot_series{label, true, std::nullopt, {}});
    }
    detail::add_point(in.series[it->second], e, static_cast<double>(axis.value(e.point)));
    if (e.record && e.record->kind == record_kind::measurement) {
      devices.insert(device);
    }
    any_prediction = any_prediction || (e.record && e.record->kind == record_kind::prediction);
  }
  for (auto& s : in.series) {
    std::stable_sort(s.points.begin(), s.points.end(), [](const plot_point& a, const plot_point& b) { return a.x < b.x; });
  }
  // A folder whose points have no record yet is neither measured nor
  // predicted: it says so rather than call its empty plot predictions.
  in.predictions_only = devices.empty() && any_prediction;
  std::string list;
  for (const auto& d : devices) {
    list += (list.empty() ? "" : "; ") + d;
  }
  in.devices = !devices.empty()  ? (devices.size() == 1 ? "GPU: " : "GPUs: ") + list
                : any_prediction ? "no GPU: every figure is a prediction (nothing was measured)"
                                 : "no point has a result yet";
  return in;
}

namespace detail {

// Where the plot's values go on the page.
struct plot_frame {
  scale x;
  scale memory;                  // log2 of bytes
  int memory_first{20};          // 2^memory_first bytes at the bottom
  int memory_last{30};
  std::optional<scale> time;     // log10 of seconds, when a point has a time
  int time_first{0};
  int time_last{0};
  std::set<double> x_ticks;
};

inline constexpr double page_width = 1000;
inline constexpr double page_height = 1060;
inline constexpr double left = 110;
inline constexpr double right = 700;
inline constexpr double memory_top = 120;
inline constexpr double memory_bottom = 570;
inline constexpr double time_top = 680;
inline constexpr double time_bottom = 950;
inline constexpr double legend_x = 725;

struct value_range {
  std::optional<double> low;
  std::optional<double> high;
  void add(double v) {
    low = std::min(low.value_or(v), v);
    high = std::max(high.value_or(v), v);
  }
};

// The powers of `base` around a positive range, at least one apart.
[[nodiscard]] inline std::pair<int, int> log_bounds(const value_range& r, double (*log)(double), int first, int last) {
  if (r.low && r.high) {
    first = static_cast<int>(std::floor(log(*r.low)));
    last = static_cast<int>(std::ceil(log(*r.high)));
  }
  return {first, last <= first ? first + 1 : last};
}

[[nodiscard]] inline double log2_of(double v) { return std::log2(v); }
[[nodiscard]] inline double log10_of(double v) { return std::log10(v); }

// A point's bytes and times, into the ranges of the two panels.
inline void add_ranges(const plot_point& p, value_range& bytes, value_range& seconds) {
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

[[nodiscard]] inline plot_frame frame_of(const plot_input& in) {
  plot_frame f;
  value_range x;
  value_range bytes;
  value_range seconds;
  for (const auto& s : in.series) {
    if (s.total_memory) {
      bytes.add(*s.total_memory);
    }
    for (const auto& p : s.points) {
      x.add(std::log2(p.x));
      f.x_ticks.insert(p.x);
      add_ranges(p, bytes, seconds);
    }
  }
  const double x_low = x.low.value_or(0);
  const double x_high = x.high.value_or(0);
  const double pad = x_high - x_low < 1 ? 1.0 : 0.5;
  f.x = scale{x_low - pad, x_high + pad, left, right};
  std::tie(f.memory_first, f.memory_last) = log_bounds(bytes, &log2_of, 20, 30);
  f.memory = scale{static_cast<double>(f.memory_first), static_cast<double>(f.memory_last), memory_bottom, memory_top};
  if (seconds.low) {
    std::tie(f.time_first, f.time_last) = log_bounds(seconds, &log10_of, 0, 1);
    f.time = scale{static_cast<double>(f.time_first), static_cast<double>(f.time_last), time_bottom, time_top};
  }
  return f;
}

[[nodiscard]] inline std::string colour_of(std::size_t series) { return std::string(palette[series % palette.size()]); }

inline void draw_x_ticks(svg_writer& w, const plot_frame& f, double top, double bottom) {
  std::size_t shown = 0;
  const std::size_t every = f.x_ticks.size() > 14 ? (f.x_ticks.size() + 13) / 14 : 1;
  for (const double x : f.x_ticks) {
    const double px = f.x(std::log2(x));
    w.line(px, top, px, bottom, "#f0f0f0", 1);
    if (shown++ % every == 0) {
      w.text(px, bottom + 18, to_decimal_string(static_cast<std::uint64_t>(x)), R"(text-anchor="middle")");
    }
  }
}

// A panel's frame: its x ticks, its axes and the x axis's label.
inline void draw_axes(svg_writer& w, const plot_frame& f, const plot_input& in, double top, double bottom,
                      std::string_view y_label) {
  draw_x_ticks(w, f, top, bottom);
  w.line(left, bottom, right, bottom, "black", 1);
  w.line(left, top, left, bottom, "black", 1);
  w.text((left + right) / 2, bottom + 42, in.axis_label, R"(text-anchor="middle" font-weight="bold")");
  const std::string middle = fixed1((top + bottom) / 2);
  w.text(28, (top + bottom) / 2, y_label,
         R"svg(text-anchor="middle" font-weight="bold" transform="rotate(-90 28 )svg" + middle + ")\"");
}

inline void draw_header(svg_writer& w, const plot_input& in) {
  const std::string title = "mesure_memoire sweep: peak memory against " + in.axis;
  w.raw(R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" + fixed1(page_width) + "\" height=\"" +
        fixed1(page_height) + "\" viewBox=\"0 0 " + fixed1(page_width) + " " + fixed1(page_height) +
        R"(" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">)" + "\n");
  w.raw("<title>" + xml_text(title) + "</title>\n");
  w.raw(R"(<rect x="0" y="0" width=")" + fixed1(page_width) + R"(" height=")" + fixed1(page_height) +
        R"(" fill="white"/>)" + "\n");
  w.text(left, 34, title, R"(font-size="19" font-weight="bold")");
  w.text(left, 58, "Configuration: " + in.configuration);
  w.text(left, 78, in.devices);
  if (in.predictions_only) {
    w.text(left, 98, "Every point below is a PREDICTION of the caching allocator's counters, not a measurement.",
           R"(fill="#d62728" font-weight="bold")");
  }
}

// Which entries the legend needs.
struct legend_use {
  bool measured{false};
  bool predicted{false};
  bool total{false};
  bool skipped{false};
  bool failed{false};
};

using point_value = std::optional<double> plot_point::*;

[[nodiscard]] inline std::vector<std::pair<double, double>> path_of(const plot_frame& f, const plot_series& s,
                                                                    point_value value) {
  std::vector<std::pair<double, double>> points;
  for (const auto& p : s.points) {
    if (p.*value) {
      points.emplace_back(f.x(std::log2(p.x)), f.memory(std::log2(*(p.*value))));
    }
  }
  return points;
}

// The markers of one point: skipped and failed points at their prediction.
inline void draw_point(svg_writer& w, const plot_frame& f, const plot_series& s, const plot_point& p,
                       std::string_view colour, legend_use& used) {
  const double px = f.x(std::log2(p.x));
  const auto y = [&](double bytes) { return f.memory(std::log2(bytes)); };
  if (p.mark == point_mark::skipped || p.mark == point_mark::failed) {
    const double py = p.predicted_reserved ? y(*p.predicted_reserved) : memory_bottom - 8;
    const bool skipped = p.mark == point_mark::skipped;
    w.marker(skipped ? "cross" : "triangle", px, py, skipped ? skipped_colour : failed_colour, true);
    (skipped ? used.skipped : used.failed) = true;
    return;
  }
  if (p.measured_reserved) {
    w.marker("square", px, y(*p.measured_reserved), colour, true);
    used.measured = true;
  }
  if (p.measured_allocated) {
    w.marker("circle", px, y(*p.measured_allocated), colour, true);
  }
  if (s.prediction && p.predicted_reserved) {
    w.marker("square", px, y(*p.predicted_reserved), colour, false);
  }
  if (s.prediction && p.predicted_allocated) {
    w.marker("circle", px, y(*p.predicted_allocated), colour, false);
  }
  used.predicted = used.predicted || p.predicted_reserved.has_value();
}

[[nodiscard]] inline legend_use draw_memory_panel(svg_writer& w, const plot_frame& f, const plot_input& in) {
  w.raw("<g id=\"memory-panel\">\n");
  const int step = std::max(1, (f.memory_last - f.memory_first + 9) / 10);
  for (int k = f.memory_first; k <= f.memory_last; k += step) {
    const double y = f.memory(k);
    w.line(left, y, right, y, "#e0e0e0", 1);
    w.text(left - 8, y + 4, power_of_two_bytes(k), R"(text-anchor="end")");
  }
  draw_axes(w, f, in, memory_top, memory_bottom, "peak memory on the device (bytes, log2 scale; 1 GiB = 2^30 bytes)");
  legend_use used;
  std::set<std::string> totals_drawn;  // series of one GPU share its line
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    const auto& s = in.series[i];
    const std::string colour = colour_of(i);
    const std::string what = s.prediction ? "usable memory given (--memory-gib)"
                                          : "device total memory, " + s.label.substr(0, s.label.find(", "));
    if (s.total_memory && totals_drawn.insert(what + fixed1(*s.total_memory)).second) {
      const double y = f.memory(std::log2(*s.total_memory));
      w.line(left, y, right, y, colour, 1.5, "10 3 2 3");
      w.text(left + 6, y - 5, what + ": " + gib_text(static_cast<std::uint64_t>(*s.total_memory)),
             R"(font-size="11" fill=")" + colour + "\"");
      used.total = true;
    }
    // The prediction as lines; hollow markers where it is all there is.
    w.polyline(path_of(f, s, &plot_point::predicted_reserved), colour, 1.5, "7 4");
    w.polyline(path_of(f, s, &plot_point::predicted_allocated), colour, 1.2, "2 3");
    w.polyline(path_of(f, s, &plot_point::measured_reserved), colour, 2.5);
    w.polyline(path_of(f, s, &plot_point::measured_allocated), colour, 1.5);
    for (const auto& p : s.points) {
      draw_point(w, f, s, p, colour, used);
    }
  }
  w.raw("</g>\n");
  return used;
}

class legend_writer {
 public:
  explicit legend_writer(svg_writer& w) : w_(&w) {}
  void heading(std::string_view text) {
    w_->text(legend_x, y_, text, R"(font-weight="bold")");
    y_ += 20;
  }
  // A sample line, optionally with a marker, then its label (and a second line).
  void line(std::string_view label, double width, std::string_view dash, std::string_view marker = "",
            std::string_view second = "") {
    if (width > 0) {
      w_->line(legend_x, y_ - 4, legend_x + 30, y_ - 4, "black", width, dash);
    }
    if (!marker.empty()) {
      const bool special = marker == "cross" || marker == "triangle";
      const std::string_view colour = marker == "cross" ? skipped_colour : marker == "triangle" ? failed_colour : "black";
      w_->marker(marker, legend_x + 15, y_ - 4, special ? colour : std::string_view("black"), true);
    }
    w_->text(legend_x + 40, y_, label, R"(font-size="12")");
    y_ += 20;
    if (!second.empty()) {
      w_->text(legend_x + 40, y_ - 4, second, R"(font-size="12")");
      y_ += 16;
    }
  }
  void swatch(std::string_view label, const std::string& colour) {
    w_->raw("<rect x=\"" + fixed1(legend_x) + "\" y=\"" + fixed1(y_ - 11) + R"(" width="30" height="10" fill=")" +
            colour + "\"/>\n");
    w_->text(legend_x + 40, y_, label, R"(font-size="12")");
    y_ += 20;
  }
  void gap() { y_ += 8; }

 private:
  svg_writer* w_;
  double y_{memory_top + 4};
};

inline void draw_legend(svg_writer& w, const plot_input& in, const legend_use& used) {
  w.raw("<g id=\"legend\">\n");
  legend_writer legend(w);
  legend.heading("Legend");
  if (used.measured) {
    legend.line("peak reserved, measured", 2.5, "", "square");
    legend.line("peak allocated, measured", 1.5, "", "circle");
  }
  if (used.predicted) {
    legend.line("peak reserved, predicted", 1.5, "7 4");
    legend.line("peak allocated, predicted", 1.2, "2 3");
  }
  if (used.total) {
    legend.line(in.predictions_only ? "usable memory given" : "device total memory", 1.5, "10 3 2 3");
  }
  if (used.skipped) {
    legend.line("skipped (predicted not to fit,", 0, "", "cross", "or cut off), at its prediction");
  }
  if (used.failed) {
    legend.line("failed (exit 3: out of memory,", 0, "", "triangle", "or other), at its prediction");
  }
  legend.gap();
  legend.heading("Series (colour)");
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    legend.swatch(in.series[i].label, colour_of(i));
  }
  w.raw("</g>\n");
}

// One series' median warm pass times, with the interval's whiskers.
inline void draw_times(svg_writer& w, const plot_frame& f, const plot_series& s, const std::string& colour) {
  const auto t = [&](double seconds) { return (*f.time)(std::log10(seconds)); };
  std::vector<std::pair<double, double>> line;
  for (const auto& p : s.points) {
    if (!p.warm_seconds || !(p.warm_seconds->median > 0)) {
      continue;
    }
    const double px = f.x(std::log2(p.x));
    line.emplace_back(px, t(p.warm_seconds->median));
    const auto& lower = p.warm_seconds->lower;
    const auto& upper = p.warm_seconds->upper;
    if (lower && upper && *lower > 0) {
      w.line(px, t(*lower), px, t(*upper), colour, 1.2);
      w.line(px - 4, t(*lower), px + 4, t(*lower), colour, 1.2);
      w.line(px - 4, t(*upper), px + 4, t(*upper), colour, 1.2);
    }
  }
  w.polyline(line, colour, 2);
  for (const auto& [px, py] : line) {
    w.marker("circle", px, py, colour, true);
  }
}

inline void draw_time_panel(svg_writer& w, const plot_frame& f, const plot_input& in) {
  w.raw("<g id=\"time-panel\">\n");
  w.text(left, time_top - 22,
         "Median warm pass time (host wall time per warm_forward pass; bars: 95 % interval of the median)",
         R"(font-weight="bold")");
  draw_axes(w, f, in, time_top, time_bottom, "seconds per pass (log10 scale)");
  if (!f.time) {
    w.text((left + right) / 2, (time_top + time_bottom) / 2,
           in.predictions_only ? "No timing: these points are predictions, nothing ran"
                               : "No timing: no point was measured",
           R"(text-anchor="middle" fill="#7f7f7f" font-size="15")");
    w.raw("</g>\n");
    return;
  }
  const bool minor_ticks = f.time_last - f.time_first <= 2;  // 2 and 5 times each power too
  for (int k = f.time_first; k <= f.time_last; ++k) {
    const double y = (*f.time)(k);
    w.line(left, y, right, y, "#e0e0e0", 1);
    w.text(left - 8, y + 4, power_of_ten_seconds(k), R"(text-anchor="end")");
    for (const std::uint64_t times : {std::uint64_t{2}, std::uint64_t{5}}) {
      if (minor_ticks && k < f.time_last) {
        const double minor = (*f.time)(k + std::log10(static_cast<double>(times)));
        w.line(left, minor, right, minor, "#f0f0f0", 1);
        w.text(left - 8, minor + 4, power_of_ten_seconds(k, times), R"(text-anchor="end" font-size="11" fill="#555555")");
      }
    }
  }
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    draw_times(w, f, in.series[i], colour_of(i));
  }
  w.raw("</g>\n");
}

}  // namespace detail

/// The SVG document (with its XML declaration when `standalone`, without it
/// for inclusion in a page): the memory panel with its legend, then the time
/// panel. Every text of `in` is escaped with xml_text().
[[nodiscard]] inline std::string plot_svg(const plot_input& in, bool standalone = true) {
  const detail::plot_frame frame = detail::frame_of(in);
  detail::svg_writer w;
  if (standalone) {
    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  }
  detail::draw_header(w, in);
  const auto used = detail::draw_memory_panel(w, frame, in);
  detail::draw_legend(w, in, used);
  detail::draw_time_panel(w, frame, in);
  w.text(detail::left, detail::page_height - 34,
         "Filled markers: measured by the process's caching allocator counters. Dashed and dotted lines, hollow "
         "markers: predicted.",
         R"(font-size="11" fill="#444444")");
  w.text(detail::left, detail::page_height - 18,
         "Skipped and failed points are drawn at their predicted peak reserved (at the bottom when there is none).",
         R"(font-size="11" fill="#444444")");
  w.raw("</svg>\n");
  return w.take();
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_SVG_HPP
