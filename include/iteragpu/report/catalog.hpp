#ifndef ITERAGPU_REPORT_CATALOG_HPP
#define ITERAGPU_REPORT_CATALOG_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "iteragpu/catalog.hpp"
#include "iteragpu/report/quote.hpp"

namespace iteragpu::report {

// The whole catalog as an aligned table, one package per line: text
// columns left-aligned, numbers right-aligned.
inline void write_catalog_table(std::ostream& out, const catalog& c) {
  constexpr std::size_t columns = 6;
  const std::array<std::string, columns> head{"gpu", "name", "GB/GPU", "GPUs/lot", "days", "lot price (" + c.currency + ")"};
  std::vector<std::array<std::string, columns>> cells;
  cells.reserve(c.rows.size());
  for (const auto& row : c.rows) {
    cells.push_back({row.gpu, row.name, detail::decimal_digits(row.memory_per_gpu.value),
                     detail::decimal_digits(row.gpus_per_lot.value), detail::decimal_digits(row.days.value),
                     row.lot_price.to_string()});
  }
  std::array<std::size_t, columns> width{};
  for (std::size_t i = 0; i < columns; ++i) {
    width[i] = head[i].size();
    for (const auto& line : cells) {
      width[i] = std::max(width[i], line[i].size());
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

  out << "Catalog " << c.file << ": provider " << c.provider << ", currency " << c.currency << ", snapshot "
      << c.snapshot_date << ", " << c.rows.size() << " packages\n";
  if (c.illustrative()) {
    out << illustrative_note << '\n';
  }
  write_line(head);
  for (const auto& line : cells) {
    write_line(line);
  }
  out << availability_note << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_CATALOG_HPP
