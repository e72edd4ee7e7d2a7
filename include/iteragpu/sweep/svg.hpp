#ifndef ITERAGPU_SWEEP_SVG_HPP
#define ITERAGPU_SWEEP_SVG_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/palette.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/text.hpp"

/// \file
/// plot.svg, written by hand (no plotting dependency): peak memory against
/// the swept axis on log2 scales, measured and predicted, the device's total
/// memory, skipped points marked by the rule that skipped them and failed
/// points with their exit status; below it the median warm pass time. When
/// batch, context and width all vary, one panel per value of the outermost
/// (small multiples on shared scales). Series differ in colour and marker
/// (palette.hpp); the legend has a column of its own and the page grows to
/// hold it. Readable on its own: a title, the configuration, the GPU, axis
/// labels with units and notes.
namespace iteragpu::sweep {

/// How a point is marked on the memory panel, from its record's outcome.
enum class point_mark {
  none,                   ///< no record yet: nothing is drawn
  done,                   ///< measured or predicted: its figures are drawn
  skipped_device_memory,  ///< skipped, predicted not to fit the device's free memory: a grey X
  skipped_host_memory,    ///< skipped, the model's build predicted not to fit the host's memory: a grey +
  skipped_after_failure,  ///< skipped, a point no larger failed: a grey bar
  skipped_unpredictable,  ///< skipped, its shape cannot be predicted: a grey * at the bottom
  failed                  ///< a failure: a red triangle with its exit status beside it
};

/// One point of a series: its place on the x axis and its figures.
struct plot_point {
  double x{1};                                 ///< the swept axis's value (drawn on a log2 scale)
  std::optional<double> measured_allocated;    ///< measured peak allocated bytes; nothing when not measured
  std::optional<double> measured_reserved;     ///< measured peak reserved bytes; nothing when not measured
  std::optional<double> predicted_allocated;   ///< predicted peak allocated bytes; nothing without a prediction
  std::optional<double> predicted_reserved;    ///< predicted peak reserved bytes; nothing without a prediction
  point_mark mark{point_mark::none};           ///< how the point is marked
  std::string status;                          ///< a failed point's end: "exit 3", "signal 9"; empty otherwise
  std::optional<timing_summary> warm_seconds;  ///< the measured warm pass's host wall time, for the time panel
};

/// One series of the plot, in one panel: the points of one GPU (the
/// predictions form their own) at one value of each other axis that varies
/// (the panel's axis apart).
struct plot_series {
  std::string label;                   ///< the GPU, then the values of the other axes that vary
  bool prediction{false};              ///< every point has a record, and every record is a prediction
  std::optional<double> total_memory;  ///< the largest device memory its records give, in bytes; nothing without one
  std::vector<plot_point> points;      ///< its points, by increasing x
  std::string device;                  ///< its GPU, or "prediction (no GPU)", whatever its label keeps
  std::size_t panel{0};                ///< its panel, in plot_input::panels
  std::size_t style{0};                ///< its colour and marker (style_of()); one per label, in every panel
};

/// What plot_svg() draws, as make_plot_input() makes it.
struct plot_input {
  std::string title_start{"sweep"};  ///< the title before ": peak memory against AXIS"; a program puts its name here
  std::string axis;                  ///< the swept axis: "batch", "context" or "width"
  std::string axis_label;            ///< the x axis's label, with its unit
  std::string configuration;         ///< the parameters that do not vary
  std::string devices;               ///< the GPUs, or that there is none
  bool predictions_only{false};      ///< records, all predictions: the plot says every point is a prediction
  std::string panel_axis;            ///< the axis with one panel per value ("width"); empty for a single panel
  std::vector<std::string> panels;  ///< each panel's title ("width 512"), by increasing value; one empty title at least
  std::vector<plot_series> series;  ///< the series, in the order of their first point
};

/// &, <, >, " and ' as entities, and the text escaped as messages are (no
/// control character reaches the file): safe in XML text and attributes.
[[nodiscard]] std::string xml_text(std::string_view raw);

// The rules the plot labels its axes and lays its text out with.

/// "512 MiB", "1 GiB", "64 GiB" for 2^k bytes.
[[nodiscard]] std::string power_of_two_bytes(int k);

/// "1 us", "20 ms", "5 s" for times x 10^k seconds (times 1, 2 or 5).
[[nodiscard]] std::string power_of_ten_seconds(int k, std::uint64_t times = 1);

/// A conservative width in pixels of `raw`, escaped as messages are, at
/// `size` (DejaVu Sans, the font the plot asks for): wide letters count
/// 0.95 em, capitals and digits 0.75 em, others 0.62 em, bold 12 % more. The layout fits texts with it,
/// so that none runs out of the picture or over a panel.
[[nodiscard]] double text_width(std::string_view raw, double size, bool bold = false);

/// `text` in lines no wider than `width` (text_width()), broken at spaces; a
/// word wider than a line is broken between its characters.
[[nodiscard]] std::vector<std::string> wrap_text(std::string_view text, double size, double width, bool bold = false);

namespace detail {

struct axis_choice {
  std::string_view name;
  std::string_view label;
  std::uint64_t (*value)(const sweep_point&);
};

inline constexpr std::array<axis_choice, 3> numeric_axes{{
    {"batch", "batch (inputs per pass, log2 scale)", [](const sweep_point& p) { return p.shape.batch; }},
    {"context", "context (positions per input, log2 scale)", [](const sweep_point& p) { return p.shape.context; }},
    {"width", "width (model width; hidden = 4 x width; log2 scale)",
     [](const sweep_point& p) { return p.shape.width; }},
}};

// The GPU a record names; a measurement's record without one (a point
// skipped before its device was read) takes the first GPU its source
// names, and a point without a record too.
[[nodiscard]] std::string series_device(const std::vector<summary_entry>& entries, const summary_entry& e);

[[nodiscard]] std::string fixed1(double v);

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

class svg_writer {
 public:
  void raw(std::string_view s) { out_ += s; }
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            std::string_view dash = "");
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                std::string_view dash = "");
  // A text; `size` and `bold` are written as its attributes, so that its
  // width (text_width()) is what the layout reckoned with.
  void text(double x, double y, std::string_view content, double size, bool bold = false,
            std::string_view attributes = "");
  // A marker of `radius` around (x, y): filled with its colour or white.
  void marker(marker_shape shape, double x, double y, std::string_view colour, bool filled, double radius = 4.5);
  [[nodiscard]] std::string take() { return std::move(out_); }

