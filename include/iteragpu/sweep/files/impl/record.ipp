#ifndef ITERAGPU_SWEEP_FILES_IMPL_RECORD_IPP
#define ITERAGPU_SWEEP_FILES_IMPL_RECORD_IPP

#include <algorithm>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/files/record.hpp"

// The bodies of the functions that <iteragpu/sweep/files/record.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::files {

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> as_u64(const json::value* v) {
  return v != nullptr ? memory::json_byte_count(*v) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> as_double(const json::value* v) {
  if (v == nullptr) {
    return std::nullopt;
  }
  if (v->is_double()) {
    return v->get_double();
  }
  if (v->is_int64()) {
    return static_cast<double>(v->get_int64());
  }
  if (v->is_uint64()) {
    return static_cast<double>(v->get_uint64());
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> as_string(const json::value* v) {
  if (v == nullptr || !v->is_string()) {
    return std::nullopt;
  }
  return std::string(v->get_string());
}

[[nodiscard]] ITERAGPU_INLINE const json::value* member(const json::value* v, std::string_view key) {
  if (v == nullptr || !v->is_object()) {
    return nullptr;
  }
  return v->as_object().if_contains(key);
}

[[nodiscard]] ITERAGPU_INLINE result<json::value, json_file_error> read_json(const std::filesystem::path& file) {
  const auto text = read_file_within(file, json_file_limit);
  if (!text.has_value()) {
    return unexpected{json_file_error{json_file_errc::unreadable, file, text.error(), {}}};
  }
  boost::system::error_code ec;
  auto value = json::parse(*text, ec);
  if (ec) {
    return unexpected{json_file_error{json_file_errc::not_json, file, read_errc::cannot_open, ec.message()}};
  }
  auto duplicate = first_duplicate_key(*text);
  if (!duplicate) {
    return unexpected{
        json_file_error{json_file_errc::not_json, file, read_errc::cannot_open, duplicate.error().parser.message()}};
  }
  if (*duplicate) {
    return unexpected{
        json_file_error{json_file_errc::duplicate_key, file, read_errc::cannot_open, std::move(**duplicate)}};
  }
  return value;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<sweep::timing_summary> timing_from_record(const json::value* t) {
  const auto median = as_double(member(t, "median"));
  if (!median) {
    return std::nullopt;
  }
  return sweep::timing_summary{*median, as_double(member(t, "lower")), as_double(member(t, "upper"))};
}

namespace detail {

// A median estimate (memory/compare.hpp) as the sweep keeps it.
[[nodiscard]] ITERAGPU_INLINE sweep::timing_summary timing_of(const memory::median_estimate& e) {
  sweep::timing_summary t{e.median, std::nullopt, std::nullopt};
  if (e.ci) {
    t.lower = e.ci->lower;
    t.upper = e.ci->upper;
  }
  return t;
}

}  // namespace detail

[[nodiscard]] ITERAGPU_INLINE sweep::measured_figures figures_of(const memory::measured_run& run) {
  sweep::measured_figures m;
  for (const auto& row : run.phases) {
    m.peak_allocated_bytes = std::max(m.peak_allocated_bytes, row.peak_allocated_bytes);
    m.peak_reserved_bytes = std::max(m.peak_reserved_bytes, row.peak_reserved_bytes);
    m.phase_seconds += row.seconds;
  }
  m.outside_allocator_bytes = memory::memory_outside_allocator(run.phases);
  m.warm_seconds = detail::timing_of(run.seconds);
  m.warm_gpu_seconds = detail::timing_of(run.gpu_seconds);
  m.gpu_name = run.environment.gpu;
  m.device_total_bytes = run.environment.device_total_bytes;
  return m;
}

[[nodiscard]] ITERAGPU_INLINE result<sweep::measured_figures, measurement_error> measured_from(const json::value& doc) {
  auto run = memory::measurement_from_json(doc);
  if (!run.has_value()) {
    return unexpected{std::move(run).error()};
  }
  return figures_of(run.value());
}

[[nodiscard]] ITERAGPU_INLINE result<sweep::measured_figures, point_measurement_error> read_measurement(
    const std::filesystem::path& file) {
  auto doc = read_json(file);
  if (!doc.has_value()) {
    return unexpected{point_measurement_error{doc.error(), {}}};
  }
  auto figures = measured_from(*doc);
  if (!figures.has_value()) {
    return unexpected{point_measurement_error{std::nullopt, figures.error()}};
  }
  return std::move(*figures);
}

[[nodiscard]] ITERAGPU_INLINE result<sweep::device_reading, device_reading_error> device_from(const json::value& doc) {
  const json::value* device = member(&doc, "device");
  sweep::device_reading r;
  r.gpu_name = as_string(member(device, "name"));
  r.free_bytes = as_u64(member(device, "free_memory_bytes"));
  r.total_bytes = as_u64(member(device, "total_memory_bytes"));
  if (!r.free_bytes) {
    const auto reason = as_string(member(device, "reason"));
    return unexpected{device_reading_error{reason}};
  }
  return r;
}

[[nodiscard]] ITERAGPU_INLINE json::object point_json(const sweep::sweep_point& p) {
  return {{"index", p.index},
          {"batch", p.shape.batch},
          {"context", p.shape.context},
          {"width", p.shape.width},
          {"dtype", name_of(p.dtype)},
          {"warmup", p.warmup},
          {"repeats", p.repeats.count ? json::value(*p.repeats.count) : json::value("auto")}};
}

[[nodiscard]] ITERAGPU_INLINE json::value timing_json(const std::optional<sweep::timing_summary>& t) {
  if (!t) {
    return nullptr;
  }
  return json::object{{"median", t->median}, {"lower", optional_value(t->lower)}, {"upper", optional_value(t->upper)}};
}

[[nodiscard]] ITERAGPU_INLINE json::object record_json(const sweep::point_record& r, std::size_t plan_size) {
  json::object o;
  o["schema_version"] = record_schema_version;
  o["kind"] = sweep::name_of(r.kind);
  o["point"] = point_json(r.point);
  o["device"] = r.device ? json::value(device_name(*r.device)) : json::value(nullptr);
  o["outcome"] = sweep::name_of(r.outcome);
  o["reason"] = r.reason;
  o["gpu_name"] = optional_value(r.gpu_name);
  o["device_free_bytes"] = optional_value(r.device_free_bytes);
  o["device_total_bytes"] = optional_value(r.device_total_bytes);
  o["host_available_bytes"] = optional_value(r.host_available_bytes);
  o["outside_allocator_bytes"] = r.outside_allocator_bytes;
  o["workspace"] = workspace_json(r.workspaces);
  if (r.prediction) {
    const auto& f = *r.prediction;
    o["prediction"] = {{"peak_allocated_bytes", f.peak_allocated_bytes},
                       {"peak_reserved_bytes", f.peak_reserved_bytes},
                       {"host_bytes", f.host.total},
                       {"host_float32_build_bytes", f.host.float32_build},
                       {"host_converted_copy_bytes", f.host.converted_copy}};
  } else {
    o["prediction"] = nullptr;
  }
  if (r.measured) {
    const auto& m = *r.measured;
    o["measured"] = {{"peak_allocated_bytes", m.peak_allocated_bytes},
                     {"peak_reserved_bytes", m.peak_reserved_bytes},
                     {"outside_allocator_bytes", optional_value(m.outside_allocator_bytes)},
                     {"warm_seconds", timing_json(m.warm_seconds)},
                     {"warm_gpu_seconds", timing_json(m.warm_gpu_seconds)},
                     {"phase_seconds", m.phase_seconds},
                     {"gpu_name", optional_value(m.gpu_name)},
                     {"device_total_bytes", optional_value(m.device_total_bytes)}};
  } else {
    o["measured"] = nullptr;
  }
  if (r.process) {
    const auto& p = *r.process;
    o["process"] = {{"exit_code", optional_value(p.exit_code)},
                    {"signal", optional_value(p.signal)},
                    {"stderr", optional_value(p.stderr_line)},
                    {"wall_seconds", p.wall_seconds}};
  } else {
    o["process"] = nullptr;
  }
  const bool measured_file = r.outcome == sweep::outcome_kind::measured;
  const bool predicted_file = r.outcome == sweep::outcome_kind::predicted;
  o["files"] = {{"record", sweep::record_name(r.point.index, plan_size)},
                {"measurement",
                 measured_file ? json::value(sweep::measurement_name(r.point.index, plan_size)) : json::value(nullptr)},
                {"prediction", predicted_file ? json::value(sweep::prediction_name(r.point.index, plan_size))
                                              : json::value(nullptr)}};
  return o;
}

}  // namespace iteragpu::sweep::files

namespace iteragpu::sweep::files::detail {

[[nodiscard]] ITERAGPU_INLINE bool same_point(const json::value* p, const sweep::sweep_point& expected) {
  const json::value* repeats = member(p, "repeats");
  return as_u64(member(p, "index")) == expected.index && as_u64(member(p, "batch")) == expected.shape.batch &&
         as_u64(member(p, "context")) == expected.shape.context && as_u64(member(p, "width")) == expected.shape.width &&
         as_string(member(p, "dtype")) == std::string(name_of(expected.dtype)) &&
         as_u64(member(p, "warmup")) == expected.warmup &&
         (expected.repeats.count ? as_u64(repeats) == expected.repeats.count : as_string(repeats) == "auto");
}

[[nodiscard]] ITERAGPU_INLINE result<std::optional<sweep::point_prediction>, record_error> prediction_from(
    const json::value* f) {
  if (!present(f)) {
    return std::optional<sweep::point_prediction>{};
  }
  const auto allocated = as_u64(member(f, "peak_allocated_bytes"));
  const auto reserved = as_u64(member(f, "peak_reserved_bytes"));
  const auto host = as_u64(member(f, "host_bytes"));
  const auto build = as_u64(member(f, "host_float32_build_bytes"));
  const auto copy = as_u64(member(f, "host_converted_copy_bytes"));
  if (!allocated || !reserved || !host || !build || !copy) {
    return missing("prediction");
  }
  return std::optional<sweep::point_prediction>{
      sweep::point_prediction{*allocated, *reserved, {*build, *copy, *host}, {}}};
}

[[nodiscard]] ITERAGPU_INLINE result<std::optional<sweep::measured_figures>, record_error> measured_from_record(
    const json::value* m) {
  if (!present(m)) {
    return std::optional<sweep::measured_figures>{};
  }
  const auto allocated = as_u64(member(m, "peak_allocated_bytes"));
  const auto reserved = as_u64(member(m, "peak_reserved_bytes"));
  const auto phase_seconds = as_double(member(m, "phase_seconds"));
  if (!allocated || !reserved || !phase_seconds) {
    return missing("measured");
  }
  return std::optional<sweep::measured_figures>{sweep::measured_figures{
      *allocated, *reserved, as_u64(member(m, "outside_allocator_bytes")),
      timing_from_record(member(m, "warm_seconds")), timing_from_record(member(m, "warm_gpu_seconds")), *phase_seconds,
      as_string(member(m, "gpu_name")), as_u64(member(m, "device_total_bytes"))}};
}

[[nodiscard]] ITERAGPU_INLINE std::optional<int> small_integer(const json::value* v) {
  if (v != nullptr && v->is_int64() && v->get_int64() >= -1'000'000 && v->get_int64() <= 1'000'000) {
    return static_cast<int>(v->get_int64());
  }
  if (v != nullptr && v->is_uint64() && v->get_uint64() <= 1'000'000) {
    return static_cast<int>(v->get_uint64());
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE result<std::optional<sweep::process_figures>, record_error> process_from(
    const json::value* q) {
  if (!present(q)) {
    return std::optional<sweep::process_figures>{};
  }
  const auto wall = as_double(member(q, "wall_seconds"));
  if (!wall) {
    return missing("process");
  }
  return std::optional<sweep::process_figures>{sweep::process_figures{small_integer(member(q, "exit_code")),
                                                                      small_integer(member(q, "signal")),
                                                                      as_string(member(q, "stderr")), *wall}};
}

[[nodiscard]] ITERAGPU_INLINE result<void, record_error> head_from(const json::value& doc, sweep::point_record& r) {
  const auto kind = as_string(member(&doc, "kind"));
  if (kind != "measurement" && kind != "prediction") {
    return missing("kind");
  }
  r.kind = kind == "measurement" ? sweep::record_kind::measurement : sweep::record_kind::prediction;
  const auto outcome = as_string(member(&doc, "outcome"));
  const auto parsed_outcome = outcome ? sweep::parse_outcome(*outcome) : std::nullopt;
  if (!parsed_outcome) {
    return missing("outcome");
  }
  r.outcome = *parsed_outcome;
  const auto outside = as_u64(member(&doc, "outside_allocator_bytes"));
  const auto cublas = as_u64(member(member(&doc, "workspace"), "cublas_bytes"));
  const auto cublaslt = as_u64(member(member(&doc, "workspace"), "cublaslt_bytes"));
  if (!outside || !cublas || !cublaslt) {
    return missing("outside_allocator_bytes or workspace");
  }
  r.outside_allocator_bytes = *outside;
  r.workspaces = {byte_count{*cublas}, byte_count{*cublaslt}};
  return {};
}

}  // namespace iteragpu::sweep::files::detail

namespace iteragpu::sweep::files {

[[nodiscard]] ITERAGPU_INLINE result<sweep::point_record, record_error> record_from(
    const json::value& doc, const sweep::sweep_point& expected) {
  if (as_u64(member(&doc, "schema_version")) != std::uint64_t{1}) {
    return detail::missing("schema_version (expected 1)");
  }
  sweep::point_record r;
  if (auto head = detail::head_from(doc, r); !head.has_value()) {
    return unexpected{head.error()};
  }
  if (!detail::same_point(member(&doc, "point"), expected)) {
    return unexpected{record_error{record_errc::other_point, {}, expected}};
  }
  r.point = expected;
  if (const auto device = as_string(member(&doc, "device"))) {
    r.device = memory::parse_device(*device);
  }
  r.reason = as_string(member(&doc, "reason")).value_or("");
  r.gpu_name = as_string(member(&doc, "gpu_name"));
  r.device_free_bytes = as_u64(member(&doc, "device_free_bytes"));
  r.device_total_bytes = as_u64(member(&doc, "device_total_bytes"));
  r.host_available_bytes = as_u64(member(&doc, "host_available_bytes"));
  auto prediction = detail::prediction_from(member(&doc, "prediction"));
  auto measured = detail::measured_from_record(member(&doc, "measured"));
  auto process = detail::process_from(member(&doc, "process"));
  if (!prediction.has_value() || !measured.has_value() || !process.has_value()) {
    return unexpected{!prediction.has_value() ? prediction.error()
                      : !measured.has_value() ? measured.error()
                                              : process.error()};
  }
  r.prediction = std::move(*prediction);
  r.measured = std::move(*measured);
  r.process = std::move(*process);
  return r;
}

[[nodiscard]] ITERAGPU_INLINE json::object prediction_json(const sweep::point_record& r) {
  json::object o;
  o["schema_version"] = record_schema_version;
  o["kind"] = "prediction";
  o["note"] =
      "predicted by a simulation of LibTorch's CUDA caching allocator (iteragpu/prediction/); nothing ran on a GPU "
      "and no time is predicted";
  o["point"] = point_json(r.point);
  o["hidden"] = r.point.shape.width * memory::hidden_multiplier;
  o["repeats_predicted"] = r.point.repeats.count.value_or(1);
  o["workspace"] = workspace_json(r.workspaces);
  o["outside_allocator_bytes"] = r.outside_allocator_bytes;
  json::array rows;
  if (r.prediction) {
    for (const auto& row : r.prediction->rows) {
      rows.push_back(json::object{{"phase", name_of(row.phase)},
                                  {"repeat", row.repeat ? json::value(*row.repeat) : json::value(nullptr)},
                                  {"baseline_allocated_bytes", row.baseline_allocated_bytes},
                                  {"baseline_reserved_bytes", row.baseline_reserved_bytes},
                                  {"end_allocated_bytes", row.end_allocated_bytes},
                                  {"end_reserved_bytes", row.end_reserved_bytes},
                                  {"peak_allocated_bytes", row.peak_allocated_bytes},
                                  {"peak_reserved_bytes", row.peak_reserved_bytes}});
    }
    o["peak_allocated_bytes"] = r.prediction->peak_allocated_bytes;
    o["peak_reserved_bytes"] = r.prediction->peak_reserved_bytes;
    o["host_bytes"] = r.prediction->host.total;
  }
  o["phases"] = std::move(rows);
  return o;
}

}  // namespace iteragpu::sweep::files

namespace iteragpu::sweep::files {

[[nodiscard]] ITERAGPU_INLINE json::value optional_value(const std::optional<std::uint64_t>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE json::value optional_value(const std::optional<double>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE json::value optional_value(const std::optional<std::string>& v) {
  return v ? json::value(json::string(*v)) : json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE json::value optional_value(const std::optional<int>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE json::object workspace_json(const memory::prediction::blas_workspaces& w) {
  return {{"cublas_bytes", w.cublas.value}, {"cublaslt_bytes", w.cublaslt.value}};
}

}  // namespace iteragpu::sweep::files

namespace iteragpu::sweep::files::detail {

[[nodiscard]] ITERAGPU_INLINE bool present(const json::value* v) noexcept { return v != nullptr && !v->is_null(); }

}  // namespace iteragpu::sweep::files::detail

#endif  // ITERAGPU_SWEEP_FILES_IMPL_RECORD_IPP
