// bench/catalog_load: the time to read and validate catalogs of 100,000 and
// 400,000 rows (about 5 and 21 MB; the program's limit is 16 MiB), median of
// five runs each. The goal: a 16 MiB catalog well under a second.
//   iteragpu_bench_catalog [ROWS...]
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include <iteragpu/pricing/catalog.hpp>

namespace {

// `rows` rows: GPUs of three packages each, as a provider's catalog reads.
std::string catalog_of(std::size_t rows) {
  std::string text(iteragpu::pricing::catalog_header);
  text += '\n';
  const char* days[] = {"3", "7", "30"};  // NOLINT(cppcoreguidelines-avoid-c-arrays,modernize-avoid-c-arrays)
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t gpu = r / 3;
    text += "acme,USD,2026-09-24,gpu-" + std::to_string(gpu) + ",Accelerator model " + std::to_string(gpu) + ",80,1," +
            days[r % 3] + "," + std::to_string(1000 + r) + "\n";
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::size_t> sizes{100'002, 400'002};  // whole GPUs of three rows
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() > 1) {
    sizes.clear();
    for (std::size_t i = 1; i < words.size(); ++i) {
      sizes.push_back(static_cast<std::size_t>(std::strtoull(words[i], nullptr, 10)) / 3 * 3);
    }
  }
  std::cout << "rows      bytes       median s  min s     max s     (5 runs of parse_catalog)\n";
  for (const std::size_t rows : sizes) {
    const std::string text = catalog_of(rows);
    std::vector<double> seconds;
    for (int run = 0; run < 5; ++run) {
      const auto started = std::chrono::steady_clock::now();
      const auto parsed = iteragpu::pricing::parse_catalog(text, "bench.csv");
      const auto finished = std::chrono::steady_clock::now();
      if (!parsed || parsed->package_count() != rows) {
        std::cerr << "catalog_load: the catalog of " << rows << " rows was not read\n";
        return 1;
      }
      seconds.push_back(std::chrono::duration<double>(finished - started).count());
    }
    std::sort(seconds.begin(), seconds.end());
    std::cout << std::left << std::setw(10) << rows << std::setw(12) << text.size() << std::fixed
              << std::setprecision(4) << std::setw(10) << seconds[2] << std::setw(10) << seconds.front()
              << std::setw(10) << seconds.back() << '\n';
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "catalog_load: " << e.what() << '\n';
  return 1;
}