 private:
  // A polygon's corners around (0, 0), for a radius of 1.
  [[nodiscard]] static std::vector<std::pair<double, double>> outline(marker_shape shape);
  [[nodiscard]] static std::string dash_attribute(std::string_view dash) {
    return dash.empty() ? std::string() : " stroke-dasharray=\"" + std::string(dash) + "\"";
  }
  std::string out_;
};

// Which of batch, context and width take more than one value.
[[nodiscard]] std::array<bool, 3> varying_axes(const std::vector<summary_entry>& entries);

// The parameters that do not vary (the x axis left out).
[[nodiscard]] std::string configuration_text(const std::vector<summary_entry>& entries,
                                             const std::array<bool, 3>& varies, std::size_t x_axis,
                                             const std::set<memory::element_type>& dtypes);

// A series per GPU and per value of each other axis that varies, but the
// x axis and the panels' axis.
[[nodiscard]] std::string series_label(const std::string& device, const summary_entry& e,
                                       const std::array<bool, 3>& varies, std::size_t x_axis,
                                       std::optional<std::size_t> panel_axis, bool dtype_varies);

[[nodiscard]] point_mark mark_of(outcome_kind o) noexcept;

// How a failed point's process ended: "exit 3", "signal 9", or the
// outcome's name when no process ran or its end is unknown.
[[nodiscard]] std::string status_of(const point_record& r);

