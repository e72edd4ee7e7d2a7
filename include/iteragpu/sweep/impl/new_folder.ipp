#ifndef ITERAGPU_SWEEP_IMPL_NEW_FOLDER_IPP
#define ITERAGPU_SWEEP_IMPL_NEW_FOLDER_IPP

#include <cerrno>
#include <sys/stat.h>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/new_folder.hpp"

// The bodies of the functions that <iteragpu/sweep/new_folder.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE bool file_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(p, ec));
}

[[nodiscard]] ITERAGPU_INLINE result<void, new_folder_error> check_new_folder(const std::filesystem::path& folder) {
  if (file_exists(folder)) {
    return unexpected{new_folder_error{new_folder_errc::exists, folder, 0}};
  }
  const auto parent = folder_of(folder);
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) {
    return unexpected{new_folder_error{new_folder_errc::no_parent, parent, 0}};
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE result<void, new_folder_error> create_new_folder(const std::filesystem::path& folder) {
  if (::mkdir(folder.c_str(), 0777) != 0) {  // NOLINT(cppcoreguidelines-avoid-magic-numbers,readability-magic-numbers)
    return unexpected{new_folder_error{new_folder_errc::cannot_create, folder, errno}};
  }
  return {};
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_NEW_FOLDER_IPP
