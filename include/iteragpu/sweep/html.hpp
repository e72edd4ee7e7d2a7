#ifndef ITERAGPU_SWEEP_HTML_HPP
#define ITERAGPU_SWEEP_HTML_HPP

#include <array>
#include <cstddef>
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
[[nodiscard]] std::string page_cell(const std::string& cell, const page_column& c);

}  // namespace detail

/// The text of index.html: the title, a warning when every figure is a
/// prediction, the plot, a table of the points (19 of summary.csv's
/// columns, a failed point's exit status or signal among them; skipped
/// points in grey, failed points and points without a result in red,
/// predictions in italics) and the environment. Every text
/// of `in` is escaped with xml_text(), but the SVG, which is inserted as it
/// is.
[[nodiscard]] std::string index_html(const page_input& in);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/html.ipp"
#endif

#endif  // ITERAGPU_SWEEP_HTML_HPP
