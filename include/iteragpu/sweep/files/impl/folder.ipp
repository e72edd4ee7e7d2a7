#ifndef ITERAGPU_SWEEP_FILES_IMPL_FOLDER_IPP
#define ITERAGPU_SWEEP_FILES_IMPL_FOLDER_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/files/folder.hpp"

// The bodies of the functions that <iteragpu/sweep/files/folder.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string detail::json_scalar_text(const boost::json::value* v) {
  if (v == nullptr || v->is_null()) {
    return "none";
  }
  if (v->is_string()) {
    return std::string(v->get_string());
  }
  return boost::json::serialize(*v);
}

[[nodiscard]] ITERAGPU_INLINE result<void, record_keep_error> folder_sink::keep(const point_record& r) const {
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

[[nodiscard]] ITERAGPU_INLINE result<sweep_folder, folder_error> load_folder(const std::filesystem::path& folder) {
  sweep_folder f;
  f.path = folder;
  const auto tsv = folder / points_file;
  const auto text = read_file_within(tsv, files::json_file_limit);
  if (!text.has_value()) {
    return unexpected{folder_error{folder_errc::points_unreadable, tsv, text.error()}};
  }
  auto points = parse_points_tsv(*text);
  if (!points.has_value()) {
    return unexpected{folder_error{folder_errc::points_invalid, tsv, points.error()}};
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
      return unexpected{folder_error{folder_errc::record_unreadable, file, doc.error()}};
    }
    auto record = files::record_from(*doc, p);
    if (!record.has_value()) {
      return unexpected{folder_error{folder_errc::record_invalid, file, record.error()}};
    }
    if (!f.environment && record->outcome == outcome_kind::measured) {
      auto measurement = files::read_json(folder / measurement_name(p.index, f.points.size()));
      if (measurement.has_value() && measurement->is_object() && measurement->as_object().contains("environment")) {
        const auto* e = &measurement->as_object().at("environment");
        const auto* device = files::member(e, "device");
        const auto* library = files::member(e, "library");
        f.environment =
            recorded_environment{detail::json_scalar_text(files::member(device, "name")),
                                 detail::json_scalar_text(files::member(device, "capability")),
                                 detail::json_scalar_text(files::member(device, "total_memory_bytes")),
                                 detail::json_scalar_text(files::member(files::member(e, "libtorch"), "version")),
                                 detail::json_scalar_text(files::member(e, "cuda_build")),
                                 detail::json_scalar_text(files::member(e, "hip_build")),
                                 detail::json_scalar_text(files::member(library, "name")),
                                 detail::json_scalar_text(files::member(library, "version")),
                                 detail::json_scalar_text(files::member(e, "compiler"))};
      }
    }
    f.records[p.index] = std::move(*record);
  }
  return f;
}

[[nodiscard]] ITERAGPU_INLINE std::string source_name(const std::filesystem::path& folder) {
  auto p = folder.lexically_normal();
  if (p.filename().empty()) {
    p = p.parent_path();
  }
  const std::string name = p.filename().string();
  return name.empty() || name == "." ? std::string("sweep") : name;
}

[[nodiscard]] ITERAGPU_INLINE result<std::size_t, orphan_error> adopt_orphans(
    sweep_folder& f, const memory::prediction::blas_workspaces& workspaces, byte_count outside) {
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

[[nodiscard]] ITERAGPU_INLINE std::optional<record_kind> other_record_kind(const sweep_folder& f, record_kind wanted) {
  for (const auto& r : f.records) {
    if (r && r->kind != wanted) {
      return r->kind;
    }
  }
  return std::nullopt;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_FILES_IMPL_FOLDER_IPP
