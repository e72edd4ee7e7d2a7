#ifndef ITERAGPU_SWEEP_FILES_IMPL_REPORT_FILES_IPP
#define ITERAGPU_SWEEP_FILES_IMPL_REPORT_FILES_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/files/report_files.hpp"

// The bodies of the functions that <iteragpu/sweep/files/report_files.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE std::vector<std::pair<std::string, std::string>> environment_lines(
    const std::vector<sweep_folder>& folders, std::string_view program) {
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back(
      "program", std::string(library_name) + " " + std::string(library_version) + " (" + std::string(program) + ")");
  for (const auto& f : folders) {
    const std::string source = source_name(f.path);
    std::size_t measured = 0;
    std::size_t predicted = 0;
    std::optional<point_record> sample;
    for (const auto& r : f.records) {
      if (r) {
        ++(r->kind == record_kind::measurement ? measured : predicted);
        if (!sample) {
          sample = r;
        }
      }
    }
    lines.emplace_back(source + ": records", to_decimal_string(measured) + " measurement records, " +
                                                 to_decimal_string(predicted) + " prediction records, of " +
                                                 to_decimal_string(f.points.size()) + " points");
    if (sample) {
      lines.emplace_back(source + ": prediction settings",
                         "cuBLAS workspace " + to_decimal_string(sample->workspaces.cublas.value) +
                             " bytes, cuBLASLt workspace " + to_decimal_string(sample->workspaces.cublaslt.value) +
                             " bytes, memory outside the allocator " +
                             to_decimal_string(sample->outside_allocator_bytes) + " bytes");
      if (sample->kind == record_kind::prediction) {
        lines.emplace_back(source + ": device",
                           sample->device_free_bytes
                               ? "none (prediction only); usable memory given: " +
                                     to_decimal_string(*sample->device_free_bytes) + " bytes"
                               : std::string("none (prediction only); no device memory given, so no point was skipped "
                                             "for the device"));
      }
    }
    if (f.environment) {
      const auto& e = *f.environment;
      lines.emplace_back(source + ": GPU", e.gpu_name + ", capability " + e.capability + ", total memory " +
                                               e.total_memory_bytes + " bytes");
      lines.emplace_back(source + ": LibTorch",
                         e.libtorch_version + ", CUDA build " + e.cuda_build + ", HIP build " + e.hip_build);
      lines.emplace_back(source + ": measuring program",
                         e.library_name + " " + e.library_version + ", compiler " + e.compiler);
    }
  }
  return lines;
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<std::filesystem::path>, new_file_error> write_report(
    const std::vector<sweep_folder>& folders, const std::filesystem::path& out, std::string_view program) {
  std::vector<summary_entry> entries;
  for (const auto& f : folders) {
    for (const auto& p : f.points) {
      entries.push_back(summary_entry{source_name(f.path), f.points.size(), p, f.records[p.index]});
    }
  }
  auto plot = make_plot_input(entries);
  plot.title_start = std::string(program) + " sweep";
  page_input page;
  page.title = std::string(program) + " sweep: " + plot.configuration + " (" + plot.devices + ")";
  page.predictions_only = plot.predictions_only;
  page.svg = plot_svg(plot, false);
  page.entries = entries;
  page.environment = detail::environment_lines(folders, program);
  const std::vector<std::pair<std::string, std::string>> files{
      {"summary.csv", summary_csv(entries)},
      {"plot.svg", plot_svg(plot, true)},
      {"index.html", index_html(page)},
  };
  std::vector<std::filesystem::path> written;
  for (const auto& [name, text] : files) {
    const auto path = out / name;
    if (auto ok = write_new_file(path, text); !ok.has_value()) {
      return unexpected{std::move(ok).error()};
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_IMPL_REPORT_FILES_IPP
