#ifndef ITERAGPU_REPORT_IMPL_CATALOG_IPP
#define ITERAGPU_REPORT_IMPL_CATALOG_IPP

#include <algorithm>
#include <ostream>

#include "iteragpu/config.hpp"
#include "iteragpu/report/catalog.hpp"

// The bodies of the functions that <iteragpu/report/catalog.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string gpu_ids(const pricing::catalog& c) {
  std::string text;
  for (const auto& offer : c.offers()) {
    text += (text.empty() ? "" : ", ") + offer.id;
  }
  return text;
}

ITERAGPU_INLINE void write_catalog_table(std::ostream& out, const pricing::catalog& c, std::string_view source) {
  constexpr std::size_t columns = 6;
  const auto& snapshot = c.snapshot();
  const std::array<std::string, columns> head{"gpu",      "name", "GB/GPU",
                                              "GPUs/lot", "days", "lot price (" + snapshot.currency + ")"};
  struct line_of_table {
    std::size_t file_line;
    std::array<std::string, columns> cells;
  };
  std::vector<line_of_table> lines;
  lines.reserve(c.package_count());
  for (const auto& offer : c.offers()) {
    for (std::size_t d = 0; d < pricing::package_durations.size(); ++d) {
      lines.push_back({offer.lines[d],
                       {offer.id, offer.name, to_decimal_string(offer.memory_per_gpu.value),
                        to_decimal_string(offer.gpus_per_lot.value),
                        to_decimal_string(pricing::package_durations[d].value), offer.lot_prices[d].to_string()}});
    }
  }
  std::ranges::sort(lines, {}, &line_of_table::file_line);
  std::array<std::size_t, columns> width{};
  for (std::size_t i = 0; i < columns; ++i) {
    width[i] = head[i].size();
    for (const auto& line : lines) {
      width[i] = std::max(width[i], line.cells[i].size());
    }
  }
  const auto write_line = [&](const std::array<std::string, columns>& line) {
    for (std::size_t i = 0; i < columns; ++i) {
      const std::string pad(width[i] - line[i].size(), ' ');
      const bool number = i >= 2;
      out << (i == 0 ? "" : "  ") << (number ? pad + line[i] : line[i] + (i + 1 == columns ? "" : pad));
    }
    out << '\n';
  };

  out << "Catalog " << source << ": provider " << snapshot.provider << ", currency " << snapshot.currency
      << ", snapshot " << snapshot.date << ", " << c.package_count() << " packages\n";
  if (c.illustrative()) {
    out << illustrative_note << '\n';
  }
  write_line(head);
  for (const auto& line : lines) {
    write_line(line.cells);
  }
  out << availability_note << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_CATALOG_IPP
