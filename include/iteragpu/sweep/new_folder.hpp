#ifndef ITERAGPU_SWEEP_NEW_FOLDER_HPP
#define ITERAGPU_SWEEP_NEW_FOLDER_HPP

#include <filesystem>
#include <system_error>

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
[[nodiscard]] bool file_exists(const std::filesystem::path& p);

/// Why a new folder for a sweep's files cannot be made.
enum class new_folder_errc {
  exists,        ///< something is already there (nothing is overwritten)
  no_parent,     ///< the folder that would hold it does not exist
  cannot_create  ///< mkdir() failed; the error number says why
};

/// A new folder that cannot be made: why, the folder concerned (the new
/// one, or its parent for no_parent), and mkdir()'s error number.
struct new_folder_error {
  new_folder_errc code{new_folder_errc::exists};  ///< why
  std::filesystem::path folder;                   ///< the folder the words name
  int error_number{0};                            ///< errno of cannot_create, 0 otherwise
};

/// Whether `folder` can be made: nothing exists there yet and its parent
/// is a folder. Nothing is made.
[[nodiscard]] result<void, new_folder_error> check_new_folder(const std::filesystem::path& folder);

/// Makes the new folder `folder` (mode 0777 less the umask); the error
/// carries mkdir()'s error number.
[[nodiscard]] result<void, new_folder_error> create_new_folder(const std::filesystem::path& folder);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/new_folder.ipp"
#endif

#endif  // ITERAGPU_SWEEP_NEW_FOLDER_HPP
