#ifndef ITERAGPU_SWEEP_FILES_REPORT_FILES_HPP
#define ITERAGPU_SWEEP_FILES_REPORT_FILES_HPP

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/io.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/html.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/version.hpp"

/// \file
/// The report of one or more sweep folders (a finished sweep, or collect's
/// merge): summary.csv, plot.svg and index.html, each a new file.
namespace iteragpu::sweep {

namespace detail {

// What the page says about where the figures come from.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> environment_lines(
    const std::vector<sweep_folder>& folders, std::string_view program);

}  // namespace detail

/// summary.csv, plot.svg and index.html of `folders` in `out`, each a new
/// file; `program` names the program that made them (on the page's title
/// and its list of sources). Returns the paths written. The error is the
/// first file that cannot be written (one that already exists included)
/// and why; the files written before it stay.
[[nodiscard]] result<std::vector<std::filesystem::path>, new_file_error> write_report(
    const std::vector<sweep_folder>& folders, const std::filesystem::path& out, std::string_view program);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/sweep/files/impl/report_files.ipp"
#endif

#endif  // ITERAGPU_SWEEP_FILES_REPORT_FILES_HPP
