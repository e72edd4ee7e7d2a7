#ifndef ITERAGPU_SWEEP_IMPL_HTML_IPP
#define ITERAGPU_SWEEP_IMPL_HTML_IPP

#include <charconv>
#include <memory>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/html.hpp"

// The bodies of the functions that <iteragpu/sweep/html.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE std::string page_cell(const std::string& cell, const page_column& c) {
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
      const auto written =
          std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::general, 4);
      const bool ok = parsed.ec == std::errc{} && written.ec == std::errc{};
      return "<td>" + (ok ? std::string(buffer.data(), written.ptr) : xml_text(cell)) + (c.column == 29 ? "" : " s") +
             "</td>";
    }
  }
  return "<td></td>";
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string index_html(const page_input& in) {
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
    } else if (e.record &&
               (e.record->outcome == outcome_kind::measured || e.record->outcome == outcome_kind::predicted)) {
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

#endif  // ITERAGPU_SWEEP_IMPL_HTML_IPP
