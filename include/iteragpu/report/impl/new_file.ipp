#ifndef ITERAGPU_REPORT_IMPL_NEW_FILE_IPP
#define ITERAGPU_REPORT_IMPL_NEW_FILE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/report/detail/data_of.hpp"
#include "iteragpu/report/new_file.hpp"

// The bodies of the functions that <iteragpu/report/new_file.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const new_file_error& p) {
  const std::string file = quoted(p.file.string());
  switch (p.code) {
    case new_file_errc::folder_missing:
      return "folder " + quoted(folder_of(p.file).string()) + " does not exist; expected an existing folder";
    case new_file_errc::not_a_folder:
      return quoted(folder_of(p.file).string()) + " is not a folder";
    case new_file_errc::already_exists:
      return file + " already exists; expected a new file name (nothing is overwritten)";
    case new_file_errc::is_empty_name:
      return file + " names no file; expected a path to a new file";
    case new_file_errc::name_too_long: {
      const auto name = detail::data_of<name_length>(p.what);
      return "the file name of " + file + " has " + to_decimal_string(name.bytes) + " bytes; expected at most " +
             to_decimal_string(name.longest) + " on that file system";
    }
    case new_file_errc::system_error: {
      const auto refused = detail::data_of<refused_step>(p.what);
      return "cannot write " + file + ": " + std::string(name_of(refused.step)) + ": " +
             std::generic_category().message(refused.error);
    }
    case new_file_errc::name_taken:
      return file + " was taken by another process while this one worked; the result is kept as " +
             quoted(detail::data_of<kept_file>(p.what).path.string());
  }
  return "cannot write " + file;
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_NEW_FILE_IPP