// Adds an entry's point to its series.
void add_point(plot_series& s, const summary_entry& e, double x);

// The axis with a panel per value: the last (the plan's outermost) when
// batch, context and width all vary; nothing otherwise.
[[nodiscard]] std::optional<std::size_t> panel_axis_of(const std::array<bool, 3>& varies);

// The values the entries take on `axis`; none without an axis.
[[nodiscard]] std::set<std::uint64_t> values_of(const std::vector<summary_entry>& entries,
                                                std::optional<std::size_t> axis);

[[nodiscard]] std::vector<std::string> panel_titles(const std::string& axis, const std::set<std::uint64_t>& values);

// Each series' points by increasing x; with one GPU (or the predictions
// alone), named in the header, the labels keep only what tells the series
// apart.
void finish_series(std::vector<plot_series>& series, const std::vector<summary_entry>& entries);

// "GPU: name", "GPUs: a; b", or why there is none.
[[nodiscard]] std::string devices_text(const std::set<std::string>& devices, bool any_prediction);

}  // namespace detail

/// The plot's data from summary entries: the x axis is the first of batch,
/// context and width that takes more than one value (batch when none does);
/// when all three vary, the last (the plan's outermost) gets one panel per
/// value, on shared scales; one series per GPU (predictions form their own)
/// and per combination of the other axes that vary, the dtype included. A
/// series keeps its colour and marker in every panel.
[[nodiscard]] plot_input make_plot_input(const std::vector<summary_entry>& entries);

