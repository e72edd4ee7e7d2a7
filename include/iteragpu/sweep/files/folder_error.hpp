#ifndef ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
#define ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP

#include <filesystem>
#include <optional>

#include "iteragpu/io.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/points.hpp"

/// \file
/// Why a sweep's folder cannot be read back (load_folder() in folder.hpp):
/// a typed value, worded by report/sweep_errors.hpp.
namespace iteragpu::sweep {

/// What in a sweep's folder cannot be read (see folder_error).
enum class folder_error_kind {
  points_unreadable,  ///< its points.tsv cannot be read (`read` says why)
  points_invalid,     ///< its points.tsv is refused (`points` says why)
  record_unreadable,  ///< a record is not a JSON file that can be read (`json` says why)
  record_invalid      ///< a record is refused (`record` says why)
};

/// A sweep folder that cannot be read back: what, the file at fault, and
/// the reader's own error. A folder is never half-understood.
struct folder_error {
  folder_error_kind kind{folder_error_kind::points_unreadable};  ///< what cannot be read
  std::filesystem::path file;                                    ///< points.tsv or the record, as opened
  read_error read{read_error::cannot_open};                      ///< points_unreadable: why
  points_file_error points;                                      ///< points_invalid: why
  std::optional<files::json_file_error> json;                    ///< record_unreadable: why
  files::record_error record;                                    ///< record_invalid: why
};

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
