// plot.svg whatever is swept: panels when batch, context and width all
// vary, series told apart by colour and marker, skips by their rule, failed
// points with their exit status and no measured line through them.
#include <iteragpu/sweep/svg.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "text_checks.hpp"

#include <iteragpu/sweep/palette.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::memory::device_index;
using iteragpu::memory::element_type;

namespace {

sw::sweep_point shape(std::size_t index, std::uint64_t batch, std::uint64_t context, std::uint64_t width) {
  return sw::sweep_point{index, {batch, context, width}, element_type::bfloat16, 1, sw::repeat_setting{2}};
}

// A prediction of batch x context x width x 1 MiB reserved.
sw::summary_entry predicted(const sw::sweep_point& p) {
  sw::point_record r;
  r.kind = sw::record_kind::prediction;
  r.point = p;
  r.outcome = sw::outcome_kind::predicted;
  const std::uint64_t bytes = p.shape.batch * p.shape.context * p.shape.width << 20U;
  r.prediction = sw::point_prediction{bytes / 2, bytes, {1, 0, 1}, {}};
  return {"plan", 0, p, r};
}

// A measured point of `batch` at 1 GiB x batch reserved, or one that ended
// as `outcome` with that exit status or signal.
sw::summary_entry measured(std::size_t index, std::uint64_t batch,
                           sw::outcome_kind outcome = sw::outcome_kind::measured, std::optional<int> exit_code = 0,
                           std::optional<int> signal = std::nullopt) {
  sw::point_record r;
  r.kind = sw::record_kind::measurement;
  r.point = shape(index, batch, 1024, 4096);
  r.device = device_index{0};
  r.outcome = outcome;
  r.gpu_name = "NVIDIA H200";
  r.device_total_bytes = std::uint64_t{140} << 30U;
  const std::uint64_t bytes = batch << 30U;
  r.prediction = sw::point_prediction{bytes / 2, bytes, {1, 0, 1}, {}};
  if (outcome == sw::outcome_kind::measured) {
    r.measured = sw::measured_figures{bytes / 2,    bytes, std::nullopt,  sw::timing_summary{0.004, 0.0038, 0.0043},
                                      std::nullopt, 1.0,   "NVIDIA H200", std::uint64_t{140} << 30U};
  }
  if (!sw::is_skip(outcome)) {
    r.process = sw::process_figures{exit_code, signal, std::nullopt, 2.0};
  }
  return {"run", 0, r.point, r};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_plot)

BOOST_AUTO_TEST_CASE(the_first_49_series_differ_in_colour_or_marker_and_never_look_skipped_or_failed) {
  BOOST_TEST(sw::distinct_styles == 49U);
  std::set<std::pair<std::string_view, sw::marker_shape>> seen;
  for (std::size_t i = 0; i < sw::distinct_styles; ++i) {
    const auto style = sw::style_of(i);
    BOOST_TEST(seen.insert({style.colour, style.marker}).second, "series " << i << " repeats a style");
    BOOST_TEST((style.marker != sw::marker_shape::cross && style.marker != sw::marker_shape::plus &&
                style.marker != sw::marker_shape::triangle_up));
    BOOST_TEST(style.colour != sw::failed_colour);
  }
  // Neighbours differ in colour; series 7 takes the first colour with the next shape.
  BOOST_TEST(sw::style_of(0).colour == "#000000");
  BOOST_TEST(sw::style_of(1).colour == "#E69F00");
  BOOST_TEST((sw::style_of(7).marker == sw::marker_shape::square));
  BOOST_TEST(sw::style_of(7).colour == "#000000");
}

BOOST_AUTO_TEST_CASE(three_varying_axes_give_one_panel_per_width_on_shared_styles) {
  std::vector<sw::summary_entry> entries;
  std::size_t index = 0;
  for (const std::uint64_t width : {64U, 128U}) {
    for (const std::uint64_t context : {64U, 128U, 256U}) {
      for (const std::uint64_t batch : {1U, 2U, 4U}) {
        entries.push_back(predicted(shape(index++, batch, context, width)));
      }
    }
  }
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST(in.axis == "batch");
  BOOST_TEST(in.panel_axis == "width");
  BOOST_TEST((in.panels == std::vector<std::string>{"width 64", "width 128"}));
  BOOST_TEST(in.configuration == "bfloat16, warmup 1, repeats 2");
  BOOST_TEST_REQUIRE(in.series.size() == 6U);
  // One device for all: the labels keep what tells the series apart.
  BOOST_TEST(in.series[0].label == "context 64");
  BOOST_TEST(in.series[2].label == "context 256");
  BOOST_TEST(in.series[3].label == "context 64");
  BOOST_TEST(in.series[0].panel == 0U);
  BOOST_TEST(in.series[3].panel == 1U);
  BOOST_TEST(in.series[3].style == in.series[0].style);
  BOOST_TEST(in.series[2].style == 2U);
  BOOST_TEST(in.series[0].points.size() == 3U);

  const std::string svg = sw::plot_svg(in);
  BOOST_TEST(occurrences(svg, "<g class=\"panel\">") == 2U);
  BOOST_TEST(occurrences(svg, "class=\"plot-area\"") == 2U);  // no time charts: nothing was measured
  BOOST_TEST(svg.find(">width 64</text>") != std::string::npos);
  BOOST_TEST(svg.find(">width 128</text>") != std::string::npos);
  BOOST_TEST(svg.find("peak memory against batch, one panel per width") != std::string::npos);
  // Legend: two line styles, then three series, each once.
  BOOST_TEST(occurrences(svg, "class=\"legend-entry\"") == 2U + 3U);
  BOOST_TEST(occurrences(svg, R"(data-colour="#E69F00" data-marker="square")") == 1U);
  BOOST_TEST(svg.find(">context 256</text>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(two_varying_axes_give_one_panel_with_a_series_per_context) {
  std::vector<sw::summary_entry> entries;
  std::size_t index = 0;
  for (const std::uint64_t context : {64U, 4096U}) {
    for (const std::uint64_t batch : {1U, 16U}) {
      entries.push_back(predicted(shape(index++, batch, context, 512)));
    }
  }
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST(in.panel_axis.empty());
  BOOST_TEST(in.panels.size() == 1U);
  BOOST_TEST(in.series.size() == 2U);
  BOOST_TEST(in.series[1].label == "context 4096");
  BOOST_TEST(in.configuration == "width 512, bfloat16, warmup 1, repeats 2");
  BOOST_TEST(occurrences(sw::plot_svg(in), "<g class=\"panel\">") == 1U);
}

BOOST_AUTO_TEST_CASE(a_failed_point_carries_its_exit_status_and_breaks_the_measured_line) {
  const std::vector<sw::summary_entry> entries{measured(0, 1),
                                               measured(1, 2),
                                               measured(2, 4, sw::outcome_kind::out_of_memory, 3),
                                               measured(3, 8),
                                               measured(4, 16, sw::outcome_kind::failed, std::nullopt, 9),
                                               measured(5, 32, sw::outcome_kind::failed, 1)};
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST_REQUIRE(in.series.size() == 1U);
  BOOST_TEST(in.series[0].label == "NVIDIA H200");
  const auto& points = in.series[0].points;
  BOOST_TEST((points[2].mark == sw::point_mark::failed));
  BOOST_TEST(points[2].status == "exit 3");
  BOOST_TEST(points[4].status == "signal 9");
  BOOST_TEST(points[5].status == "exit 1");
  BOOST_TEST(points[0].status.empty());

  const std::string svg = sw::plot_svg(in);
  BOOST_TEST(svg.find(R"(class="status" fill="#d62728">exit 3</text>)") != std::string::npos);
  BOOST_TEST(svg.find(">signal 9</text>") != std::string::npos);
  // The last point lies at the right edge: its status is written on its left.
  BOOST_TEST(svg.find(R"(text-anchor="end">exit 1</text>)") != std::string::npos);
  // Measured reserved (2.5 wide): batch 1-2, then batch 8 alone (no line of
  // one point); nothing reaches the failed batch 4.
  BOOST_TEST(occurrences(svg, R"(stroke-width="2.5" points=")") == 1U);
  const auto at = svg.find(R"(stroke-width="2.5" points=")");
  const auto end = svg.find('"', at + 27);
  BOOST_TEST(occurrences(svg.substr(at, end - at), ",") == 2U);
  // The time chart's line breaks there too: batch 1-2 joined, batch 8 alone.
  BOOST_TEST(occurrences(svg, R"(stroke-width="2.0" points=")") == 1U);
  BOOST_TEST(svg.find(">device total memory, NVIDIA H200: 140.0 GiB</text>") != std::string::npos);
  BOOST_TEST(svg.find(">failed, labelled with its</text>") != std::string::npos);
  BOOST_TEST(occurrences(svg, R"(<polygon points=")") >= 3U + 1U);  // three failed triangles, one in the legend
}

BOOST_AUTO_TEST_CASE(points_skipped_for_host_and_device_memory_are_drawn_and_labelled_apart) {
  const std::vector<sw::summary_entry> entries{
      measured(0, 1), measured(1, 2), measured(2, 4, sw::outcome_kind::skipped_device_memory),
      measured(3, 8, sw::outcome_kind::skipped_host_memory), measured(4, 16, sw::outcome_kind::skipped_after_failure)};
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST((in.series[0].points[2].mark == sw::point_mark::skipped_device_memory));
  BOOST_TEST((in.series[0].points[3].mark == sw::point_mark::skipped_host_memory));
  BOOST_TEST((in.series[0].points[4].mark == sw::point_mark::skipped_after_failure));
  const std::string svg = sw::plot_svg(in);
  BOOST_TEST(occurrences(svg, R"(data-colour="#7f7f7f" data-marker="cross")") == 1U);
  BOOST_TEST(occurrences(svg, R"(data-colour="#7f7f7f" data-marker="plus")") == 1U);
  BOOST_TEST(occurrences(svg, R"(data-colour="#7f7f7f" data-marker="bar")") == 1U);
  // The legend's labels, wrapped to its column: their first lines.
  BOOST_TEST(svg.find(">skipped for device memory:</text>") != std::string::npos);
  BOOST_TEST(svg.find(">skipped for host memory: the</text>") != std::string::npos);
  BOOST_TEST(svg.find("failed, labelled") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(texts_are_wrapped_to_a_conservative_width) {
  // 3 lower-case letters at 10 px: 3 x 0.62 x 10; capitals and digits 0.75 em; bold 12 % more.
  BOOST_TEST(sw::text_width("abc", 10) == 18.6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(sw::text_width("A1", 10) == 15.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(sw::text_width("m", 10, true) == 9.5 * 1.12, boost::test_tools::tolerance(1e-9));
  const auto lines = sw::wrap_text("prediction (no GPU), context 4096", 12, 120);
  BOOST_TEST((lines == std::vector<std::string>{"prediction (no", "GPU), context", "4096"}));
  for (const auto& l : lines) {
    BOOST_TEST(sw::text_width(l, 12) <= 120.0);
  }
  // A word wider than the line is cut between its characters.
  const auto cut = sw::wrap_text("aaaaaaaaaa", 10, 20);
  BOOST_TEST((cut == std::vector<std::string>{"aaa", "aaa", "aaa", "a"}));
  BOOST_TEST((sw::wrap_text("", 10, 20) == std::vector<std::string>{""}));
}

BOOST_AUTO_TEST_SUITE_END()
