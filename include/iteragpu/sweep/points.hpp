#ifndef ITERAGPU_SWEEP_POINTS_HPP
#define ITERAGPU_SWEEP_POINTS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The plan of a sweep: the product of its axes in a stable order, each
/// point numbered from 0, and the file points.tsv that carries it from the
/// planning machine to the ones that run the points (a job array's task N
/// runs point N).
namespace iteragpu::sweep {

/// One point of a plan: a shape of the synthetic network, its element type
/// and its passes, measured (or predicted) by one process.
struct sweep_point {
  std::size_t index{0};                       ///< its place in the plan, from 0; names its files
  synthetic_shape shape;                      ///< batch, context and width
  element_type dtype{element_type::float32};  ///< the element type
  std::uint64_t warmup{1};                    ///< warm-up passes, 0 or more
  repeat_setting repeats{2};                  ///< measured passes, a count or auto
  /// Equal when every member is equal.
  friend bool operator==(const sweep_point&, const sweep_point&) = default;
};

/// The axes of a sweep, as the command line gives them: the values of each
/// size axis and the dtypes (every list sorted and without repeats, as
/// parse_size_list() and parse_dtype_list() give them), and the passes
/// shared by every point. make_plan() makes their product.
struct sweep_axes {
  std::vector<std::uint64_t> batch{1};                     ///< batch sizes, smallest first
  std::vector<std::uint64_t> context{16};                  ///< positions per input, smallest first
  std::vector<std::uint64_t> width{64};                    ///< model widths, smallest first
  std::vector<element_type> dtype{element_type::float32};  ///< element types, fewest bytes first
  std::uint64_t warmup{1};                                 ///< warm-up passes of every point
  repeat_setting repeats{2};                               ///< measured passes of every point
};

/// The most points a plan may have, so that a typing slip (1..2^60 on three
/// axes) is refused instead of filling a disk with records.
inline constexpr std::size_t max_points = 100'000;

/// Every combination of the axes, numbered from 0: dtype outermost, then
/// width, context, and batch innermost, each in the order of its list. With
/// the lists in order (smallest first, fewest bytes first), a point comes
/// after every point that is no larger on any axis, which the out-of-memory
/// cut-off (cut_off_reason()) relies on. The error, when a list is empty or
/// the product passes max_points, says so.
[[nodiscard]] inline result<std::vector<sweep_point>, std::string> make_plan(const sweep_axes& axes) {
  std::size_t count = 1;
  for (const std::size_t n : {axes.batch.size(), axes.context.size(), axes.width.size(), axes.dtype.size()}) {
    const auto product = checked_mul(count, n);
    if (n == 0 || !product || *product > max_points) {
      return unexpected{"the lists make " +
                        (n == 0 ? std::string("no point") : std::string("more than ") + to_decimal_string(max_points) +
                                                                " points") +
                        "; expected 1 to " + to_decimal_string(max_points)};
    }
    count = *product;
  }
  std::vector<sweep_point> points;
  points.reserve(count);
  for (const element_type dtype : axes.dtype) {
    for (const std::uint64_t width : axes.width) {
      for (const std::uint64_t context : axes.context) {
        for (const std::uint64_t batch : axes.batch) {
          points.push_back(sweep_point{points.size(), synthetic_shape{batch, context, width}, dtype, axes.warmup,
                                       axes.repeats});
        }
      }
    }
  }
  return points;
}

/// `point-0007`: the file names of point `index` of a plan of `count` points,
/// without their suffix. The files are all in the sweep's folder:
/// `point-0007.json` is its record (the result of the point, whatever its
/// outcome), beside which a measured point has `point-0007.measurement.json`
/// (written by `measure`) and a predicted one `point-0007.prediction.json`.
/// Indices take at least four digits, more when the plan needs them, so that
/// names sort.
[[nodiscard]] inline std::string point_stem(std::size_t index, std::size_t count) {
  const std::string digits = to_decimal_string(index);
  const std::size_t width = std::max<std::size_t>(4, to_decimal_string(count == 0 ? 0 : count - 1).size());
  return "point-" + std::string(width > digits.size() ? width - digits.size() : 0, '0') + digits;
}
/// `point-0007.json`: the point's record (see point_stem()).
[[nodiscard]] inline std::string record_name(std::size_t index, std::size_t count) {
  return point_stem(index, count) + ".json";
}
/// `point-0007.measurement.json`: the result `measure` writes for the point (see point_stem()).
[[nodiscard]] inline std::string measurement_name(std::size_t index, std::size_t count) {
  return point_stem(index, count) + ".measurement.json";
}
/// `point-0007.prediction.json`: the predicted phase rows of a predicted point (see point_stem()).
[[nodiscard]] inline std::string prediction_name(std::size_t index, std::size_t count) {
  return point_stem(index, count) + ".prediction.json";
}

/// The plan's file name in the sweep's folder.
inline constexpr std::string_view points_file = "points.tsv";
/// The first line of points.tsv, the names of its tab-separated fields.
inline constexpr std::string_view points_header = "index\tbatch\tcontext\twidth\tdtype\twarmup\trepeats\tresult";

/// The text of points.tsv: points_header, then one line per point with its
/// fields separated by tabs, the last one its record's name; every line ends
/// with a line feed.
[[nodiscard]] inline std::string points_tsv(const std::vector<sweep_point>& points) {
  std::string text(points_header);
  text += '\n';
  for (const auto& p : points) {
    text += to_decimal_string(p.index) + '\t' + to_decimal_string(p.shape.batch) + '\t' +
            to_decimal_string(p.shape.context) + '\t' + to_decimal_string(p.shape.width) + '\t' +
            std::string(name_of(p.dtype)) + '\t' + to_decimal_string(p.warmup) + '\t' + p.repeats.text() + '\t' +
            record_name(p.index, points.size()) + '\n';
  }
  return text;
}

namespace detail {

[[nodiscard]] inline std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) {
      return fields;
    }
    start = tab + 1;
  }
}

