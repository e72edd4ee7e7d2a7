#ifndef ITERAGPU_SWEEP_FILES_FOLDER_HPP
#define ITERAGPU_SWEEP_FILES_FOLDER_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/io.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/files/folder_error.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/new_folder.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A sweep's folder: its plan (points.tsv), one record file per point with
/// a result (and a prediction or measurement file beside it), read back as
/// one value, kept by a record sink, completed by the adoption of a
/// measurement left without its record.
namespace iteragpu::sweep {

/// The record sink of a sweep (a record_sink): keeps each record as a
/// new file in the sweep's folder; a predicted point gets its prediction
/// file first. A prediction file left by a run that was killed between the
/// two writes is kept when it holds exactly what would be written
/// (predictions are deterministic), refused otherwise.
class folder_sink {
 public:
  /// `folder`: the sweep's folder; `plan_size`: the points of its plan, for the file names.
  folder_sink(std::filesystem::path folder, std::size_t plan_size)
      : folder_(std::move(folder)), plan_size_(plan_size) {}

  /// Writes the files of `r` (see folder_sink); nothing is overwritten. The
  /// error names the file that could not be written and why, or a
  /// prediction file that exists with other content.
  [[nodiscard]] result<void, record_keep_error> keep(const point_record& r) const;

 private:
  std::filesystem::path folder_;
  std::size_t plan_size_;
};

static_assert(record_sink<folder_sink>);

/// The environment of a measurement, as a sweep's report names it: each
/// figure as the measurement file spells it (a string as it is, another
/// JSON value as JSON text, "none" where it is null or missing).
struct recorded_environment {
  std::string gpu_name;            ///< environment.device.name
  std::string capability;          ///< environment.device.capability
  std::string total_memory_bytes;  ///< environment.device.total_memory_bytes
  std::string libtorch_version;    ///< environment.libtorch.version
  std::string cuda_build;          ///< environment.cuda_build
  std::string hip_build;           ///< environment.hip_build
  std::string library_name;        ///< environment.library.name
  std::string library_version;     ///< environment.library.version
  std::string compiler;            ///< environment.compiler
  friend bool operator==(const recorded_environment&, const recorded_environment&) = default;
};

namespace detail {

/// A JSON scalar as a report writes it: a string as it is, "none" for null
/// or nothing, any other value as JSON text.
[[nodiscard]] std::string json_scalar_text(const boost::json::value* v);

}  // namespace detail

/// The plan and the records of one sweep folder.
struct sweep_folder {
  std::filesystem::path path;                        ///< the folder, as given
  std::vector<sweep_point> points;                   ///< the plan, from its points.tsv
  std::vector<std::optional<point_record>> records;  ///< by index; nothing while a point has no result
  std::optional<recorded_environment> environment;   ///< of the first measurement found
};

/// Reads points.tsv and every record of `folder`. A record that cannot be
/// read is an error (folder_error, with the file): a folder is never
/// half-understood.
/// The environment is that of the first measured point whose measurement
/// file can be read.
[[nodiscard]] result<sweep_folder, folder_error> load_folder(const std::filesystem::path& folder);

/// The folder's last component, as the summary names its source; "sweep"
/// when it has none (the current folder, ".").
[[nodiscard]] std::string source_name(const std::filesystem::path& folder);

/// Gives a record to each measurement file of `f` that has none (the sweep
/// was killed between the two writes): the record is made from the file,
/// without the process's figures, with the prediction's settings
/// `workspaces` and `outside`, and kept in the folder (folder_sink).
/// Returns how many were adopted. The error is a measurement file that
/// cannot be read, or whose record cannot be written; the records adopted
/// before it stay.
[[nodiscard]] result<std::size_t, orphan_error> adopt_orphans(sweep_folder& f,
                                                              const memory::prediction::blas_workspaces& workspaces,
                                                              byte_count outside);

/// The records of `f` whose kind is not `wanted` (a sweep is measured or
/// predicted, never both): the first one's kind; nothing when all are of
/// the kind wanted.
[[nodiscard]] std::optional<record_kind> other_record_kind(const sweep_folder& f, record_kind wanted);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/sweep/files/impl/folder.ipp"
#endif

#endif  // ITERAGPU_SWEEP_FILES_FOLDER_HPP
