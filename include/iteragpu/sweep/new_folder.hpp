#ifndef ITERAGPU_SWEEP_NEW_FOLDER_HPP
#define ITERAGPU_SWEEP_NEW_FOLDER_HPP

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>

#include "iteragpu/io.hpp"
#include "iteragpu/result.hpp"

/// \file
/// A sweep's new folder: whether something is already at a path, and the
/// folder made only where nothing is (nothing is ever overwritten). The
/// calls are made when the program calls these functions, never by
/// themselves.
namespace iteragpu::sweep {

/// Whether anything exists at `p`, a dangling symbolic link included; false
/// when its status cannot be read.
[[nodiscard]] inline bool file_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(p, ec));
}

/// Why a new folder for a sweep's files cannot be made.
enum class new_folder_error {
  exists,        ///< something is already there (nothing is overwritten)
  no_parent,     ///< the folder that would hold it does not exist
  cannot_create  ///< mkdir() failed; the error number says why
};

/// A new folder that cannot be made: why, the folder concerned (the new
/// one, or its parent for no_parent), and mkdir()'s error number.
struct new_folder_problem {
  new_folder_error kind{new_folder_error::exists};  ///< why
  std::filesystem::path folder;                     ///< the folder the words name
  int error_number{0};                              ///< errno of cannot_create, 0 otherwise
};

/// Whether `folder` can be made: nothing exists there yet and its parent
/// is a folder. Nothing is made.
[[nodiscard]] inline result<void, new_folder_problem> check_new_folder(const std::filesystem::path& folder) {
  if (file_exists(folder)) {
    return unexpected{new_folder_problem{new_folder_error::exists, folder, 0}};
  }
  const auto parent = folder_of(folder);
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) {
    return unexpected{new_folder_problem{new_folder_error::no_parent, parent, 0}};
  }
  return {};
}

/// Makes the new folder `folder` (mode 0777 less the umask); the error
/// carries mkdir()'s error number.
[[nodiscard]] inline result<void, new_folder_problem> create_new_folder(const std::filesystem::path& folder) {
  if (::mkdir(folder.c_str(), 0777) != 0) {  // NOLINT(cppcoreguidelines-avoid-magic-numbers,readability-magic-numbers)
    return unexpected{new_folder_problem{new_folder_error::cannot_create, folder, errno}};
  }
  return {};
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_NEW_FOLDER_HPP
