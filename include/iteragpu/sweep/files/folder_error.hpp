#ifndef ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
#define ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP

#include <filesystem>
#include <optional>

#include "iteragpu/io.hpp"
#include "iteragpu/one_of.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/points.hpp"

/// \file
/// Why a sweep's folder cannot be read back (load_folder() in folder.hpp),
/// or written to: typed values, worded by report/sweep_errors.hpp.
namespace iteragpu::sweep {

/// What in a sweep's folder cannot be read (see folder_error).
enum class folder_errc {
  points_unreadable,  ///< its points.tsv cannot be read (read_errc says why)
  points_invalid,     ///< its points.tsv is refused (points_file_error says why)
  record_unreadable,  ///< a record is not a JSON file that can be read (files::json_file_error says why)
  record_invalid      ///< a record is refused (files::record_error says why)
};

/// The reader's own error under a folder_error, one alternative per code:
/// read_errc (points_unreadable), points_file_error (points_invalid),
/// files::json_file_error (record_unreadable), files::record_error (record_invalid).
using folder_error_data = one_of<read_errc, points_file_error, files::json_file_error, files::record_error>;

/// A sweep folder that cannot be read back: what, the file at fault, and
/// the reader's own error. A folder is never half-understood.
struct folder_error {
  folder_errc code{folder_errc::points_unreadable};  ///< what cannot be read
  std::filesystem::path file;                        ///< points.tsv or the record, as opened
  folder_error_data why{};                           ///< the reader's own error, of the code's type
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
  std::filesystem::path file;                                  ///< the measurement file
  std::optional<files::point_measurement_error> unreadable{};  ///< why it cannot be read
  std::optional<record_keep_error> not_kept{};                 ///< why its record cannot be kept
};

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_FOLDER_ERROR_HPP
