#ifndef ITERAGPU_SWEEP_HTML_HPP
#define ITERAGPU_SWEEP_HTML_HPP

#include <array>
#include <charconv>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "iteragpu/parse.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"

/// \file
/// index.html: the plot, the summary table and the environment in one
/// self-contained page. Nothing is fetched: no script, no style sheet, no
/// font or image from elsewhere, and a Content-Security-Policy that forbids
/// every load besides the page's own inline style.
namespace iteragpu::sweep {

/// What index.html shows.
struct page_input {
  std::string title;                   ///< the page's title and first heading
  bool predictions_only{false};        ///< nothing was measured: the page says so above the plot
  std::string svg;                     ///< the plot, without its XML declaration (plot_svg())
  std::vector<summary_entry> entries;  ///< the points, one row of the table each
  /// The rows of the environment table: label, value.
  std::vector<std::pair<std::string, std::string>> environment;
};

namespace detail {

enum class cell_style { text, number, bytes, seconds };

struct page_column {
  std::size_t column;  // in summary_columns
  std::string_view heading;
  cell_style style;
};

// The summary's columns the page shows, with their headings.
inline constexpr std::array<page_column, 19> page_columns{{
    {1, "point", cell_style::number},
    {0, "source", cell_style::text},
    {5, "GPU", cell_style::text},
    {7, "batch", cell_style::number},
    {8, "context", cell_style::number},
    {9, "width", cell_style::number},
    {10, "dtype", cell_style::text},
    {2, "kind", cell_style::text},
    {3, "outcome", cell_style::text},
    {32, "exit status", cell_style::number},
    {33, "signal", cell_style::number},
    {14, "measured peak reserved", cell_style::bytes},
    {16, "predicted peak reserved", cell_style::bytes},
    {13, "measured peak allocated", cell_style::bytes},
    {15, "predicted peak allocated", cell_style::bytes},
    {23, "median warm pass", cell_style::seconds},
    {29, "TFLOP/s", cell_style::seconds},
    {31, "process overhead", cell_style::seconds},
    {4, "reason", cell_style::text},
}};

// A cell as the page shows it: bytes exact with their GiB below, times and
// rates to four significant digits (summary.csv keeps every digit).
[[nodiscard]] inline std::string page_cell(const std::string& cell, const page_column& c) {
  if (cell.empty()) {
    return "<td></td>";
  }
  switch (c.style) {
    case cell_style::text:
      return (c.column == 4 ? "<td class=\"reason\">" : "<td class=\"text\">") + xml_text(cell) + "</td>";
    case cell_style::number:
      return "<td>" + xml_text(cell) + "</td>";
    case cell_style::bytes: {
      const auto bytes = parse_unsigned(cell);
      return "<td>" + xml_text(cell) +
             (bytes.has_value() ? "<br><span class=\"gib\">" + gib_text(*bytes) + "</span>" : std::string()) + "</td>";
    }
    case cell_style::seconds: {
      double v = 0;
      const auto parsed = std::from_chars(std::to_address(cell.begin()), std::to_address(cell.end()), v);
      std::array<char, 32> buffer{};
      const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::general, 4);
      const bool ok = parsed.ec == std::errc{} && written.ec == std::errc{};
      return "<td>" + (ok ? std::string(buffer.data(), written.ptr) : xml_text(cell)) +
             (c.column == 29 ? "" : " s") + "</td>";
    }
  }
  return "<td></td>";
}

}  // namespace detail

/// The text of index.html: the title, a warning when every figure is a
/// prediction, the plot, a table of the points (19 of summary.csv's
/// columns, a failed point's exit status or signal among them; skipped
/// points in grey, failed points and points without a result in red,
/// predictions in italics) and the environment. Every text
/// of `in` is escaped with xml_text(), but the SVG, which is inserted as it
/// is.
[[nodiscard]] inline std::string index_html(const page_input& in) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<title>" +
      xml_text(in.title) +
      "</title>\n<style>\n"
      "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px;color:#111}\n"
      "h1{font-size:22px}h2{font-size:18px;margin-top:28px}\n"
      ".warning{color:#b00000;font-weight:bold;font-size:16px}\n"
      "table{border-collapse:collapse;font-size:12px}\n"
      "th,td{border:1px solid #bbb;padding:3px 6px;text-align:right;vertical-align:top;white-space:nowrap}\n"
      "th{background:#eef;white-space:normal}td.text{text-align:left}td.reason{text-align:left;white-space:normal;min-width:300px;max-width:460px}\n"
      ".gib{color:#555;font-size:11px}\n"
      "tr.skipped td{color:#666}tr.failed td{background:#fdd}tr.prediction td{font-style:italic}\n"
      "</style>\n</head>\n<body>\n<h1>" +
      xml_text(in.title) + "</h1>\n";
  if (in.predictions_only) {
    page += "<p class=\"warning\">Every figure on this page is a PREDICTION (simulated caching allocator): nothing was "
            "measured.</p>\n";
  }
  page += "<figure>\n" + in.svg + "</figure>\n<h2>Points</h2>\n<table id=\"summary\">\n<tr>";
  for (const auto& c : detail::page_columns) {
    page += "<th>" + xml_text(c.heading) + "</th>";
  }
  page += "</tr>\n";
  for (const auto& e : in.entries) {
    const auto cells = summary_cells(e);
    std::string row_class;
    if (e.record && is_skip(e.record->outcome)) {
      row_class = "skipped";
    } else if (e.record && (e.record->outcome == outcome_kind::measured || e.record->outcome == outcome_kind::predicted)) {
      row_class = e.record->kind == record_kind::prediction ? "prediction" : "";
    } else {
      row_class = "failed";
    }
    page += "<tr" + (row_class.empty() ? std::string() : " class=\"" + row_class + "\"") + ">";
    for (const auto& c : detail::page_columns) {
      page += detail::page_cell(cells[c.column], c);
    }
    page += "</tr>\n";
  }
  page += "</table>\n<p>The whole table, with every column, is summary.csv beside this page.</p>\n"
          "<h2>Environment</h2>\n<table id=\"environment\">\n";
  for (const auto& [label, value] : in.environment) {
    page += "<tr><th class=\"text\">" + xml_text(label) + "</th><td class=\"text\">" + xml_text(value) + "</td></tr>\n";
  }
  page += "</table>\n</body>\n</html>\n";
  return page;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_HTML_HPP
