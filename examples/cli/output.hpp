#ifndef ITERAGPU_CLI_OUTPUT_HPP
#define ITERAGPU_CLI_OUTPUT_HPP

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "cli/common.hpp"
#include "iteragpu/io.hpp"

/// \file
/// A command's output file: reserved under its flag before any work (a
/// refusal is bad input, nothing written), then written whole or not at all.
namespace iteragpu::cli {

/// Reserves the new file named by `--flag` before any work, or refuses it
/// (exit 2, nothing written).
[[nodiscard]] inline new_file reserve_output(std::string_view flag, const std::string& text) {
  auto reserved = new_file::reserve(std::filesystem::path(text));
  if (!reserved) {
    throw usage_error("--" + std::string(flag) + ": " + describe(reserved.error()));
  }
  return std::move(*reserved);
}

/// Writes the reserved file. What fails now (a full disk) is no bad input:
/// exit 1, and nothing is left at the name. A name another process took
/// meanwhile: exit 5, the result kept under the new name the message gives.
[[nodiscard]] inline int commit_output(std::string_view command, new_file&& file, std::string_view text,
                                       std::ostream& err) {
  if (auto written = std::move(file).commit(text); !written) {
    if (written.error().code == new_file_errc::name_taken) {
      err << command << ": --output: " << describe(written.error()) << '\n';
      return exit_output_name_taken;
    }
    err << command << ": --output: " << describe(written.error()) << "; nothing was written\n";
    return exit_internal_error;
  }
  return exit_success;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_OUTPUT_HPP
