// What a sweep shows: the progress lines and bar, summary.csv, plot.svg and
// index.html, from records made by hand.
#include <iteragpu/sweep/summary.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "text_checks.hpp"

#include <iteragpu/sweep/html.hpp>
#include <iteragpu/sweep/progress.hpp>
#include <iteragpu/sweep/svg.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::memory::device_index;
using iteragpu::memory::element_type;

namespace {

sw::sweep_point point(std::size_t index, std::uint64_t width, element_type dtype = element_type::bfloat16) {
  return sw::sweep_point{index, {1, 1024, width}, dtype, 1, sw::repeat_setting{2}};
}

// A measured point: peaks 3 GiB + index allocated, + 4096 reserved, its
// prediction 1 GiB above, warm pass 4 ms host / 0.5 s GPU, process 2.5 s of
// which 1.25 s in phases.
sw::point_record measured(const sw::sweep_point& p, const std::string& gpu) {
  sw::point_record r;
  r.kind = sw::record_kind::measurement;
  r.point = p;
  r.device = device_index{0};
  r.outcome = sw::outcome_kind::measured;
  r.gpu_name = gpu;
  r.device_free_bytes = 150'000'000'000U;
  r.device_total_bytes = 150'000'000'000U;
  r.host_available_bytes = 20'000'000'000U;
  r.outside_allocator_bytes = 552'402'944U;
  const std::uint64_t base = (std::uint64_t{3} << 30U) + p.index;
  r.prediction = sw::point_prediction{
      base + (std::uint64_t{1} << 30U), base + (std::uint64_t{1} << 30U) + 4096, {100, 50, 150}, {}};
  r.measured = sw::measured_figures{base,
                                    base + 4096,
                                    600'000'000U,
                                    sw::timing_summary{0.004, 0.0038, 0.0043},
                                    sw::timing_summary{0.5, std::nullopt, std::nullopt},
                                    1.25,
                                    gpu,
                                    150'000'000'000U};
  r.process = sw::process_figures{0, std::nullopt, std::nullopt, 2.5};
  return r;
}

sw::point_record skipped(const sw::sweep_point& p) {
  sw::point_record r;
  r.point = p;
  r.device = device_index{0};
  r.outcome = sw::outcome_kind::skipped_device_memory;
  r.reason = "skipped: predicted 9 bytes > free 8 bytes (peak reserved 5 + outside the allocator 4)";
  r.prediction = sw::point_prediction{std::uint64_t{200} << 30U, std::uint64_t{201} << 30U, {1, 0, 1}, {}};
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_report)

BOOST_AUTO_TEST_CASE(durations_bytes_and_seconds_read_as_people_write_them) {
  BOOST_TEST(sw::format_duration(0) == "0s");
  BOOST_TEST(sw::format_duration(59.4) == "59s");
  BOOST_TEST(sw::format_duration(59.6) == "1m00s");
  BOOST_TEST(sw::format_duration(62) == "1m02s");
  BOOST_TEST(sw::format_duration(3723) == "1h02m03s");
  BOOST_TEST(sw::format_duration(std::nan("")) == "0s");
  BOOST_TEST(sw::format_duration(-5) == "0s");
  BOOST_TEST(sw::gib_text(0) == "0.0 GiB");
  BOOST_TEST(sw::gib_text(std::uint64_t{1} << 30U) == "1.0 GiB");
  // 2^30 - 1 bytes is 0.99999... GiB: rounds to 1.0, the carry goes to the whole part.
  BOOST_TEST(sw::gib_text((std::uint64_t{1} << 30U) - 1U) == "1.0 GiB");
  // 1.25 GiB exactly: the tenth rounds half up, 1.3.
  BOOST_TEST(sw::gib_text((std::uint64_t{5} << 30U) / 4U) == "1.3 GiB");
  BOOST_TEST(sw::gib_text(std::numeric_limits<std::uint64_t>::max()) == "17179869184.0 GiB");
  BOOST_TEST(iteragpu::bytes_text(1) == "1 byte");
  BOOST_TEST(iteragpu::bytes_text(2) == "2 bytes");
  BOOST_TEST(iteragpu::bytes_text(18'446'744'073'709'551'615U) == "18446744073709551615 bytes");
  BOOST_TEST(sw::seconds_text(12.3456) == "12.35 s");
  BOOST_TEST(sw::seconds_text(0.03) == "0.03 s");
  BOOST_TEST(sw::seconds_text(1.5) == "1.50 s");
}

BOOST_AUTO_TEST_CASE(the_bar_counts_points_and_the_remaining_time_follows_the_mean) {
  BOOST_TEST(sw::bar_text(3, 10, 20) == "[######--------------] 3/10");
  BOOST_TEST(sw::bar_text(0, 4, 8) == "[--------] 0/4");
  BOOST_TEST(sw::bar_text(4, 4, 8) == "[########] 4/4");
  BOOST_TEST(sw::remaining_text(10, 0, 4) == "?");
  BOOST_TEST(sw::remaining_text(10, 2, 4) == "~10s");  // 5 s a point, 2 left
  BOOST_TEST(sw::remaining_text(10, 4, 4) == "0s");
  // Cut to the width in bytes, never inside a UTF-8 sequence: "é" is 2 bytes.
  BOOST_TEST(sw::fit_to("h\xC3\xA9llo", 2) == "h");
  BOOST_TEST(sw::fit_to("hello", 10) == "hello");
}

BOOST_AUTO_TEST_CASE(without_a_terminal_each_point_gets_one_plain_line) {
  std::ostringstream out;
  sw::progress_display progress(out, false, 2);
  const auto r = measured(point(0, 1024), "Fake GPU");
  progress.started(r.point, device_index{0});
  BOOST_TEST(out.str().empty());  // nothing on start: one line per point
  progress.finished(r);
  progress.close();
  const std::string text = out.str();
  BOOST_TEST(text.starts_with("sweep: [1/2] point 0 (batch 1, context 1024, width 1024, bfloat16) on cuda:0: measured, "
                              "peak reserved 3221229568 bytes (3.00 GiB), process 2.50 s; elapsed "));
  BOOST_TEST(occurrences(text, "\n") == 1U);
  BOOST_TEST(text.back() == '\n');
  BOOST_TEST(text.find('\r') == std::string::npos);
  std::ostringstream skip;
  sw::progress_display second(skip, false, 1);
  second.finished(skipped(point(1, 2048)));
  BOOST_TEST(skip.str().starts_with("sweep: [1/1] point 1 (batch 1, context 1024, width 2048, bfloat16) on cuda:0: "
                                    "skipped: predicted 9 bytes > free 8 bytes"));
}

BOOST_AUTO_TEST_CASE(on_a_terminal_one_bar_is_redrawn_in_place_within_its_width) {
  std::ostringstream out;
  sw::progress_display progress(out, true, 2, 200);
  const auto r = measured(point(0, 1024), "Fake GPU");
  progress.started(r.point, device_index{0});
  const std::string first = out.str();
  BOOST_TEST(first == "\r\x1b[K[--------------------] 0/2  elapsed 0s  remaining ?  running point 0 on cuda:0 (batch "
                      "1, context 1024, width 1024, bfloat16)");
  progress.finished(r);
  const std::string second = out.str().substr(first.size());
  BOOST_TEST(second.starts_with("\r\x1b[K[##########----------] 1/2  elapsed "));
  BOOST_TEST(second.find("last: point 0 (batch 1, context 1024, width 1024, bfloat16) on cuda:0: measured") !=
             std::string::npos);
  BOOST_TEST(out.str().find('\n') == std::string::npos);
  progress.close();
  BOOST_TEST(out.str().back() == '\n');

  // A narrow terminal: the line is cut to its width less one column, so it never wraps.
  std::ostringstream narrow;
  sw::progress_display small(narrow, true, 2, 40);
  small.started(r.point, device_index{0});
  // 22 + 4 + 10 + 2 + 1 = 39 bytes.
  BOOST_TEST(narrow.str() == "\r\x1b[K[--------------------] 0/2  elapsed 0s ");

  // A predict-only sweep says that it predicts, and names no device.
  std::ostringstream predicting;
  sw::progress_display predicted(predicting, true, 2, 200, true);
  predicted.started(r.point, device_index{0});
  BOOST_TEST(predicting.str() == "\r\x1b[K[--------------------] 0/2  elapsed 0s  remaining ?  predicting point 0 "
                                 "(batch 1, context 1024, width 1024, bfloat16)");
}

BOOST_AUTO_TEST_CASE(a_prediction_never_reads_as_a_measurement) {
  sw::point_record r;
  r.kind = sw::record_kind::prediction;
  r.point = point(0, 64);
  r.outcome = sw::outcome_kind::predicted;
  r.prediction = sw::point_prediction{10, 2097152, {1, 0, 1}, {}};
  BOOST_TEST(sw::outcome_text(r) == "predicted (nothing measured), peak reserved 2097152 bytes (2.00 MiB)");
  std::vector<sw::summary_entry> entries{{"plan", 1, r.point, r}};
  const std::string csv = sw::summary_csv(entries);
  BOOST_TEST(csv.find("\nplan,0,prediction,predicted,,,,1,1024,64,bfloat16,1,2,,,10,2097152,0,,1,") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_summary_has_one_row_per_point_with_every_figure) {
  const auto a = measured(point(0, 1024), "NVIDIA H200");
  std::vector<sw::summary_entry> entries{{"run-a", 3, a.point, a},
                                         {"run-a", 3, point(1, 2048), skipped(point(1, 2048))},
                                         {"run-a", 3, point(2, 4096), std::nullopt}};
  const std::string csv = sw::summary_csv(entries);
  std::istringstream lines(csv);
  std::string header;
  std::string first;
  std::string second;
  std::string third;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  BOOST_TEST(header ==
             "source,index,kind,outcome,reason,gpu_name,device,batch,context,width,dtype,warmup,repeats,"
             "measured_peak_allocated_bytes,measured_peak_reserved_bytes,predicted_peak_allocated_bytes,"
             "predicted_peak_reserved_bytes,outside_allocator_bytes_assumed,outside_allocator_bytes_measured,"
             "predicted_host_bytes,host_available_bytes,device_free_bytes,device_total_bytes,warm_seconds_median,"
             "warm_seconds_ci_lower,warm_seconds_ci_upper,warm_gpu_seconds_median,warm_gpu_seconds_ci_lower,"
             "warm_gpu_seconds_ci_upper,tflops,process_wall_seconds,process_overhead_seconds,exit_code,signal,"
             "result_file");
  // TFLOP/s: 2 x 2 x 1024 rows x 1024 x 4096 = 17,179,869,184 operations in
  // 0.5 s = 0.034359738368 TFLOP/s. Overhead: 2.5 - 1.25 = 1.25 s.
  BOOST_TEST(first ==
             "run-a,0,measurement,measured,,NVIDIA H200,cuda:0,1,1024,1024,bfloat16,1,2,3221225472,3221229568,"
             "4294967296,4294971392,552402944,600000000,150,20000000000,150000000000,150000000000,0.004,0.0038,"
             "0.0043,0.5,,,0.034359738368,2.5,1.25,0,,point-0000.json");
  BOOST_TEST(second ==
             "run-a,1,measurement,skipped_device_memory,skipped: predicted 9 bytes > free 8 bytes (peak reserved 5 + "
             "outside the allocator 4),,cuda:0,1,1024,2048,bfloat16,1,2,,,214748364800,215822106624,0,,1,,,,,,,,,,,,,,,"
             "point-0001.json");
  BOOST_TEST(third == "run-a,2,,no_result,,,,1,1024,4096,bfloat16,1,2,,,,,,,,,,,,,,,,,,,,,,");
}

BOOST_AUTO_TEST_CASE(csv_fields_with_commas_quotes_or_line_ends_are_quoted) {
  BOOST_TEST(sw::csv_field("plain") == "plain");
  BOOST_TEST(sw::csv_field("a,b") == "\"a,b\"");
  BOOST_TEST(sw::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  BOOST_TEST(sw::csv_field("two\nlines") == "\"two\nlines\"");
  BOOST_TEST(sw::number_text(0.1) == "0.1");
  BOOST_TEST(sw::number_text(1e-7) == "1e-07");
  BOOST_TEST(sw::number_text(std::nan("")).empty());
  // 2 x 2 x (2 x 3) x 4 x (4 x 4) = 1536.
  BOOST_TEST(sw::forward_flops({2, 3, 4}) == 1536.0);
}

BOOST_AUTO_TEST_CASE(the_plot_takes_the_axis_that_varies_and_one_series_per_gpu) {
  std::vector<sw::summary_entry> entries;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto p = point(i, std::uint64_t{1024} << i);
    entries.push_back({"a", 3, p, measured(p, "NVIDIA H200")});
    entries.push_back({"b", 3, p, measured(p, "NVIDIA <B&200>")});
  }
  entries.push_back({"b", 4, point(3, 8192), skipped(point(3, 8192))});  // no GPU name: its source's
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST(in.axis == "width");
  BOOST_TEST(in.configuration == "batch 1, context 1024, bfloat16, warmup 1, repeats 2");
  BOOST_TEST(in.devices == "GPUs: NVIDIA <B&200>; NVIDIA H200");
  BOOST_TEST(!in.predictions_only);
  BOOST_TEST_REQUIRE(in.series.size() == 2U);
  BOOST_TEST(in.series[0].label == "NVIDIA H200");
  BOOST_TEST(in.series[1].label == "NVIDIA <B&200>");
  BOOST_TEST(in.series[1].points.size() == 4U);
  BOOST_TEST((in.series[1].points.back().mark == sw::point_mark::skipped_device_memory));
  BOOST_TEST(*in.series[0].total_memory == 150e9);

  const std::string svg = sw::plot_svg(in);
  BOOST_TEST(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
  BOOST_TEST(svg.ends_with("</svg>\n"));
  BOOST_TEST(occurrences(svg, "<text") == occurrences(svg, "</text>"));
  BOOST_TEST(occurrences(svg, "<g ") == occurrences(svg, "</g>"));
  for (const char* label :
       {"sweep: peak memory against width", "Configuration: batch 1, context 1024, bfloat16",
        "width (model width; hidden = 4 x width; log2 scale)", "peak memory on the device (log2 scale)",
        "Median warm pass time", "seconds per pass (log10 scale)", "peak reserved, measured",
        "peak reserved, predicted", "device total memory, NVIDIA H200: 139.7 GiB", "skipped for device memory",
        "NVIDIA &lt;B&amp;200&gt;", ">1024<", ">2048<", ">4096<", ">8192<", ">4 GiB<"}) {
    BOOST_TEST(svg.find(label) != std::string::npos, "missing: " << label);
  }
  BOOST_TEST(svg.find("<B&200>") == std::string::npos);  // the raw name never reaches the XML
  const std::string inline_svg = sw::plot_svg(in, false);
  BOOST_TEST(inline_svg.starts_with("<svg "));
}

BOOST_AUTO_TEST_CASE(a_plot_of_points_without_results_calls_nothing_a_prediction) {
  // A planned folder (--plan-only) before any point has run.
  std::vector<sw::summary_entry> entries;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto p = point(i, std::uint64_t{1024} << i);
    entries.push_back({"plan", 2, p, std::nullopt});
  }
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST(!in.predictions_only);
  BOOST_TEST(in.devices == "no point has a result yet");
  BOOST_TEST(sw::plot_svg(in).find("PREDICTION") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plot_of_predictions_says_so_and_has_no_timing) {
  std::vector<sw::summary_entry> entries;
  for (std::size_t i = 0; i < 2; ++i) {
    sw::point_record r;
    r.kind = sw::record_kind::prediction;
    r.point = sw::sweep_point{i, {std::uint64_t{8} << i, 4096, 8192}, element_type::bfloat16, 1, sw::repeat_setting{2}};
    r.outcome = sw::outcome_kind::predicted;
    r.prediction = sw::point_prediction{std::uint64_t{5} << 30U, std::uint64_t{6} << 30U, {1, 0, 1}, {}};
    entries.push_back({"plan", 2, r.point, r});
  }
  const auto in = sw::make_plot_input(entries);
  BOOST_TEST(in.axis == "batch");
  BOOST_TEST(in.predictions_only);
  BOOST_TEST(in.series[0].label == "prediction (no GPU)");
  const std::string svg = sw::plot_svg(in);
  BOOST_TEST(svg.find("Every point below is a PREDICTION") != std::string::npos);
  BOOST_TEST(svg.find("No timing: these points are predictions, nothing ran") != std::string::npos);
  BOOST_TEST(svg.find("peak reserved, measured") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(text_in_the_plot_and_page_is_escaped_for_xml) {
  BOOST_TEST(sw::xml_text("a<b & \"c\" 'd'\n") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;\\x0A");
  BOOST_TEST(sw::power_of_two_bytes(30) == "1 GiB");
  BOOST_TEST(sw::power_of_two_bytes(35) == "32 GiB");
  BOOST_TEST(sw::power_of_two_bytes(9) == "512 B");
  BOOST_TEST(sw::power_of_two_bytes(20) == "1 MiB");
  BOOST_TEST(sw::power_of_ten_seconds(-3) == "1 ms");
  BOOST_TEST(sw::power_of_ten_seconds(-4) == "100 us");
  BOOST_TEST(sw::power_of_ten_seconds(-3, 5) == "5 ms");
  BOOST_TEST(sw::power_of_ten_seconds(0) == "1 s");
  BOOST_TEST(sw::power_of_ten_seconds(1) == "10 s");
  BOOST_TEST(sw::power_of_ten_seconds(-14) == "1e-14 s");
}

BOOST_AUTO_TEST_CASE(the_page_is_self_contained_and_holds_plot_table_and_environment) {
  const auto p = point(0, 1024);
  std::vector<sw::summary_entry> entries{{"a", 2, p, measured(p, "NVIDIA H200")},
                                         {"a", 2, point(1, 2048), skipped(point(1, 2048))}};
  sw::page_input in;
  in.title = "sweep <1>";
  in.svg = sw::plot_svg(sw::make_plot_input(entries), false);
  in.entries = entries;
  in.environment = {{"GPU", "NVIDIA H200 & co"}};
  const std::string page = sw::index_html(in);
  BOOST_TEST(page.starts_with("<!DOCTYPE html>"));
  BOOST_TEST(page.find("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"") !=
             std::string::npos);
  for (const char* absent : {"<script", "src=", "href=", "@import", "url("}) {
    BOOST_TEST(page.find(absent) == std::string::npos, "found: " << absent);
  }
  BOOST_TEST(page.find("<title>sweep &lt;1&gt;</title>") != std::string::npos);
  BOOST_TEST(page.find("<svg ") != std::string::npos);
  BOOST_TEST(page.find("<?xml") == std::string::npos);
  BOOST_TEST(page.find("<table id=\"summary\">") != std::string::npos);
  BOOST_TEST(occurrences(page, "<tr") == 1U + 2U + 1U);  // heading, two points, one environment line
  BOOST_TEST(page.find("<td>3221229568<br><span class=\"gib\">3.0 GiB</span></td>") != std::string::npos);
  BOOST_TEST(page.find("<tr class=\"skipped\">") != std::string::npos);
  BOOST_TEST(page.find("<th>exit status</th><th>signal</th>") != std::string::npos);
  // The measured point's row: its outcome, then exit 0 and no signal.
  BOOST_TEST(page.find("<td class=\"text\">measured</td><td>0</td><td></td>") != std::string::npos);
  BOOST_TEST(page.find("NVIDIA H200 &amp; co") != std::string::npos);
  BOOST_TEST(page.find("PREDICTION") == std::string::npos);
  in.predictions_only = true;
  BOOST_TEST(sw::index_html(in).find("Every figure on this page is a PREDICTION") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
