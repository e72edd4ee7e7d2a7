#ifndef ITERAGPU_CLI_COLLECT_COMMAND_HPP
#define ITERAGPU_CLI_COLLECT_COMMAND_HPP

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/sweep/files/report_files.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire collect DIR [DIR...] --output-dir NEW_DIR`: the results of
/// one or more sweep folders (from several machines, or the tasks of a job
/// array) merged into one summary.csv, plot.svg and index.html, one series
/// per GPU name.
namespace iteragpu::cli {

/// The flags of `mesure_memoire collect`, with its help.
[[nodiscard]] inline po::options_description collect_description() {
  po::options_description d(
      "mesure_memoire collect DIR [DIR...] --output-dir NEW_DIR: merges the records of sweep folders (each with its "
      "points.tsv) into summary.csv, plot.svg and index.html in a new folder, one series per GPU name; points "
      "without a result yet are listed as no_result");
  d.add_options()                                                                            //
      ("output-dir", text_value("NEW_DIR"), "a new folder for the merged files (required)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

namespace detail {

// The folders are the words that are neither flags nor their values.
[[nodiscard]] inline std::pair<std::vector<std::string>, std::vector<std::string>> folders_and_flags(
    std::span<const std::string> args) {
  std::vector<std::string> folders;
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].starts_with("--")) {
      folders.push_back(args[i]);
      continue;
    }
    flags.push_back(args[i]);
    if (args[i].find('=') == std::string::npos && i + 1 < args.size()) {
      flags.push_back(args[++i]);
    }
  }
  return {folders, flags};
}

// One line per folder whose points do not all have a result yet.
inline void say_missing(const sweep::sweep_folder& f, std::ostream& err) {
  std::string missing;
  std::size_t count = 0;
  constexpr std::size_t listed = 20;  // the first ones; the count says the rest
  for (const auto& p : f.points) {
    if (!f.records[p.index]) {
      if (count < listed) {
        missing += (count == 0 ? "" : ", ") + to_decimal_string(p.index);
      } else if (count == listed) {
        missing += ", ...";
      }
      ++count;
    }
  }
  if (count > 0) {
    err << "mesure_memoire collect: " << count << " of " << f.points.size() << " points of " << quoted(f.path.string())
        << " have no result yet (" << missing << ")\n";
  }
}

inline void make_new_folder(const std::filesystem::path& output) {
  auto made = sweep::check_new_folder(output);
  if (made.has_value()) {
    made = sweep::create_new_folder(output);
  }
  if (!made.has_value()) {
    throw usage_error("--output-dir: " + report::words_of(made.error()));
  }
}

}  // namespace detail

/// `mesure_memoire collect`: reads every folder given (points.tsv and every
/// record; a folder that cannot be read is a usage error, before anything
/// is written), creates the new folder `--output-dir`, says on `err` which
/// points have no result yet, then writes summary.csv, plot.svg and
/// index.html there and their paths on `out`. Exit 1 when a file cannot be
/// written.
[[nodiscard]] inline int run_collect(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire collect";
  std::string kept;
  return guarded(command, out, err, kept, [&]() -> int {
    const auto description = collect_description();
    if (help_requested(args)) {
      out << "usage: mesure_memoire collect DIR [DIR...] --output-dir NEW_DIR\n" << description << '\n';
      return exit_success;
    }
    refuse_flags_as_values(description, args);
    const auto [folders, flags] = detail::folders_and_flags(args);
    const auto values = parse_arguments(description, flags);
    const std::filesystem::path output = required_text(values, "output-dir", "a new folder for the merged files");
    if (folders.empty()) {
      throw usage_error("no sweep folder given; expected collect DIR [DIR...] --output-dir NEW_DIR");
    }
    // One folder given twice (under any spelling: a trailing slash, a
    // link) would count each of its points twice.
    std::vector<std::pair<std::filesystem::path, std::string_view>> seen;
    for (const auto& folder : folders) {
      std::error_code ec;
      auto canonical = std::filesystem::canonical(folder, ec);
      if (ec) {
        continue;  // load_folder() says what is wrong with it
      }
      const auto same = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == canonical; });
      if (same != seen.end()) {
        throw usage_error(quoted(folder) + " is the folder " + quoted(same->second) +
                          " given again; expected each sweep folder once");
      }
      seen.emplace_back(std::move(canonical), folder);
    }
    std::vector<sweep::sweep_folder> loaded;
    for (const auto& folder : folders) {
      auto f = sweep::load_folder(folder);
      if (!f.has_value()) {
        throw usage_error(report::words_of(f.error()));
      }
      loaded.push_back(std::move(*f));
    }
    detail::make_new_folder(output);
    kept = "the files of " + quoted(output.string()) + " (summary.csv, plot.svg and index.html)";
    for (const auto& f : loaded) {
      detail::say_missing(f, err);
    }
    auto written = sweep::write_report(loaded, output, "mesure_memoire");
    if (!written.has_value()) {
      err << command << ": " << describe(written.error()) << '\n';
      return exit_internal_error;
    }
    for (const auto& path : *written) {
      out << "wrote " << escaped(path.string()) << '\n';
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_COLLECT_COMMAND_HPP
