#ifndef ITERAGPU_REPORT_NEW_FILE_HPP
#define ITERAGPU_REPORT_NEW_FILE_HPP

#include <string>
#include <string_view>
#include <system_error>

#include "iteragpu/io.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Why a new file cannot be written, in words (io.hpp's new_file_problem).
namespace iteragpu::report {

/// The step the system refused, as a message says it.
[[nodiscard]] constexpr std::string_view name_of(new_file_step step) noexcept {
  switch (step) {
    case new_file_step::creating:
      return "creating a file in its folder";
    case new_file_step::linking_test:
      return "making a hard link in its folder";
    case new_file_step::writing:
      return "writing";
    case new_file_step::flushing:
      return "flushing to disk";
    case new_file_step::closing:
      return "closing";
    case new_file_step::linking_into_place:
      return "linking into place";
  }
  return "an unknown step";
}

/// One line that names the file (quoted and escaped), what is wrong and
/// what is expected.
[[nodiscard]] inline std::string describe(const new_file_problem& p) {
  const std::string file = quoted(p.file.string());
  switch (p.kind) {
    case new_file_error::folder_missing:
      return "folder " + quoted(folder_of(p.file).string()) + " does not exist; expected an existing folder";
    case new_file_error::not_a_folder:
      return quoted(folder_of(p.file).string()) + " is not a folder";
    case new_file_error::already_exists:
      return file + " already exists; expected a new file name (nothing is overwritten)";
    case new_file_error::is_empty_name:
      return file + " names no file; expected a path to a new file";
    case new_file_error::name_too_long:
      return "the file name of " + file + " has " + to_decimal_string(p.name_bytes) + " bytes; expected at most " +
             to_decimal_string(p.longest_name) + " on that file system";
    case new_file_error::system_error:
      return "cannot write " + file + ": " + std::string(name_of(p.step)) + ": " +
             std::generic_category().message(p.error);
    case new_file_error::name_taken:
      return file + " was taken by another process while this one worked; the result is kept as " +
             quoted(p.kept.string());
  }
  return "cannot write " + file;
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_NEW_FILE_HPP
