#ifndef ITERAGPU_CLI_CALCUL_FORFAITS_FILES_HPP
#define ITERAGPU_CLI_CALCUL_FORFAITS_FILES_HPP

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/calcul_forfaits_options.hpp"
#include "cli/common.hpp"
#include "cli/documents.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/report/need_input.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The files `calcul_forfaits` reads: the catalog (the one given or the shipped one) and the memory
/// need of a search, each refused with a one-line message before anything is written.
namespace iteragpu::cli {

/// The file name of the catalog shipped with the library.
inline constexpr std::string_view shipped_catalog_name = "tarifs-forfaits.csv";
/// A catalog of a few thousand packages is a few hundred kB; anything far
/// larger is the wrong file, refused before it is read into memory.
inline constexpr std::size_t largest_catalog_bytes = std::size_t{16 * mebibyte};

/// A need file is JSON of a few kB to a few MB; anything far larger is the
/// wrong file, refused before it is read into memory.
inline constexpr std::size_t largest_need_file_bytes = std::size_t{16 * mebibyte};

/// The program's own path, to find the shipped catalog of an install.
[[nodiscard]] inline std::optional<std::filesystem::path> running_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return std::nullopt;
  }
  return path;
}

/// Where the shipped catalog may be, most specific first: beside an
/// installed program (`bin/../share/iteragpu/`, given as `data_dir_from_bin`)
/// and in the source tree of a build.
[[nodiscard]] inline std::vector<std::filesystem::path> default_catalog_candidates(
    std::string_view data_dir_from_bin, std::string_view build_tree_catalog) {
  std::vector<std::filesystem::path> candidates;
  if (const auto exe = running_executable()) {
    candidates.push_back(
        (exe->parent_path() / std::filesystem::path(data_dir_from_bin) / shipped_catalog_name).lexically_normal());
  }
  candidates.emplace_back(build_tree_catalog);
  return candidates;
}

/// The catalog to read, and how outputs name it.
struct catalog_choice {
  std::filesystem::path path;  ///< the file to read
  bool shipped{false};         ///< the default, found beside an install or in the source tree

  /// The name of the file in messages: the path the user gave (escaped), or
  /// the shipped catalog's file name without the install prefix.
  [[nodiscard]] std::string label() const {
    return shipped ? std::string(shipped_catalog_name) : escaped(path.string());
  }
  /// How a report names it: the path the user gave, or what it is.
  [[nodiscard]] std::string source(bool illustrative) const {
    if (!shipped) {
      return escaped(path.string());
    }
    return illustrative ? "the shipped illustrative catalog" : "the shipped catalog";
  }
};

/// The catalog file to read: the one given, else the first default present.
[[nodiscard]] inline catalog_choice choose_catalog(const calcul_forfaits_options& options,
                                                   std::span<const std::filesystem::path> defaults) {
  if (options.catalog_path) {
    return catalog_choice{*options.catalog_path, false};
  }
  std::string looked;
  for (const auto& candidate : defaults) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) {
      return catalog_choice{candidate, true};
    }
    looked += (looked.empty() ? "" : ", ") + quoted(candidate.string());
  }
  throw usage_error("the shipped catalog is not found (looked at " +
                    (looked.empty() ? std::string("nothing") : looked) + "); expected --catalog PATH");
}

/// The catalog's text: at most largest_catalog_bytes are ever read, whatever
/// size the file system reports.
[[nodiscard]] inline std::string read_catalog_text(const std::filesystem::path& path) {
  const std::string shown = quoted(path.string());
  constexpr std::string_view accepted = "; expected a readable catalog CSV file";
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    throw usage_error("--catalog: " + shown + " does not exist" + std::string(accepted));
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw usage_error("--catalog: " + shown + " is not a regular file" + std::string(accepted));
  }
  auto text = read_file_within(path, largest_catalog_bytes);
  if (!text) {
    throw usage_error("--catalog: " + shown + describe(text.error(), "16 MiB") + std::string(accepted));
  }
  return std::move(*text);
}

/// The need of a search: the GiB given, rounded up to a whole byte, or the
/// need a file states; nothing for a search by GPU-hours alone. At most
/// largest_need_file_bytes are ever read.
[[nodiscard]] inline std::optional<memory_need> read_need(const search_options& search) {
  if (search.fits_gib) {
    const std::string gib = search.fits_gib->to_string();
    const auto bytes = gib_to_bytes_rounded_up(*search.fits_gib);
    if (!bytes) {
      throw usage_error("--fits-gib: " + quoted(gib) +
                        " GiB is 2^64 bytes or more; expected less than 17179869184 GiB (64 bits of bytes)");
    }
    return memory_need{*bytes, "--fits-gib " + gib + ": the GiB given, rounded up to a whole byte", *search.fits_gib};
  }
  if (!search.fits_file) {
    return std::nullopt;
  }
  const std::filesystem::path path(*search.fits_file);
  const std::string shown = quoted(*search.fits_file);
  const std::string accepted = "; expected " + std::string(need_documents_accepted);
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    throw usage_error("--fits: " + shown + " does not exist" + accepted);
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw usage_error("--fits: " + shown + " is not a regular file" + accepted);
  }
  // A pickle (every protocol --fits could meet opens with 0x80) is most
  // likely the memory snapshot itself, of any size: its need is replay's.
  if (std::ifstream file(path, std::ios::binary); file.get() == 0x80) {
    throw usage_error("--fits: " + shown +
                      " is a pickle, not JSON; for a memory snapshot, run `mesure_memoire replay FILE --json > "
                      "replay.json` and give --fits replay.json" +
                      accepted);
  }
  const auto text = read_file_within(path, largest_need_file_bytes);
  if (!text) {
    throw usage_error("--fits: " + shown + describe(text.error(), "16 MiB") + accepted);
  }
  auto need = report::need_from_json(*text, search.size, program_documents);
  if (!need) {
    throw usage_error("--fits: " + shown + ": " + need.error().found + accepted);
  }
  return std::move(*need);
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_FILES_HPP
