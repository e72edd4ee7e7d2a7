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
#include <utility>
#include <vector>

#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/text.hpp"

// plot.svg, written by hand (no plotting dependency): peak memory against
// the swept axis on log2 scales, measured and predicted, the device's total
// memory, skipped and failed points marked; below it the median warm pass
// time. Readable on its own: a title, the configuration, the GPU, axis
// labels with units and a legend.
namespace iteragpu::sweep {

enum class point_mark { none, done, skipped, failed };

struct plot_point {
  double x{1};
  std::optional<double> measured_allocated;
  std::optional<double> measured_reserved;
  std::optional<double> predicted_allocated;
  std::optional<double> predicted_reserved;
  point_mark mark{point_mark::none};
  std::optional<timing_summary> warm_seconds;
};

struct plot_series {
  std::string label;
  bool prediction{false};  // its points are predictions only
  std::optional<double> total_memory;
  std::vector<plot_point> points;
};

struct plot_input {
  std::string axis;           // "batch", "context" or "width"
  std::string axis_label;     // with its unit
  std::string configuration;  // the parameters that do not vary
  std::string devices;        // the GPUs, or that there is none
  bool predictions_only{false};
  std::vector<plot_series> series;
};

// &, <, >, " and ' as entities, and the text escaped as messages are (no
// control character reaches the file): safe in XML text and attributes.
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
    out_ += "<polyline fill=\"none\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + fixed1(width) + "\"" +
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
      out_ += "<rect x=\"" + fixed1(x - 4) + "\" y=\"" + fixed1(y - 4) + "\" width=\"8\" height=\"8\" fill=\"" + fill +
              "\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.5\"/>\n";
    } else if (shape == "circle") {
      out_ += "<circle cx=\"" + fixed1(x) + "\" cy=\"" + fixed1(y) + "\" r=\"3.5\" fill=\"" + fill + "\" stroke=\"" +
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

// The plot's data from summary entries: the x axis is the first of batch,
// context and width that takes more than one value; one series per GPU
// (predictions form their own) and per combination of the other axes that
// vary.
[[nodiscard]] inline plot_input make_plot_input(const std::vector<summary_entry>& entries) {
  plot_input in;
  const detail::axis_choice* x_axis = detail::numeric_axes.data();
  std::vector<bool> varies(3, false);
  for (std::size_t a = 0; a < detail::numeric_axes.size(); ++a) {
    std::set<std::uint64_t> values;
    for (const auto& e : entries) {
      values.insert(detail::numeric_axes[a].value(e.point));
    }
    varies[a] = values.size() > 1;
  }
  for (std::size_t a = 0; a < detail::numeric_axes.size(); ++a) {
    if (varies[a]) {
      x_axis = &detail::numeric_axes[a];
      break;
    }
  }
  std::set<element_type> dtypes;
  std::set<std::string> runs;
  for (const auto& e : entries) {
    dtypes.insert(e.point.dtype);
    runs.insert("warmup " + to_decimal_string(e.point.warmup) + ", repeats " + e.point.repeats.text());
  }
  in.axis = std::string(x_axis->name);
  in.axis_label = std::string(x_axis->label);
  std::string constant;
  for (std::size_t a = 0; a < detail::numeric_axes.size(); ++a) {
    if (!varies[a] && &detail::numeric_axes[a] != x_axis && !entries.empty()) {
      constant += std::string(detail::numeric_axes[a].name) + " " +
                  to_decimal_string(detail::numeric_axes[a].value(entries.front().point)) + ", ";
    }
  }
  if (dtypes.size() == 1) {
    constant += std::string(name_of(*dtypes.begin())) + ", ";
  }
  in.configuration = constant + (runs.size() == 1 ? *runs.begin() : std::string("warmup and repeats differ by source"));

  std::map<std::string, std::size_t> series_of;
  std::set<std::string> devices;
  bool any_measurement = false;
  for (const auto& e : entries) {
    const std::string device = detail::series_device(entries, e);
    std::string label = device;
    for (std::size_t a = 0; a < detail::numeric_axes.size(); ++a) {
      if (varies[a] && &detail::numeric_axes[a] != x_axis) {
        label += ", " + std::string(detail::numeric_axes[a].name) + " " +
                 to_decimal_string(detail::numeric_axes[a].value(e.point));
      }
    }
    if (dtypes.size() > 1) {
      label += ", " + std::string(name_of(e.point.dtype));
    }
    const auto [it, inserted] = series_of.try_emplace(label, in.series.size());
    if (inserted) {
      in.series.push_back(plot_series{label, true, std::nullopt, {}});
    }
    plot_series& s = in.series[it->second];
    plot_point pp;
    pp.x = static_cast<double>(x_axis->value(e.point));
    if (e.record) {
      const point_record& r = *e.record;
      if (r.kind == record_kind::measurement) {
        s.prediction = false;
        any_measurement = true;
        devices.insert(device);
      }
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
      pp.mark = is_skip(r.outcome) ? point_mark::skipped
                : (r.outcome == outcome_kind::measured || r.outcome == outcome_kind::predicted) ? point_mark::done
                                                                                               : point_mark::failed;
    } else {
      s.prediction = false;
    }
    s.points.push_back(pp);
  }
  for (auto& s : in.series) {
    std::stable_sort(s.points.begin(), s.points.end(), [](const plot_point& a, const plot_point& b) { return a.x < b.x; });
  }
  in.predictions_only = !any_measurement;
  if (devices.empty()) {
    in.devices = "no GPU: every figure is a prediction (nothing was measured)";
  } else {
    std::string list;
    for (const auto& d : devices) {
      list += (list.empty() ? "" : "; ") + d;
    }
    in.devices = (devices.size() == 1 ? "GPU: " : "GPUs: ") + list;
  }
  return in;
}

// The SVG document (with its XML declaration when `standalone`, without it
// for inclusion in a page).
[[nodiscard]] inline std::string plot_svg(const plot_input& in, bool standalone = true) {
  using detail::fixed1;
  constexpr double width = 1000;
  constexpr double height = 1060;
  constexpr double left = 110;
  constexpr double right = 700;
  constexpr double top1 = 120;
  constexpr double bottom1 = 570;
  constexpr double top2 = 680;
  constexpr double bottom2 = 950;
  constexpr double legend_x = 725;

  // The ranges, over every value drawn.
  double x_low = 0;
  double x_high = 0;
  double y_low = 0;
  double y_high = 0;
  bool any_x = false;
  bool any_y = false;
  std::optional<double> t_low;
  std::optional<double> t_high;
  const auto widen = [](std::optional<double>& low, std::optional<double>& high, double v) {
    low = std::min(low.value_or(v), v);
    high = std::max(high.value_or(v), v);
  };
  for (const auto& s : in.series) {
    const auto add_y = [&](double v) {
      if (v > 0) {
        y_low = any_y ? std::min(y_low, v) : v;
        y_high = any_y ? std::max(y_high, v) : v;
        any_y = true;
      }
    };
    if (s.total_memory) {
      add_y(*s.total_memory);
    }
    for (const auto& p : s.points) {
      const double lx = std::log2(p.x);
      x_low = any_x ? std::min(x_low, lx) : lx;
      x_high = any_x ? std::max(x_high, lx) : lx;
      any_x = true;
      for (const auto& v : {p.measured_allocated, p.measured_reserved, p.predicted_allocated, p.predicted_reserved}) {
        if (v) {
          add_y(*v);
        }
      }
      if (p.warm_seconds && p.warm_seconds->median > 0) {
        widen(t_low, t_high, p.warm_seconds->median);
        for (const auto& v : {p.warm_seconds->lower, p.warm_seconds->upper}) {
          if (v && *v > 0) {
            widen(t_low, t_high, *v);
          }
        }
      }
    }
  }
  if (!any_x) {
    x_low = 0;
    x_high = 0;
  }
  const double x_pad = x_high - x_low < 1 ? 1.0 : 0.5;
  const detail::scale sx{x_low - x_pad, x_high + x_pad, left, right};
  const int y_first = any_y ? static_cast<int>(std::floor(std::log2(y_low))) : 20;
  int y_last = any_y ? static_cast<int>(std::ceil(std::log2(y_high))) : 30;
  if (y_last <= y_first) {
    y_last = y_first + 1;
  }
  const detail::scale sy{static_cast<double>(y_first), static_cast<double>(y_last), bottom1, top1};
  const auto ymap = [&](double bytes) { return sy(std::log2(bytes)); };

  detail::svg_writer w;
  if (standalone) {
    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  }
  const std::string title = "mesure_memoire sweep: peak memory against " + in.axis;
  w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed1(width) + "\" height=\"" + fixed1(height) +
        "\" viewBox=\"0 0 " + fixed1(width) + " " + fixed1(height) +
        "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">\n");
  w.raw("<title>" + xml_text(title) + "</title>\n");
  w.raw("<rect x=\"0\" y=\"0\" width=\"" + fixed1(width) + "\" height=\"" + fixed1(height) + "\" fill=\"white\"/>\n");
  w.text(left, 34, title, "font-size=\"19\" font-weight=\"bold\"");
  w.text(left, 58, "Configuration: " + in.configuration);
  w.text(left, 78, in.devices);
  if (in.predictions_only) {
    w.text(left, 98, "Every point below is a PREDICTION of the caching allocator's counters, not a measurement.",
           "fill=\"#d62728\" font-weight=\"bold\"");
  }

  // Panel 1: axes, grid, ticks.
  w.raw("<g id=\"memory-panel\">\n");
  const int y_step = std::max(1, (y_last - y_first + 9) / 10);
  for (int k = y_first; k <= y_last; k += y_step) {
    const double y = sy(k);
    w.line(left, y, right, y, "#e0e0e0", 1);
    w.text(left - 8, y + 4, detail::power_of_two_bytes(k), "text-anchor=\"end\"");
  }
  std::set<double> x_ticks;
  for (const auto& s : in.series) {
    for (const auto& p : s.points) {
      x_ticks.insert(p.x);
    }
  }
  const auto draw_x_ticks = [&](double y_top, double y_bottom) {
    std::size_t shown = 0;
    const std::size_t every = x_ticks.size() > 14 ? (x_ticks.size() + 13) / 14 : 1;
    for (const double x : x_ticks) {
      const double px = sx(std::log2(x));
      w.line(px, y_top, px, y_bottom, "#f0f0f0", 1);
      if (shown++ % every == 0) {
        w.text(px, y_bottom + 18, to_decimal_string(static_cast<std::uint64_t>(x)), "text-anchor=\"middle\"");
      }
    }
  };
  draw_x_ticks(top1, bottom1);
  w.line(left, bottom1, right, bottom1, "black", 1);
  w.line(left, top1, left, bottom1, "black", 1);
  w.text((left + right) / 2, bottom1 + 42, in.axis_label, "text-anchor=\"middle\" font-weight=\"bold\"");
  w.text(28, (top1 + bottom1) / 2, "peak memory on the device (bytes, log2 scale; 1 GiB = 2^30 bytes)",
         "text-anchor=\"middle\" font-weight=\"bold\" transform=\"rotate(-90 28 " + fixed1((top1 + bottom1) / 2) + ")\"");

  bool used_measured = false;
  bool used_predicted = false;
  bool used_total = false;
  bool used_skipped = false;
  bool used_failed = false;
  std::set<std::string> totals_drawn;  // series of one GPU share its line
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    const auto& s = in.series[i];
    const std::string_view colour = detail::palette[i % detail::palette.size()];
    using getter = std::optional<double> plot_point::*;
    const auto path = [&](getter g) {
      std::vector<std::pair<double, double>> points;
      for (const auto& p : s.points) {
        if (p.*g) {
          points.emplace_back(sx(std::log2(p.x)), ymap(*(p.*g)));
        }
      }
      return points;
    };
    const std::string what = s.prediction ? "usable memory given (--memory-gib)"
                                          : "device total memory, " + s.label.substr(0, s.label.find(", "));
    if (s.total_memory && totals_drawn.insert(what + detail::fixed1(*s.total_memory)).second) {
      const double y = ymap(*s.total_memory);
      w.line(left, y, right, y, colour, 1.5, "10 3 2 3");
      w.text(left + 6, y - 5, what + ": " + gib_text(static_cast<std::uint64_t>(*s.total_memory)),
             "font-size=\"11\" fill=\"" + std::string(colour) + "\"");
      used_total = true;
    }
    // The prediction as lines; hollow markers where it is all there is.
    w.polyline(path(&plot_point::predicted_reserved), colour, 1.5, "7 4");
    w.polyline(path(&plot_point::predicted_allocated), colour, 1.2, "2 3");
    w.polyline(path(&plot_point::measured_reserved), colour, 2.5);
    w.polyline(path(&plot_point::measured_allocated), colour, 1.5);
    for (const auto& p : s.points) {
      const double px = sx(std::log2(p.x));
      if (p.mark == point_mark::skipped || p.mark == point_mark::failed) {
        const double py = p.predicted_reserved ? ymap(*p.predicted_reserved) : bottom1 - 8;
        const bool skipped = p.mark == point_mark::skipped;
        w.marker(skipped ? "cross" : "triangle", px, py, skipped ? detail::skipped_colour : detail::failed_colour, true);
        (skipped ? used_skipped : used_failed) = true;
        continue;
      }
      if (p.measured_reserved) {
        w.marker("square", px, ymap(*p.measured_reserved), colour, true);
        used_measured = true;
      }
      if (p.measured_allocated) {
        w.marker("circle", px, ymap(*p.measured_allocated), colour, true);
      }
      if (s.prediction && p.predicted_reserved) {
        w.marker("square", px, ymap(*p.predicted_reserved), colour, false);
      }
      if (s.prediction && p.predicted_allocated) {
        w.marker("circle", px, ymap(*p.predicted_allocated), colour, false);
      }
      used_predicted = used_predicted || p.predicted_reserved.has_value();
    }
  }
  w.raw("</g>\n");

  // The legend, beside panel 1.
  w.raw("<g id=\"legend\">\n");
  double ly = top1 + 4;
  w.text(legend_x, ly, "Legend", "font-weight=\"bold\"");
  ly += 20;
  const auto entry = [&](std::string_view label, auto&& sample) {
    sample(legend_x, ly - 4);
    w.text(legend_x + 40, ly, label, "font-size=\"12\"");
    ly += 20;
  };
  if (used_measured) {
    entry("peak reserved, measured", [&](double x, double y) {
      w.line(x, y, x + 30, y, "black", 2.5);
      w.marker("square", x + 15, y, "black", true);
    });
    entry("peak allocated, measured", [&](double x, double y) {
      w.line(x, y, x + 30, y, "black", 1.5);
      w.marker("circle", x + 15, y, "black", true);
    });
  }
  if (used_predicted) {
    entry("peak reserved, predicted", [&](double x, double y) { w.line(x, y, x + 30, y, "black", 1.5, "7 4"); });
    entry("peak allocated, predicted", [&](double x, double y) { w.line(x, y, x + 30, y, "black", 1.2, "2 3"); });
  }
  if (used_total) {
    entry(in.predictions_only ? "usable memory given" : "device total memory",
          [&](double x, double y) { w.line(x, y, x + 30, y, "black", 1.5, "10 3 2 3"); });
  }
  if (used_skipped) {
    entry("skipped (predicted not to fit,", [&](double x, double y) {
      w.marker("cross", x + 15, y, detail::skipped_colour, true);
    });
    w.text(legend_x + 40, ly - 4, "or cut off), at its prediction", "font-size=\"12\"");
    ly += 16;
  }
  if (used_failed) {
    entry("failed (exit 3: out of memory,", [&](double x, double y) {
      w.marker("triangle", x + 15, y, detail::failed_colour, true);
    });
    w.text(legend_x + 40, ly - 4, "or other), at its prediction", "font-size=\"12\"");
    ly += 16;
  }
  ly += 8;
  w.text(legend_x, ly, "Series (colour)", "font-weight=\"bold\"");
  ly += 20;
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    const std::string_view colour = detail::palette[i % detail::palette.size()];
    w.raw("<rect x=\"" + fixed1(legend_x) + "\" y=\"" + fixed1(ly - 11) + "\" width=\"30\" height=\"10\" fill=\"" +
          std::string(colour) + "\"/>\n");
    w.text(legend_x + 40, ly, in.series[i].label, "font-size=\"12\"");
    ly += 20;
  }
  w.raw("</g>\n");

  // Panel 2: the median warm pass time with its confidence interval.
  w.raw("<g id=\"time-panel\">\n");
  w.text(left, top2 - 22, "Median warm pass time (host wall time per warm_forward pass; bars: 95 % interval of the median)",
         "font-weight=\"bold\"");
  w.line(left, bottom2, right, bottom2, "black", 1);
  w.line(left, top2, left, bottom2, "black", 1);
  draw_x_ticks(top2, bottom2);
  w.text((left + right) / 2, bottom2 + 42, in.axis_label, "text-anchor=\"middle\" font-weight=\"bold\"");
  w.text(28, (top2 + bottom2) / 2, "seconds per pass (log10 scale)",
         "text-anchor=\"middle\" font-weight=\"bold\" transform=\"rotate(-90 28 " + fixed1((top2 + bottom2) / 2) + ")\"");
  if (!t_low) {
    w.text((left + right) / 2, (top2 + bottom2) / 2,
           in.predictions_only ? "No timing: these points are predictions, nothing ran"
                               : "No timing: no point was measured",
           "text-anchor=\"middle\" fill=\"#7f7f7f\" font-size=\"15\"");
  } else {
    const int t_first = static_cast<int>(std::floor(std::log10(*t_low)));
    int t_last = static_cast<int>(std::ceil(std::log10(*t_high)));
    if (t_last <= t_first) {
      t_last = t_first + 1;
    }
    const detail::scale st{static_cast<double>(t_first), static_cast<double>(t_last), bottom2, top2};
    const auto tmap = [&](double s) { return st(std::log10(s)); };
    for (int k = t_first; k <= t_last; ++k) {
      const double y = st(k);
      w.line(left, y, right, y, "#e0e0e0", 1);
      w.text(left - 8, y + 4, detail::power_of_ten_seconds(k), "text-anchor=\"end\"");
      // Over two decades or less, 2 and 5 times each power of ten too.
      for (const double times : {2.0, 5.0}) {
        if (k < t_last && t_last - t_first <= 2) {
          const double minor = st(k + std::log10(times));
          w.line(left, minor, right, minor, "#f0f0f0", 1);
          w.text(left - 8, minor + 4, detail::power_of_ten_seconds(k, times == 2.0 ? 2 : 5),
                 "text-anchor=\"end\" font-size=\"11\" fill=\"#555555\"");
        }
      }
    }
    for (std::size_t i = 0; i < in.series.size(); ++i) {
      const std::string_view colour = detail::palette[i % detail::palette.size()];
      std::vector<std::pair<double, double>> line;
      for (const auto& p : in.series[i].points) {
        if (!p.warm_seconds || !(p.warm_seconds->median > 0)) {
          continue;
        }
        const double px = sx(std::log2(p.x));
        line.emplace_back(px, tmap(p.warm_seconds->median));
        if (p.warm_seconds->lower && p.warm_seconds->upper && *p.warm_seconds->lower > 0) {
          const double y1 = tmap(*p.warm_seconds->lower);
          const double y2 = tmap(*p.warm_seconds->upper);
          w.line(px, y1, px, y2, colour, 1.2);
          w.line(px - 4, y1, px + 4, y1, colour, 1.2);
          w.line(px - 4, y2, px + 4, y2, colour, 1.2);
        }
      }
      w.polyline(line, colour, 2);
      for (const auto& [px, py] : line) {
        w.marker("circle", px, py, colour, true);
      }
    }
  }
  w.raw("</g>\n");
  w.text(left, height - 34,
         "Filled markers: measured by the process's caching allocator counters. Dashed and dotted lines, hollow "
         "markers: predicted.",
         "font-size=\"11\" fill=\"#444444\"");
  w.text(left, height - 18,
         "Skipped and failed points are drawn at their predicted peak reserved (at the bottom when there is none).",
         "font-size=\"11\" fill=\"#444444\"");
  w.raw("</svg>\n");
  return w.take();
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_SVG_HPP