// The lines of a text that ends with a line end, or the message when the
// last one has none.
[[nodiscard]] inline result<std::vector<std::string_view>, std::string> complete_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      return unexpected{"line " + to_decimal_string(lines.size() + 1) + " has no line end; the file is cut short"};
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

[[nodiscard]] inline std::optional<std::uint64_t> at_least(std::string_view text, std::uint64_t minimum) {
  const auto v = parse_unsigned(text);
  return v.has_value() && *v >= minimum ? std::optional<std::uint64_t>(*v) : std::nullopt;
}

// Line `number` (1-based) of points.tsv, which holds point `number - 2`,
// and the result name it gives.
[[nodiscard]] inline result<std::pair<sweep_point, std::string_view>, std::string> parse_point_line(
    std::string_view line, std::size_t number) {
  const std::string where = "line " + to_decimal_string(number) + ": ";
  const auto fields = split_tabs(line);
  if (fields.size() != 8) {
    return unexpected{where + "expected 8 tab-separated fields, found " + to_decimal_string(fields.size())};
  }
  const std::size_t expected = number - 2;
  const auto index = at_least(fields[0], 0);
  if (!index || *index != expected) {
    return unexpected{where + "the index " + quoted_excerpt(fields[0]) + " is not " + to_decimal_string(expected)};
  }
  const auto batch = at_least(fields[1], 1);
  const auto context = at_least(fields[2], 1);
  const auto width = at_least(fields[3], 1);
  const auto dtype = parse_element_type(fields[4]);
  const auto warmup = at_least(fields[5], 0);
  const auto repeats = parse_repeats(fields[6]);
  if (!batch || !context || !width || !dtype || !warmup || *warmup > pass_limit || !repeats.has_value()) {
    return unexpected{where + "a value is not valid (batch, context and width positive integers, dtype float32, "
                              "float16 or bfloat16, warmup 0 to 10000, repeats 1 to 10000 or auto)"};
  }
  return std::pair{sweep_point{expected, synthetic_shape{*batch, *context, *width}, *dtype, *warmup, *repeats},
                   fields[7]};
}

}  // namespace detail

/// Reads points.tsv back, strictly: the header as written, one line per
/// point numbered 0, 1, 2, ... with valid values, the result names that
/// points_tsv() gives (no other path is ever taken from the file), the same
/// warm-up and repeats on every line, and a line end after the last line.
/// The error names the line at fault, or says that the plan has no point.
[[nodiscard]] inline result<std::vector<sweep_point>, std::string> parse_points_tsv(std::string_view text) {
  const auto lines = detail::complete_lines(text);
  if (!lines.has_value()) {
    return unexpected{lines.error()};
  }
  if (lines->empty() || lines->front() != points_header) {
    return unexpected{"line 1 is not the header " + quoted(points_header)};
  }
  if (lines->size() == 1) {
    return unexpected{std::string("the plan has no point")};
  }
  if (lines->size() - 1 > max_points) {
    // The limit of the command line (make_plan) holds for a file edited by hand.
    return unexpected{"the plan has " + to_decimal_string(lines->size() - 1) + " points; expected 1 to " +
                      to_decimal_string(max_points)};
  }
  std::vector<sweep_point> points;
  std::vector<std::string_view> names;
  for (std::size_t i = 1; i < lines->size(); ++i) {
    auto parsed = detail::parse_point_line((*lines)[i], i + 1);
    if (!parsed.has_value()) {
      return unexpected{parsed.error()};
    }
    const sweep_point& p = parsed->first;
    if (!points.empty() && (p.warmup != points.front().warmup || !(p.repeats == points.front().repeats))) {
      return unexpected{"line " + to_decimal_string(i + 1) +
                        ": warmup and repeats differ from line 2's; a plan has one of each"};
    }
    points.push_back(p);
    names.push_back(parsed->second);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (names[i] != record_name(i, points.size())) {
      return unexpected{"line " + to_decimal_string(i + 2) + ": the result " + quoted_excerpt(names[i]) + " is not " +
                        quoted(record_name(i, points.size()))};
    }
  }
  return points;
}

/// The words a point gives `mesure_memoire measure` after `--device`:
/// `--batch`, `--context`, `--width`, `--dtype`, `--warmup` and `--repeats`
/// with their values.
[[nodiscard]] inline std::vector<std::string> measure_flags(const sweep_point& p) {
  return {"--batch",  to_decimal_string(p.shape.batch), "--context", to_decimal_string(p.shape.context),
          "--width",  to_decimal_string(p.shape.width), "--dtype",   std::string(name_of(p.dtype)),
          "--warmup", to_decimal_string(p.warmup),      "--repeats", p.repeats.text()};
}

/// "batch 8, context 4096, width 8192, bfloat16": how messages name a point.
[[nodiscard]] inline std::string describe(const sweep_point& p) {
  return "batch " + to_decimal_string(p.shape.batch) + ", context " + to_decimal_string(p.shape.context) + ", width " +
         to_decimal_string(p.shape.width) + ", " + std::string(name_of(p.dtype));
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_POINTS_HPP
