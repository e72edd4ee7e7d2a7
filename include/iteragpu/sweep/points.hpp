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
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/lists.hpp"
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
  std::size_t index{0};                                       ///< its place in the plan, from 0; names its files
  memory::synthetic_shape shape;                              ///< batch, context and width
  memory::element_type dtype{memory::element_type::float32};  ///< the element type
  std::uint64_t warmup{1};                                    ///< warm-up passes, 0 or more
  repeat_setting repeats{2};                                  ///< measured passes, a count or auto
  friend bool operator==(const sweep_point&, const sweep_point&) = default;
};

/// The axes of a sweep, as the command line gives them: the values of each
/// size axis and the dtypes (every list sorted and without repeats, as
/// parse_size_list() and parse_dtype_list() give them), and the passes
/// shared by every point. make_plan() makes their product.
struct sweep_axes {
  std::vector<std::uint64_t> batch{1};                                     ///< batch sizes, smallest first
  std::vector<std::uint64_t> context{16};                                  ///< positions per input, smallest first
  std::vector<std::uint64_t> width{64};                                    ///< model widths, smallest first
  std::vector<memory::element_type> dtype{memory::element_type::float32};  ///< element types, fewest bytes first
  std::uint64_t warmup{1};                                                 ///< warm-up passes of every point
  repeat_setting repeats{2};                                               ///< measured passes of every point
};

/// The most points a plan may have, so that a typing slip (1..2^60 on three
/// axes) is refused instead of filling a disk with records.
inline constexpr std::size_t max_points = 100'000;

/// Why the lists make no plan: an empty list (no point), or more than
/// max_points points. Words: report/sweep_errors.hpp.
enum class plan_errc {
  no_point,        ///< a list is empty
  too_many_points  ///< the product of the lists' lengths passes max_points
};

/// What is wrong with a points.tsv (see points_file_error).
enum class points_file_errc {
  cut_short,        ///< line `line` has no line end
  bad_header,       ///< line 1 is not points_header
  no_point,         ///< the header and no point
  too_many_points,  ///< `count` points, more than max_points
  field_count,      ///< line `line` has `count` tab-separated fields, not 8
  bad_index,        ///< line `line`'s index `text` is not `count`
  bad_value,        ///< line `line` has a value that is not valid
  passes_differ,    ///< line `line`'s warmup and repeats differ from line 2's
  bad_result_name   ///< line `line`'s result `text` is not `expected`
};

/// A points.tsv that is refused: why, the line at fault (1-based), a count
/// (the fields found, the index expected or the points), and the text at
/// fault with what was expected. Words: report/sweep_errors.hpp.
struct points_file_error {
  points_file_errc code{points_file_errc::bad_header};  ///< why
  std::size_t line{0};                                  ///< the line at fault; 0 for the whole file
  std::size_t count{0};  ///< field_count: the fields; bad_index: the index expected; too_many_points: the points
  std::string text;      ///< bad_index, bad_result_name: the field as found
  std::string expected;  ///< bad_result_name: the name points_tsv() gives
  friend bool operator==(const points_file_error&, const points_file_error&) = default;
};

/// Every combination of the axes, numbered from 0: dtype outermost, then
/// width, context, and batch innermost, each in the order of its list. With
/// the lists in order (smallest first, fewest bytes first), a point comes
/// after every point that is no larger on any axis, which the out-of-memory
/// cut-off (cut_off_reason()) relies on. The error, when a list is empty or
/// the product passes max_points, says so.
[[nodiscard]] result<std::vector<sweep_point>, plan_errc> make_plan(const sweep_axes& axes);

/// `point-0007`: the file names of point `index` of a plan of `count` points,
/// without their suffix. The files are all in the sweep's folder:
/// `point-0007.json` is its record (the result of the point, whatever its
/// outcome), beside which a measured point has `point-0007.measurement.json`
/// (written by `measure`) and a predicted one `point-0007.prediction.json`.
/// Indices take at least four digits, more when the plan needs them, so that
/// names sort.
[[nodiscard]] std::string point_stem(std::size_t index, std::size_t count);
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
[[nodiscard]] std::string points_tsv(const std::vector<sweep_point>& points);

namespace detail {

[[nodiscard]] std::vector<std::string_view> split_tabs(std::string_view line);

// The lines of a text that ends with a line end, or the line that has none.
[[nodiscard]] result<std::vector<std::string_view>, points_file_error> complete_lines(std::string_view text);

[[nodiscard]] std::optional<std::uint64_t> at_least(std::string_view text, std::uint64_t minimum);

// Line `number` (1-based) of points.tsv, which holds point `number - 2`,
// and the result name it gives.
[[nodiscard]] result<std::pair<sweep_point, std::string_view>, points_file_error> parse_point_line(
    std::string_view line, std::size_t number);

}  // namespace detail

/// Reads points.tsv back, strictly: the header as written, one line per
/// point numbered 0, 1, 2, ... with valid values, the result names that
/// points_tsv() gives (no other path is ever taken from the file), the same
/// warm-up and repeats on every line, and a line end after the last line.
/// The error names the line at fault, or says that the plan has no point.
[[nodiscard]] result<std::vector<sweep_point>, points_file_error> parse_points_tsv(std::string_view text);

/// "batch 8, context 4096, width 8192, bfloat16": how messages name a point.
[[nodiscard]] std::string describe(const sweep_point& p);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/points.ipp"
#endif

#endif  // ITERAGPU_SWEEP_POINTS_HPP
