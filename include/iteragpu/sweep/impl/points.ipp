#ifndef ITERAGPU_SWEEP_IMPL_POINTS_IPP
#define ITERAGPU_SWEEP_IMPL_POINTS_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/points.hpp"

// The bodies of the functions that <iteragpu/sweep/points.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<sweep_point>, plan_errc> make_plan(const sweep_axes& axes) {
  std::size_t count = 1;
  for (const std::size_t n : {axes.batch.size(), axes.context.size(), axes.width.size(), axes.dtype.size()}) {
    const auto product = checked_mul(count, n);
    if (n == 0) {
      return unexpected{plan_errc::no_point};
    }
    if (!product || *product > max_points) {
      return unexpected{plan_errc::too_many_points};
    }
    count = *product;
  }
  std::vector<sweep_point> points;
  points.reserve(count);
  for (const memory::element_type dtype : axes.dtype) {
    for (const std::uint64_t width : axes.width) {
      for (const std::uint64_t context : axes.context) {
        for (const std::uint64_t batch : axes.batch) {
          points.push_back(sweep_point{points.size(), memory::synthetic_shape{batch, context, width}, dtype,
                                       axes.warmup, axes.repeats});
        }
      }
    }
  }
  return points;
}

[[nodiscard]] ITERAGPU_INLINE std::string point_stem(std::size_t index, std::size_t count) {
  const std::string digits = to_decimal_string(index);
  const std::size_t width = std::max<std::size_t>(4, to_decimal_string(count == 0 ? 0 : count - 1).size());
  return "point-" + std::string(width > digits.size() ? width - digits.size() : 0, '0') + digits;
}

[[nodiscard]] ITERAGPU_INLINE std::string points_tsv(const std::vector<sweep_point>& points) {
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

}  // namespace iteragpu::sweep

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string_view> split_tabs(std::string_view line) {
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

[[nodiscard]] ITERAGPU_INLINE result<std::vector<std::string_view>, points_file_error> complete_lines(
    std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      return unexpected{points_file_error{points_file_errc::cut_short, lines.size() + 1, 0, {}, {}}};
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> at_least(std::string_view text, std::uint64_t minimum) {
  const auto v = parse_unsigned(text);
  return v.has_value() && *v >= minimum ? std::optional<std::uint64_t>(*v) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE result<std::pair<sweep_point, std::string_view>, points_file_error> parse_point_line(
    std::string_view line, std::size_t number) {
  const auto fields = split_tabs(line);
  if (fields.size() != 8) {
    return unexpected{points_file_error{points_file_errc::field_count, number, fields.size(), {}, {}}};
  }
  const std::size_t expected = number - 2;
  const auto index = at_least(fields[0], 0);
  if (!index || *index != expected) {
    return unexpected{points_file_error{points_file_errc::bad_index, number, expected, std::string(fields[0]), {}}};
  }
  const auto batch = at_least(fields[1], 1);
  const auto context = at_least(fields[2], 1);
  const auto width = at_least(fields[3], 1);
  const auto dtype = memory::parse_element_type(fields[4]);
  const auto warmup = at_least(fields[5], 0);
  const auto repeats = parse_repeats(fields[6]);
  if (!batch || !context || !width || !dtype || !warmup || *warmup > memory::pass_limit || !repeats.has_value()) {
    return unexpected{points_file_error{points_file_errc::bad_value, number, 0, {}, {}}};
  }
  return std::pair{sweep_point{expected, memory::synthetic_shape{*batch, *context, *width}, *dtype, *warmup, *repeats},
                   fields[7]};
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<sweep_point>, points_file_error> parse_points_tsv(
    std::string_view text) {
  const auto lines = detail::complete_lines(text);
  if (!lines.has_value()) {
    return unexpected{lines.error()};
  }
  if (lines->empty() || lines->front() != points_header) {
    return unexpected{points_file_error{points_file_errc::bad_header, 1, 0, {}, {}}};
  }
  if (lines->size() == 1) {
    return unexpected{points_file_error{points_file_errc::no_point, 0, 0, {}, {}}};
  }
  if (lines->size() - 1 > max_points) {
    // The limit of the command line (make_plan) holds for a file edited by hand.
    return unexpected{points_file_error{points_file_errc::too_many_points, 0, lines->size() - 1, {}, {}}};
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
      return unexpected{points_file_error{points_file_errc::passes_differ, i + 1, 0, {}, {}}};
    }
    points.push_back(p);
    names.push_back(parsed->second);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (names[i] != record_name(i, points.size())) {
      return unexpected{points_file_error{points_file_errc::bad_result_name, i + 2, 0, std::string(names[i]),
                                          record_name(i, points.size())}};
    }
  }
  return points;
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const sweep_point& p) {
  return "batch " + to_decimal_string(p.shape.batch) + ", context " + to_decimal_string(p.shape.context) + ", width " +
         to_decimal_string(p.shape.width) + ", " + std::string(name_of(p.dtype));
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_POINTS_IPP