namespace detail {

// The page: a column of panels on the left, the legend in its own column
// on the right; the page grows downwards with the panels and the legend.
inline constexpr double page_width = 1000;
inline constexpr double left = 110;      // the panels' left edge
inline constexpr double right = 700;     // the panels' right edge
inline constexpr double legend_x = 725;  // the legend's column
inline constexpr double legend_right = 988;
inline constexpr double header_width = page_width - left - 12;
inline constexpr double title_font = 17;
inline constexpr double font = 13;        // texts in general
inline constexpr double small_font = 12;  // the legend, tick labels
inline constexpr double note_font = 11;   // notes beside lines and points, the footer

// How far above the largest figure a device's memory still joins the scale.
inline constexpr double total_reach = 8;

// Where the plot's values go on the page (the vertical scales are made per panel).
struct plot_frame {
  scale x;
  int memory_first{20};  // 2^memory_first bytes at the bottom
  int memory_last{30};
  std::optional<std::pair<int, int>> time;  // powers of ten of seconds, when a point has a time
  std::set<double> x_ticks;
};

struct value_range {
  std::optional<double> low;
  std::optional<double> high;
  void add(double v);
};

// The powers of `base` around a positive range, at least one apart.
[[nodiscard]] std::pair<int, int> log_bounds(const value_range& r, double (*log)(double), int first, int last);

[[nodiscard]] inline double log2_of(double v) { return std::log2(v); }
[[nodiscard]] inline double log10_of(double v) { return std::log10(v); }

// A point's bytes and times, into the ranges of the two charts.
void add_ranges(const plot_point& p, value_range& bytes, value_range& seconds);

[[nodiscard]] plot_frame frame_of(const plot_input& in);

// Where one panel lies: its memory chart, and its time chart when a point has a time.
struct panel_place {
  double memory_top{0};
  double memory_bottom{0};
  std::optional<double> time_top;
  double time_bottom{0};
  double bottom{0};  // below its last axis label
};

// The texts the header writes, each with its size and weight, line by line.
struct text_line {
  std::string text;
  double size{font};
  bool bold{false};
  std::string fill;
};

[[nodiscard]] std::vector<text_line> header_lines(const plot_input& in);

[[nodiscard]] std::vector<text_line> footer_lines(const plot_input& in, bool timing);

// The first of `labels` that fits `room` at `size`, or the last.
[[nodiscard]] std::string_view fitting(std::initializer_list<std::string_view> labels, double size, double room,
                                       bool bold);

// The x ticks under a chart, and the vertical grid.
void draw_x_ticks(svg_writer& w, const plot_frame& f, double top, double bottom);

// A chart's frame: its area, its x ticks, its axes and their labels.
void draw_axes(svg_writer& w, const plot_frame& f, const plot_input& in, double top, double bottom,
               std::initializer_list<std::string_view> y_labels);

using point_value = std::optional<double> plot_point::*;

// The runs of a series' line: a point without the figure, or a point that
// was skipped or failed, ends a run (a measured line never reaches a failed
// point); predictions run on through skipped and failed points, which have
// their prediction.
[[nodiscard]] std::vector<std::vector<std::pair<double, double>>> runs_of(const plot_frame& f, const scale& memory,
                                                                          const plot_series& s, point_value value,
                                                                          bool measured);

// What a legend shows: the line styles and the point marks the plot uses.
struct legend_use {
  bool measured{false};
  bool predicted{false};
  bool total{false};
  std::set<point_mark> marks;
};

[[nodiscard]] marker_shape shape_of(point_mark m) noexcept;

// The markers of one point: skipped and failed points at their prediction,
// a failed one with its exit status beside it (on the left near the right edge).
void draw_point(svg_writer& w, const plot_frame& f, const scale& memory, double bottom, const plot_series& s,
                const plot_point& p, legend_use& used);

// The device's total memory (--memory-gib for predictions) as a line with
// its note, once per GPU and figure; a note at the top when it lies above
// the chart.
void draw_total(svg_writer& w, const scale& memory, const panel_place& place, const plot_series& s,
                const std::string& colour, std::set<std::string>& drawn, legend_use& used);

void draw_memory_chart(svg_writer& w, const plot_frame& f, const plot_input& in, std::size_t panel,
                       const panel_place& place, legend_use& used);

// One series' median warm pass times, with the interval's whiskers; a
// point without a time (failed, skipped) breaks the line.
void draw_times(svg_writer& w, const plot_frame& f, const scale& time, const plot_series& s);

void draw_time_chart(svg_writer& w, const plot_frame& f, const plot_input& in, std::size_t panel,
                     const panel_place& place);

// The legend's column: entries one below the other, labels wrapped to the
// column; every entry a group that records its colour, marker and line.
class legend_writer {
 public:
  legend_writer(svg_writer& w, double top) : w_(&w), y_(top) {}
  void heading(std::string_view text);
  // A sample (a line, a marker, or both), then its label on as many lines as it takes.
  void entry(std::string_view label, std::string_view colour, std::optional<marker_shape> marker, double width,
             std::string_view dash, bool filled = true);
  void gap() { y_ += 8; }
  [[nodiscard]] double bottom() const { return y_; }

 private:
  svg_writer* w_;
  double y_;
};

[[nodiscard]] std::string_view mark_label(point_mark m) noexcept;

// The legend; returns its bottom.
double draw_legend(svg_writer& w, const plot_input& in, const legend_use& used, double top);

}  // namespace detail

/// The SVG document (with its XML declaration when `standalone`, without it
/// for inclusion in a page): the header, then a panel per value of the
/// panels' axis (a memory chart, and a time chart when a point has a time),
/// the legend in its own column on the right, notes at the bottom. The
/// page is as tall as its panels and legend need; every text is laid out
/// with a conservative estimate of its width (detail::text_width()), so that
/// none runs out of the picture. Every text of `in` is escaped with
/// xml_text().
[[nodiscard]] std::string plot_svg(const plot_input& in, bool standalone = true);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/svg.ipp"
#endif

#endif  // ITERAGPU_SWEEP_SVG_HPP
