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

#include <boost/json.hpp>

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
  folder_sink(std::filesystem::path folder, std::size_t plan_size) : folder_(std::move(folder)), plan_size_(plan_size) {}

  /// Writes the files of `r` (see folder_sink); nothing is overwritten. The
  /// error names the file that could not be written and why, or a
  /// prediction file that exists with other content.
  [[nodiscard]] result<void, record_keep_error> keep(const point_record& r) const {
    if (r.outcome == outcome_kind::predicted) {
      const auto file = folder_ / prediction_name(r.point.index, plan_size_);
      const std::string text = boost::json::serialize(files::prediction_json(r)) + "\n";
      std::error_code ec;
      if (std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
        if (read_whole_file(file) != text) {
          return unexpected{record_keep_error{file}};
        }
      } else if (auto written = write_new_file(file, text); !written.has_value()) {
        return unexpected{record_keep_error{file, std::move(written).error()}};
      }
    }
    const auto file = folder_ / record_name(r.point.index, plan_size_);
    if (auto written = write_new_file(file, boost::json::serialize(files::record_json(r, plan_size_)) + "\n");
        !written.has_value()) {
      return unexpected{record_keep_error{file, std::move(written).error()}};
    }
    return {};
  }

 private:
  std::filesystem::path folder_;
  std::size_t plan_size_;
};

static_assert(record_sink<folder_sink>);

/// The plan and the records of one sweep folder.
struct sweep_folder {
  std::filesystem::path path;                               ///< the folder, as given
  std::vector<sweep_point> points;                   ///< the plan, from its points.tsv
  std::vector<std::optional<point_record>> records;  ///< by index; nothing while a point has no result
  std::optional<boost::json::value> environment;            ///< of the first measurement found
};

/// Reads points.tsv and every record of `folder`. A record that cannot be
/// read is an error (folder_error, with the file): a folder is never
/// half-understood.
/// The environment is that of the first measured point whose measurement
/// file can be read.
[[nodiscard]] inline result<sweep_folder, folder_error> load_folder(const std::filesystem::path& folder) {
  sweep_folder f;
  f.path = folder;
  const auto tsv = folder / points_file;
  const auto text = read_file_within(tsv, files::json_file_limit);
  if (!text.has_value()) {
    folder_error e{folder_error_kind::points_unreadable, tsv, text.error(), {}, std::nullopt, {}};
    return unexpected{std::move(e)};
  }
  auto points = parse_points_tsv(*text);
  if (!points.has_value()) {
    return unexpected{folder_error{folder_error_kind::points_invalid, tsv, read_error::cannot_open, points.error(),
                                   std::nullopt, {}}};
  }
  f.points = std::move(*points);
  f.records.resize(f.points.size());
  for (const auto& p : f.points) {
    const auto file = folder / record_name(p.index, f.points.size());
    if (!file_exists(file)) {
      continue;
    }
    auto doc = files::read_json(file);
    if (!doc.has_value()) {
      return unexpected{folder_error{folder_error_kind::record_unreadable, file, read_error::cannot_open, {},
                                     doc.error(), {}}};
    }
    auto record = files::record_from(*doc, p);
    if (!record.has_value()) {
      return unexpected{folder_error{folder_error_kind::record_invalid, file, read_error::cannot_open, {},
                                     std::nullopt, record.error()}};
    }
    if (!f.environment && record->outcome == outcome_kind::measured) {
      auto measurement = files::read_json(folder / measurement_name(p.index, f.points.size()));
      if (measurement.has_value() && measurement->is_object() && measurement->as_object().contains("environment")) {
        f.environment = measurement->as_object().at("environment");
      }
    }
    f.records[p.index] = std::move(*record);
  }
  return f;
}

/// The folder's last component, as the summary names its source; "sweep"
/// when it has none (the current folder, ".").
[[nodiscard]] inline std::string source_name(const std::filesystem::path& folder) {
  auto p = folder.lexically_normal();
  if (p.filename().empty()) {
    p = p.parent_path();
  }
  const std::string name = p.filename().string();
  return name.empty() || name == "." ? std::string("sweep") : name;
}

/// Gives a record to each measurement file of `f` that has none (the sweep
/// was killed between the two writes): the record is made from the file,
/// without the process's figures, with the prediction's settings
/// `workspaces` and `outside`, and kept in the folder (folder_sink).
/// Returns how many were adopted. The error is a measurement file that
/// cannot be read, or whose record cannot be written; the records adopted
/// before it stay.
[[nodiscard]] inline result<std::size_t, orphan_error> adopt_orphans(sweep_folder& f,
                                                                    const prediction::blas_workspaces& workspaces,
                                                                    byte_count outside) {
  std::size_t adopted = 0;
  for (const auto& p : f.points) {
    const auto file = f.path / measurement_name(p.index, f.points.size());
    if (f.records[p.index] || !file_exists(file)) {
      continue;
    }
    auto figures = files::read_measurement(file);
    if (!figures.has_value()) {
      return unexpected{orphan_error{.file = file, .unreadable = std::move(figures).error()}};
    }
    point_record r;
    r.kind = record_kind::measurement;
    r.point = p;
    r.outcome = outcome_kind::measured;
    r.outside_allocator_bytes = outside.value;
    r.workspaces = workspaces;
    r.gpu_name = figures->gpu_name;
    r.device_total_bytes = figures->device_total_bytes;
    r.measured = std::move(*figures);
    if (auto predicted = predict_point(p, workspaces); predicted.has_value()) {
      r.prediction = std::move(*predicted);
    }
    folder_sink sink(f.path, f.points.size());
    if (auto kept = sink.keep(r); !kept.has_value()) {
      return unexpected{orphan_error{.file = file, .not_kept = std::move(kept).error()}};
    }
    f.records[p.index] = std::move(r);
    ++adopted;
  }
  return adopted;
}

/// The records of `f` whose kind is not `wanted` (a sweep is measured or
/// predicted, never both): the first one's kind; nothing when all are of
/// the kind wanted.
[[nodiscard]] inline std::optional<record_kind> other_record_kind(const sweep_folder& f, record_kind wanted) {
  for (const auto& r : f.records) {
    if (r && r->kind != wanted) {
      return r->kind;
    }
  }
  return std::nullopt;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_FOLDER_HPP
