#ifndef ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
#define ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP

#include <filesystem>
#include <optional>

#include "iteragpu/io.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/points.hpp"

/// \file
/// Why a sweep's folder cannot be read back (load_folder() in folder.hpp),
/// or written to: typed values, worded by report/sweep_errors.hpp.
namespace iteragpu::sweep {

/// What in a sweep's folder cannot be read (see folder_error).
enum class folder_errc {
  points_unreadable,  ///< its points.tsv cannot be read (`read` says why)
  points_invalid,     ///< its points.tsv is refused (`points` says why)
  record_unreadable,  ///< a record is not a JSON file that can be read (`json` says why)
  record_invalid      ///< a record is refused (`record` says why)
};

/// A sweep folder that cannot be read back: what, the file at fault, and
/// the reader's own error. A folder is never half-understood.
struct folder_error {
  folder_errc code{folder_errc::points_unreadable};  ///< what cannot be read
  std::filesystem::path file;                                    ///< points.tsv or the record, as opened
  read_errc read{read_errc::cannot_open};                      ///< points_unreadable: why
  points_file_error points;                                      ///< points_invalid: why
  std::optional<files::json_file_error> json;                    ///< record_unreadable: why
  files::record_error record;                                    ///< record_invalid: why
};

/// A record (or the prediction file written before it) that cannot be
/// kept in the folder (folder_sink::keep()).
struct record_keep_error {
  std::filesystem::path file;  ///< the file that cannot be written
  /// Why: nothing when a prediction file left by a killed run is there
  /// with other content than the one that would be written.
  std::optional<new_file_error> written{};
};

/// A measurement file without its record that cannot be adopted
/// (adopt_orphans()): it cannot be read, or its record cannot be kept.
struct orphan_error {
  std::filesystem::path file;                                 ///< the measurement file
  std::optional<files::point_measurement_error> unreadable{};  ///< why it cannot be read
  std::optional<record_keep_error> not_kept{};                ///< why its record cannot be kept
};

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
