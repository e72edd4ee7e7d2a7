#ifndef ITERAGPU_CLI_SWEEP_COMMAND_HPP
#define ITERAGPU_CLI_SWEEP_COMMAND_HPP

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <list>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/gpu_commands.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/report/json_keys.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/sweep/html.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"
#include "iteragpu/version.hpp"

/// \file
/// `mesure_memoire sweep`: a plan of points, each run as a fresh process of
/// `mesure_memoire measure` (or predicted only), one record file per point,
/// then summary.csv, plot.svg and index.html. This header holds what needs
/// Boost (the JSON of records, predictions and measurements; the flags) and
/// the real point runner; the sweep's logic is iteragpu/sweep/. Nothing here
/// includes LibTorch: the orchestration never loads it, only the `measure`
/// and `environment` processes it starts do.
namespace iteragpu::cli {

namespace sweep_json {

/// Boost.JSON, as this namespace names it.
namespace json = boost::json;

// ---- reading JSON values ------------------------------------------------------

/// A non-negative JSON integer (stored signed or unsigned); nothing for a
/// null pointer, another type or a negative number.
[[nodiscard]] inline std::optional<std::uint64_t> as_u64(const json::value* v) {
  if (v == nullptr) {
    return std::nullopt;
  }
  if (v->is_uint64()) {
    return v->get_uint64();
  }
  if (v->is_int64() && v->get_int64() >= 0) {
    return static_cast<std::uint64_t>(v->get_int64());
  }
  return std::nullopt;
}

/// Any JSON number as a double; nothing for a null pointer or another type.
[[nodiscard]] inline std::optional<double> as_double(const json::value* v) {
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

/// A JSON string; nothing for a null pointer or another type.
[[nodiscard]] inline std::optional<std::string> as_string(const json::value* v) {
  if (v == nullptr || !v->is_string()) {
    return std::nullopt;
  }
  return std::string(v->get_string());
}

/// The member `key` of an object; nullptr when `v` is null, not an object
/// or has no such member, so that calls chain through missing levels.
[[nodiscard]] inline const json::value* member(const json::value* v, std::string_view key) {
  if (v == nullptr || !v->is_object()) {
    return nullptr;
  }
  return v->as_object().if_contains(key);
}

///@{
/// The value, or JSON null for nothing.
[[nodiscard]] inline json::value optional_value(const std::optional<std::uint64_t>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}
[[nodiscard]] inline json::value optional_value(const std::optional<double>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}
[[nodiscard]] inline json::value optional_value(const std::optional<std::string>& v) {
  return v ? json::value(json::string(*v)) : json::value(nullptr);
}
[[nodiscard]] inline json::value optional_value(const std::optional<int>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}
///@}

/// A JSON document from a file of at most 64 MiB; the error quotes the file
/// and says that it is larger, cannot be read, or is not JSON.
[[nodiscard]] inline result<json::value, std::string> read_json(const std::filesystem::path& file) {
  const auto text = read_file_within(file, std::size_t{64} << 20U);
  if (!text.has_value()) {
    return unexpected{quoted(file.string()) + describe(text.error(), "64 MiB")};
  }
  boost::system::error_code ec;
  auto value = json::parse(*text, ec);
  if (ec) {
    return unexpected{quoted(file.string()) + " is not JSON: " + ec.message()};
  }
  if (const auto duplicate = report::first_duplicate_key(*text)) {
    return unexpected{quoted(file.string()) + ": " + report::duplicate_key_message(*duplicate) +
                      "; expected each key once"};
  }
  return value;
}

// ---- measurement files (schema 1, and 2 with statistics) --------------------------

/// A timing summary of the `median` of `summary` and the `lower` and `upper`
/// of `ends`; nothing when there is no numeric median.
[[nodiscard]] inline std::optional<sweep::timing_summary> timing_from(const json::value* summary,
                                                                      const json::value* ends) {
  const auto median = as_double(member(summary, "median"));
  if (!median) {
    return std::nullopt;
  }
  return sweep::timing_summary{*median, as_double(member(ends, "lower")), as_double(member(ends, "upper"))};
}

/// A timing summary from a `measure` result's statistics entry: its
/// `median` and the `lower` and `upper` of its `median_ci`; nothing when
/// there is no numeric median.
[[nodiscard]] inline std::optional<sweep::timing_summary> timing_from(const json::value* summary) {
  return timing_from(summary, member(summary, "median_ci"));
}

/// The median of `values` (the warm rows' seconds or GPU seconds), with its
/// interval when the sample allows one (statistics.hpp), for files that
/// carry no statistics; nothing when summarize() refuses the sample (empty,
/// or a value negative or not finite).
[[nodiscard]] inline std::optional<sweep::timing_summary> timing_of_rows(const std::vector<double>& values) {
  const auto s = summarize(values);
  if (!s.has_value()) {
    return std::nullopt;
  }
  sweep::timing_summary t{s->median, std::nullopt, std::nullopt};
  if (s->median_ci) {
    t.lower = s->median_ci->lower;
    t.upper = s->median_ci->upper;
  }
  return t;
}

/// The figures of a `measure` result: peaks over every row, the memory
/// outside the allocator where the rows carry the device's used memory, the
/// warm pass's median times (from its `statistics` when present), the sum of
/// the phases' seconds, and the GPU. The error says that there is no phase
/// row, or that a row lacks one of the fields read.
[[nodiscard]] inline result<sweep::measured_figures, std::string> measured_from(const json::value& doc) {
  const json::value* phases = member(&doc, "phases");
  if (phases == nullptr || !phases->is_array() || phases->as_array().empty()) {
    return unexpected{std::string("it has no phase rows")};
  }
  sweep::measured_figures m;
  std::vector<double> warm;
  std::vector<double> warm_gpu;
  for (const auto& row : phases->as_array()) {
    const auto peak_allocated = as_u64(member(&row, "peak_allocated_bytes"));
    const auto peak_reserved = as_u64(member(&row, "peak_reserved_bytes"));
    const auto seconds = as_double(member(&row, "seconds"));
    const auto gpu_seconds = as_double(member(&row, "gpu_seconds"));
    const auto phase = as_string(member(&row, "phase"));
    if (!peak_allocated || !peak_reserved || !seconds || !gpu_seconds || !phase) {
      return unexpected{std::string("a phase row lacks phase, seconds, gpu_seconds or a peak")};
    }
    m.peak_allocated_bytes = std::max(m.peak_allocated_bytes, *peak_allocated);
    m.peak_reserved_bytes = std::max(m.peak_reserved_bytes, *peak_reserved);
    m.phase_seconds += *seconds;
    if (*phase == "warm_forward") {
      warm.push_back(*seconds);
      warm_gpu.push_back(*gpu_seconds);
    }
    for (const auto& [used_key, reserved_key] : {std::pair{"baseline_device_used_bytes", "baseline_reserved_bytes"},
                                                 std::pair{"end_device_used_bytes", "end_reserved_bytes"}}) {
      const auto used = as_u64(member(&row, used_key));
      const auto reserved = as_u64(member(&row, reserved_key));
      if (used && reserved) {
        const std::uint64_t outside = *used > *reserved ? *used - *reserved : 0;
        m.outside_allocator_bytes = std::max(m.outside_allocator_bytes.value_or(0), outside);
      }
    }
  }
  const json::value* statistics = member(member(&doc, "statistics"), "warm_forward");
  m.warm_seconds = statistics != nullptr ? timing_from(member(statistics, "seconds")) : std::nullopt;
  m.warm_gpu_seconds = statistics != nullptr ? timing_from(member(statistics, "gpu_seconds")) : std::nullopt;
  if (!m.warm_seconds) {
    m.warm_seconds = timing_of_rows(warm);
  }
  if (!m.warm_gpu_seconds) {
    m.warm_gpu_seconds = timing_of_rows(warm_gpu);
  }
  const json::value* device = member(member(&doc, "environment"), "device");
  m.gpu_name = as_string(member(device, "name"));
  m.device_total_bytes = as_u64(member(device, "total_memory_bytes"));
  return m;
}

/// The figures of the `measure` result file `file` (read_json(), then
/// measured_from()); the error says why it cannot be read or used.
[[nodiscard]] inline result<sweep::measured_figures, std::string> read_measurement(const std::filesystem::path& file) {
  auto doc = read_json(file);
  if (!doc.has_value()) {
    return unexpected{doc.error()};
  }
  return measured_from(*doc);
}

// ---- `environment` output ---------------------------------------------------------

/// The device as `mesure_memoire environment` prints it: its name, free and
/// total memory. Without its free memory, the error is the reason the
/// output gives (escaped), or says that it reports none.
[[nodiscard]] inline result<sweep::device_reading, std::string> device_from(const json::value& doc) {
  const json::value* device = member(&doc, "device");
  sweep::device_reading r;
  r.gpu_name = as_string(member(device, "name"));
  r.free_bytes = as_u64(member(device, "free_memory_bytes"));
  r.total_bytes = as_u64(member(device, "total_memory_bytes"));
  if (!r.free_bytes) {
    const auto reason = as_string(member(device, "reason"));
    return unexpected{reason ? escaped(*reason) : std::string("it reports no free memory")};
  }
  return r;
}

// ---- records ----------------------------------------------------------------------

/// The schema_version of the record and prediction files; record_from()
/// reads this version only.
inline constexpr std::int64_t record_schema_version = 1;

/// A point as records write it: index, batch, context, width, dtype, warmup,
/// and repeats (a count or "auto").
[[nodiscard]] inline json::object point_json(const sweep::sweep_point& p) {
  return {{"index", p.index},
          {"batch", p.shape.batch},
          {"context", p.shape.context},
          {"width", p.shape.width},
          {"dtype", name_of(p.dtype)},
          {"warmup", p.warmup},
          {"repeats", p.repeats.count ? json::value(*p.repeats.count) : json::value("auto")}};
}

/// A timing summary as records write it, `{median, lower, upper}` (null for
/// an end it lacks); null for nothing.
[[nodiscard]] inline json::value timing_json(const std::optional<sweep::timing_summary>& t) {
  if (!t) {
    return nullptr;
  }
  return json::object{{"median", t->median}, {"lower", optional_value(t->lower)}, {"upper", optional_value(t->upper)}};
}

/// A timing summary as timing_json() writes it, `{median, lower, upper}`;
/// nothing when there is no numeric median.
[[nodiscard]] inline std::optional<sweep::timing_summary> timing_from_record(const json::value* t) {
  return timing_from(t, t);
}

/// The workspaces as records write them: `cublas_bytes` and `cublaslt_bytes`.
[[nodiscard]] inline json::object workspace_json(const prediction::blas_workspaces& w) {
  return {{"cublas_bytes", w.cublas.value}, {"cublaslt_bytes", w.cublaslt.value}};
}

/// A record file's JSON: every field of `r` but the prediction's rows (null
/// where it has nothing), the schema version, and the names of the point's
/// files in a plan of `plan_size` points (the measurement's only for a
/// measured point, the prediction's only for a predicted one).
[[nodiscard]] inline json::object record_json(const sweep::point_record& r, std::size_t plan_size) {
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
                {"measurement", measured_file ? json::value(sweep::measurement_name(r.point.index, plan_size))
                                              : json::value(nullptr)},
                {"prediction", predicted_file ? json::value(sweep::prediction_name(r.point.index, plan_size))
                                              : json::value(nullptr)}};
  return o;
}

namespace detail {

[[nodiscard]] inline bool same_point(const json::value* p, const sweep::sweep_point& expected) {
  const json::value* repeats = member(p, "repeats");
  return as_u64(member(p, "index")) == expected.index && as_u64(member(p, "batch")) == expected.shape.batch &&
         as_u64(member(p, "context")) == expected.shape.context &&
         as_u64(member(p, "width")) == expected.shape.width &&
         as_string(member(p, "dtype")) == std::string(name_of(expected.dtype)) &&
         as_u64(member(p, "warmup")) == expected.warmup &&
         (expected.repeats.count ? as_u64(repeats) == expected.repeats.count : as_string(repeats) == "auto");
}

[[nodiscard]] inline unexpected<std::string> missing(std::string_view what) {
  return unexpected{"its " + std::string(what) + " is missing or invalid"};
}

[[nodiscard]] inline bool present(const json::value* v) { return v != nullptr && !v->is_null(); }

[[nodiscard]] inline result<std::optional<sweep::point_prediction>, std::string> prediction_from(const json::value* f) {
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
  return std::optional<sweep::point_prediction>{sweep::point_prediction{*allocated, *reserved, {*build, *copy, *host}, {}}};
}

[[nodiscard]] inline result<std::optional<sweep::measured_figures>, std::string> measured_from_record(
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
      timing_from_record(member(m, "warm_seconds")), timing_from_record(member(m, "warm_gpu_seconds")), *phase_seconds, as_string(member(m, "gpu_name")),
      as_u64(member(m, "device_total_bytes"))}};
}

// An exit code or a signal number, kept when it is a plausible one.
[[nodiscard]] inline std::optional<int> small_integer(const json::value* v) {
  if (v != nullptr && v->is_int64() && v->get_int64() >= -1'000'000 && v->get_int64() <= 1'000'000) {
    return static_cast<int>(v->get_int64());
  }
  if (v != nullptr && v->is_uint64() && v->get_uint64() <= 1'000'000) {
    return static_cast<int>(v->get_uint64());
  }
  return std::nullopt;
}

[[nodiscard]] inline result<std::optional<sweep::process_figures>, std::string> process_from(const json::value* q) {
  if (!present(q)) {
    return std::optional<sweep::process_figures>{};
  }
  const auto wall = as_double(member(q, "wall_seconds"));
  if (!wall) {
    return missing("process");
  }
  return std::optional<sweep::process_figures>{sweep::process_figures{
      small_integer(member(q, "exit_code")), small_integer(member(q, "signal")), as_string(member(q, "stderr")), *wall}};
}

// The fields every record has: kind, outcome and the settings of the rules.
[[nodiscard]] inline result<void, std::string> head_from(const json::value& doc, sweep::point_record& r) {
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

}  // namespace detail

/// A record read back from its JSON; it must be of schema version 1 and of
/// the point `expected` of the plan. The error names the field that is
/// missing or invalid, or says that the point is another. The prediction's
/// rows are not in a record and stay empty.
[[nodiscard]] inline result<sweep::point_record, std::string> record_from(const json::value& doc,
                                                                          const sweep::sweep_point& expected) {
  if (as_u64(member(&doc, "schema_version")) != std::uint64_t{1}) {
    return detail::missing("schema_version (expected 1)");
  }
  sweep::point_record r;
  if (auto head = detail::head_from(doc, r); !head.has_value()) {
    return unexpected{head.error()};
  }
  if (!detail::same_point(member(&doc, "point"), expected)) {
    return unexpected{"its point is not point " + to_decimal_string(expected.index) + " of points.tsv (" +
                      sweep::describe(expected) + ")"};
  }
  r.point = expected;
  if (const auto device = as_string(member(&doc, "device"))) {
    r.device = parse_device(*device);
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

/// A prediction file: the predicted phase rows of one point, labelled as a
/// prediction, with the settings that gave them and the peaks (no time is
/// predicted).
[[nodiscard]] inline json::object prediction_json(const sweep::point_record& r) {
  json::object o;
  o["schema_version"] = record_schema_version;
  o["kind"] = "prediction";
  o["note"] =
      "predicted by a simulation of LibTorch's CUDA caching allocator (iteragpu/prediction/); nothing ran on a GPU "
      "and no time is predicted";
  o["point"] = point_json(r.point);
  o["hidden"] = r.point.shape.width * hidden_multiplier;
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

}  // namespace sweep_json

// ---- the point runners -----------------------------------------------------------

/// The point runner of a measurement sweep (a sweep::point_runner): each
/// point is a fresh process. `PROGRAM environment --device D` reads the
/// device just before, then `PROGRAM measure ... --output
/// FOLDER/point-N.measurement.json` measures it. PROGRAM is this program
/// (/proc/self/exe) unless --point-program names another with the same
/// two subcommands.
class process_runner {
 public:
  /// `program`: the program to start; `folder`: the sweep's folder, where
  /// the results go; `plan_size`: the points of its plan, for the file
  /// names; `host_rule`: whether host_available() reads the host's memory.
  process_runner(std::string program, std::filesystem::path folder, std::size_t plan_size, bool host_rule = true)
      : program_(std::move(program)), folder_(std::move(folder)), plan_size_(plan_size), host_rule_(host_rule) {}

  /// The host's available memory now (sweep::read_mem_available()); nothing
  /// without the host rule, or when /proc/meminfo cannot be read.
  [[nodiscard]] std::optional<std::uint64_t> host_available() const {
    return host_rule_ ? sweep::read_mem_available() : std::nullopt;
  }

  /// Runs `PROGRAM environment --device D` and reads the device from its
  /// JSON output (sweep_json::device_from()). The error says why the device
  /// cannot be read: the process could not start, was interrupted, exited
  /// with a code other than 0, printed no JSON, or reports no free memory.
  [[nodiscard]] result<sweep::device_reading, std::string> read_device(device_index d) const {
    auto child = sweep::child_process::spawn(program_, {"environment", "--device", device_name(d)}, true);
    if (!child.has_value()) {
      return unexpected{child.error()};
    }
    const auto ended = child->wait_unless_interrupted();
    if (!ended) {
      return unexpected{std::string("interrupted")};
    }
    if (ended->exit_code != 0) {
      const auto line = child->first_error_line();
      return unexpected{"`environment` " +
                        (ended->exit_code ? "exited " + std::to_string(*ended->exit_code)
                                          : sweep::end_without_exit_text(ended->signal)) +
                        (line ? ": " + escaped(*line) : std::string())};
    }
    boost::system::error_code ec;
    const auto doc = boost::json::parse(child->output(std::size_t{1} << 20U), ec);
    if (ec) {
      return unexpected{"`environment` printed no JSON: " + ec.message()};
    }
    auto reading = sweep_json::device_from(doc);
    if (!reading.has_value()) {
      return unexpected{device_name(d) + " cannot be measured: " + reading.error()};
    }
    return reading;
  }

  /// Starts `PROGRAM measure --device D` with the point's flags and
  /// `--output FOLDER/point-N.measurement.json`, its output discarded, and
  /// returns at once; the error says why it could not be started.
  [[nodiscard]] result<void, std::string> start(const sweep::sweep_point& p, device_index d) {
    std::vector<std::string> args{"measure", "--device", device_name(d)};
    for (auto& word : sweep::measure_flags(p)) {
      args.push_back(std::move(word));
    }
    args.emplace_back("--output");
    args.push_back((folder_ / sweep::measurement_name(p.index, plan_size_)).string());
    auto child = sweep::child_process::spawn(program_, args, false);
    if (!child.has_value()) {
      return unexpected{child.error()};
    }
    running_.push_back(running{p.index, std::move(*child)});
    return {};
  }

  /// Waits, polling every 10 ms, until a started point's process ends, and
  /// returns it with its partial files removed and, after exit 0, its
  /// result read (or why it could not be). Nothing when no point runs or the
  /// sweep is interrupted; a process ended by SIGINT or SIGTERM is taken for
  /// the user's interruption when the sweep's own signal follows within half
  /// a second, and is not returned.
  [[nodiscard]] std::optional<sweep::finished_run> wait_any() {
    while (!running_.empty() && !sweep::interrupt_requested()) {
      for (auto it = running_.begin(); it != running_.end(); ++it) {
        const auto ended = it->child.poll();
        if (!ended) {
          continue;
        }
        if (stopped_by_the_user(*ended)) {
          return std::nullopt;
        }
        auto run = finished(*it, *ended);
        running_.erase(it);
        return run;
      }
      sweep::pause_briefly();
    }
    return std::nullopt;
  }

  /// Stops every started point's process (sweep::child_process::stop()) and
  /// removes its partial files.
  void stop_all() {
    for (auto& r : running_) {
      static_cast<void>(r.child.stop());
      static_cast<void>(sweep::remove_partial_files(folder_, r.child.pid()));
    }
    running_.clear();
  }

  /// Whether the sweep was asked to stop (sweep::interrupt_requested()).
  [[nodiscard]] static bool interrupted() { return sweep::interrupt_requested(); }

 private:
  struct running {
    std::size_t index;
    sweep::child_process child;
  };

  // A terminal's Ctrl-C reaches the point's process too, which may end
  // before the sweep has seen its own signal: such a point was stopped, not
  // failed, and stays to run again.
  [[nodiscard]] static bool stopped_by_the_user(const sweep::child_exit& ended) {
    const int signal = ended.signal.value_or(0);
    if (signal == SIGINT || signal == SIGTERM) {
      for (int i = 0; i < 50 && !sweep::interrupt_requested(); ++i) {
        sweep::pause_briefly();
      }
    }
    return sweep::interrupt_requested();
  }

  [[nodiscard]] sweep::finished_run finished(running& r, const sweep::child_exit& ended) const {
    sweep::finished_run run;
    run.index = r.index;
    run.process = {ended.exit_code, ended.signal, r.child.first_error_line(), r.child.seconds()};
    // A killed process may leave its temporary file behind.
    static_cast<void>(sweep::remove_partial_files(folder_, r.child.pid()));
    if (ended.exit_code == 0) {
      const auto file = folder_ / sweep::measurement_name(r.index, plan_size_);
      auto figures = sweep_json::read_measurement(file);
      if (figures.has_value()) {
        run.measured = std::move(*figures);
      } else {
        run.problem = "its result " + quoted(file.filename().string()) + " could not be read: " + figures.error();
      }
    }
    return run;
  }
  std::string program_;
  std::filesystem::path folder_;
  std::size_t plan_size_;
  bool host_rule_;
  std::list<running> running_;
};

/// The point runner of --predict-only (a sweep::point_runner): nothing runs;
/// the device is the capacity given with --memory-gib (none without it), the
/// host the one given with --host-memory-gib (no host rule without it).
class prediction_runner {
 public:
  /// `capacity` and `host` in bytes; nothing: no device limit, no host rule.
  prediction_runner(std::optional<std::uint64_t> capacity, std::optional<std::uint64_t> host)
      : capacity_(capacity), host_(host) {}

  /// The host memory given; nothing: no host rule.
  [[nodiscard]] std::optional<std::uint64_t> host_available() const { return host_; }
  /// The capacity given as the device's free and total memory, with no GPU name.
  [[nodiscard]] result<sweep::device_reading, std::string> read_device(device_index /*device*/) const {
    return sweep::device_reading{std::nullopt, capacity_, capacity_};
  }
  /// Notes the point; nothing runs, and nothing fails.
  [[nodiscard]] result<void, std::string> start(const sweep::sweep_point& p, device_index /*device*/) {
    started_.push_back(p.index);
    return {};
  }
  /// The first point noted and not yet returned, with no figures; nothing
  /// when none is left or the sweep was interrupted.
  [[nodiscard]] std::optional<sweep::finished_run> wait_any() {
    if (started_.empty() || sweep::interrupt_requested()) {
      return std::nullopt;
    }
    sweep::finished_run run;
    run.index = started_.front();
    started_.erase(started_.begin());
    return run;
  }
  /// Forgets the points noted.
  void stop_all() { started_.clear(); }
  /// Whether the sweep was asked to stop (sweep::interrupt_requested()).
  [[nodiscard]] static bool interrupted() { return sweep::interrupt_requested(); }

 private:
  std::optional<std::uint64_t> capacity_;
  std::optional<std::uint64_t> host_;
  std::vector<std::size_t> started_;
};

static_assert(sweep::point_runner<process_runner>);
static_assert(sweep::point_runner<prediction_runner>);

/// The record sink of a sweep (a sweep::record_sink): keeps each record as a
/// new file in the sweep's folder; a predicted point gets its prediction
/// file first. A prediction file left by a run that was killed between the
/// two writes is kept when it holds exactly what would be written
/// (predictions are deterministic), refused otherwise.
class folder_sink {
 public:
  /// `folder`: the sweep's folder; `plan_size`: the points of its plan, for the file names.
  folder_sink(std::filesystem::path folder, std::size_t plan_size) : folder_(std::move(folder)), plan_size_(plan_size) {}

  /// Writes the files of `r` (see folder_sink); nothing is overwritten. The
  /// error says which file could not be written, or that a prediction file
  /// exists with other content.
  [[nodiscard]] result<void, std::string> keep(const sweep::point_record& r) const {
    if (r.outcome == sweep::outcome_kind::predicted) {
      const auto file = folder_ / sweep::prediction_name(r.point.index, plan_size_);
      const std::string text = boost::json::serialize(sweep_json::prediction_json(r)) + "\n";
      std::error_code ec;
      if (std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
        if (read_whole_file(file) != text) {
          return unexpected{quoted(file.string()) + " exists with other content; nothing is overwritten"};
        }
      } else if (auto written = write_new_file(file, text); !written.has_value()) {
        return unexpected{written.error().message};
      }
    }
    const auto file = folder_ / sweep::record_name(r.point.index, plan_size_);
    if (auto written = write_new_file(file, boost::json::serialize(sweep_json::record_json(r, plan_size_)) + "\n");
        !written.has_value()) {
      return unexpected{written.error().message};
    }
    return {};
  }

 private:
  std::filesystem::path folder_;
  std::size_t plan_size_;
};

static_assert(sweep::record_sink<folder_sink>);

// ---- a sweep's folder -------------------------------------------------------------

/// The plan and the records of one sweep folder.
struct sweep_folder {
  std::filesystem::path path;                               ///< the folder, as given
  std::vector<sweep::sweep_point> points;                   ///< the plan, from its points.tsv
  std::vector<std::optional<sweep::point_record>> records;  ///< by index; nothing while a point has no result
  std::optional<boost::json::value> environment;            ///< of the first measurement found
};

/// Whether anything exists at `p`, a dangling symbolic link included; false
/// when its status cannot be read.
[[nodiscard]] inline bool file_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(p, ec));
}

/// Reads points.tsv and every record of `folder`. A record that cannot be
/// read is an error (it names the file): a folder is never half-understood.
/// The environment is that of the first measured point whose measurement
/// file can be read.
[[nodiscard]] inline result<sweep_folder, std::string> load_folder(const std::filesystem::path& folder) {
  sweep_folder f;
  f.path = folder;
  const auto tsv = folder / sweep::points_file;
  const auto text = read_file_within(tsv, std::size_t{64} << 20U);
  if (!text.has_value()) {
    return unexpected{quoted(tsv.string()) + describe(text.error(), "64 MiB") +
                      "; expected the folder of a sweep (its points.tsv)"};
  }
  auto points = sweep::parse_points_tsv(*text);
  if (!points.has_value()) {
    return unexpected{quoted(tsv.string()) + ": " + points.error()};
  }
  f.points = std::move(*points);
  f.records.resize(f.points.size());
  for (const auto& p : f.points) {
    const auto file = folder / sweep::record_name(p.index, f.points.size());
    if (!file_exists(file)) {
      continue;
    }
    auto doc = sweep_json::read_json(file);
    if (!doc.has_value()) {
      return unexpected{doc.error()};
    }
    auto record = sweep_json::record_from(*doc, p);
    if (!record.has_value()) {
      return unexpected{quoted(file.string()) + ": " + record.error()};
    }
    if (!f.environment && record->outcome == sweep::outcome_kind::measured) {
      auto measurement = sweep_json::read_json(folder / sweep::measurement_name(p.index, f.points.size()));
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

namespace detail {

[[nodiscard]] inline std::string json_scalar_text(const boost::json::value* v) {
  if (v == nullptr || v->is_null()) {
    return "none";
  }
  if (v->is_string()) {
    return std::string(v->get_string());
  }
  return boost::json::serialize(*v);
}

// What the page says about where the figures come from.
[[nodiscard]] inline std::vector<std::pair<std::string, std::string>> environment_lines(
    const std::vector<sweep_folder>& folders) {
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back("program", std::string(library_name) + " " + std::string(library_version) + " (mesure_memoire)");
  for (const auto& f : folders) {
    const std::string source = source_name(f.path);
    std::size_t measured = 0;
    std::size_t predicted = 0;
    std::optional<sweep::point_record> sample;
    for (const auto& r : f.records) {
      if (r) {
        ++(r->kind == sweep::record_kind::measurement ? measured : predicted);
        if (!sample) {
          sample = r;
        }
      }
    }
    lines.emplace_back(source + ": records", to_decimal_string(measured) + " measurement records, " +
                                                  to_decimal_string(predicted) + " prediction records, of " +
                                                  to_decimal_string(f.points.size()) + " points");
    if (sample) {
      lines.emplace_back(source + ": prediction settings",
                         "cuBLAS workspace " + to_decimal_string(sample->workspaces.cublas.value) +
                             " bytes, cuBLASLt workspace " + to_decimal_string(sample->workspaces.cublaslt.value) +
                             " bytes, memory outside the allocator " +
                             to_decimal_string(sample->outside_allocator_bytes) + " bytes");
      if (sample->kind == sweep::record_kind::prediction) {
        lines.emplace_back(source + ": device",
                           sample->device_free_bytes
                               ? "none (prediction only); usable memory given: " +
                                     to_decimal_string(*sample->device_free_bytes) + " bytes"
                               : std::string("none (prediction only); no device memory given, so no point was skipped "
                                             "for the device"));
      }
    }
    if (f.environment) {
      const auto* e = &*f.environment;
      const auto* device = sweep_json::member(e, "device");
      lines.emplace_back(source + ": GPU", json_scalar_text(sweep_json::member(device, "name")) + ", capability " +
                                               json_scalar_text(sweep_json::member(device, "capability")) +
                                               ", total memory " +
                                               json_scalar_text(sweep_json::member(device, "total_memory_bytes")) +
                                               " bytes");
      lines.emplace_back(source + ": LibTorch",
                         json_scalar_text(sweep_json::member(sweep_json::member(e, "libtorch"), "version")) +
                             ", CUDA build " + json_scalar_text(sweep_json::member(e, "cuda_build")) + ", HIP build " +
                             json_scalar_text(sweep_json::member(e, "hip_build")));
      lines.emplace_back(source + ": measuring program",
                         json_scalar_text(sweep_json::member(sweep_json::member(e, "library"), "name")) + " " +
                             json_scalar_text(sweep_json::member(sweep_json::member(e, "library"), "version")) +
                             ", compiler " + json_scalar_text(sweep_json::member(e, "compiler")));
    }
  }
  return lines;
}

}  // namespace detail

/// summary.csv, plot.svg and index.html of `folders` in `out`, each a new
/// file. Returns the paths written. The error is the first file that
/// cannot be written (one that already exists included); the files written
/// before it stay.
[[nodiscard]] inline result<std::vector<std::filesystem::path>, std::string> write_report(
    const std::vector<sweep_folder>& folders, const std::filesystem::path& out) {
  std::vector<sweep::summary_entry> entries;
  for (const auto& f : folders) {
    for (const auto& p : f.points) {
      entries.push_back(sweep::summary_entry{source_name(f.path), f.points.size(), p, f.records[p.index]});
    }
  }
  const auto plot = sweep::make_plot_input(entries);
  sweep::page_input page;
  page.title = "mesure_memoire sweep: " + plot.configuration + " (" + plot.devices + ")";
  page.predictions_only = plot.predictions_only;
  page.svg = sweep::plot_svg(plot, false);
  page.entries = entries;
  page.environment = detail::environment_lines(folders);
  const std::vector<std::pair<std::string, std::string>> files{
      {"summary.csv", sweep::summary_csv(entries)},
      {"plot.svg", sweep::plot_svg(plot, true)},
      {"index.html", sweep::index_html(page)},
  };
  std::vector<std::filesystem::path> written;
  for (const auto& [name, text] : files) {
    const auto path = out / name;
    if (auto ok = write_new_file(path, text); !ok.has_value()) {
      return unexpected{ok.error().message};
    }
    written.push_back(path);
  }
  return written;
}

// ---- the command line ---------------------------------------------------------------

/// The flags of `mesure_memoire sweep`, with its help: its four forms and
/// its exit codes.
[[nodiscard]] inline po::options_description sweep_description() {
  po::options_description d(
      "mesure_memoire sweep: the synthetic network measured over lists of shapes, one fresh `measure` process per "
      "point, points that cannot fit skipped by prediction; summary.csv, plot.svg and index.html at the end.\n"
      "  sweep (--device cuda:N | --devices cuda:0,cuda:1 | --predict-only) --output-dir NEW_DIR [lists]\n"
      "  sweep --plan-only --output-dir NEW_DIR [lists]           writes points.tsv only\n"
      "  sweep --run-point N --output-dir DIR (--device cuda:N | --predict-only)   one point (a job array's task)\n"
      "  sweep --resume DIR (--device ... | --predict-only)        the points without a result\n"
      "A LIST is comma-separated values or doubling ranges: 8,16 or 64..8192 (64, 128, ..., 8192). Exit 0 when the "
      "sweep ran to its end (skipped and failed points are results), 2 bad input, 1 a file that could not be "
      "written, 130 (SIGINT) or 143 (SIGTERM) when interrupted");
  d.add_options()                                                                                                  //
      ("device", text_value(), "the GPU, cuda:N: one point at a time")                                            //
      ("devices", text_value(), "several GPUs, cuda:0,cuda:1,...: one point at a time on each, concurrently")     //
      ("predict-only", po::bool_switch(), "no process and no GPU: every point's figures are predictions")       //
      ("output-dir", text_value(), "the sweep's folder: a new one (or, with --run-point, the planned one)")      //
      ("batch", text_value(), "LIST of batch sizes (default 1)")                                                 //
      ("context", text_value(), "LIST of positions per input (default 16)")                                      //
      ("width", text_value(), "LIST of model widths (default 64)")                                               //
      ("dtype", text_value(), "comma-separated float32, float16, bfloat16 (default float32)")                    //
      ("warmup", text_value(), "warm-up passes of each point, 0 to 10000 (default 1)")                           //
      ("repeats", text_value(), "measured passes of each point, 1 to 10000 or auto (default 2)")                  //
      ("plan-only", po::bool_switch(), "write points.tsv and nothing else")                                       //
      ("run-point", text_value(), "run point N of the plan in --output-dir alone; a point with a result is left alone")  //
      ("resume", text_value(), "run the points of this sweep folder that have no result yet")                    //
      ("memory-gib", text_value(),
       "with --predict-only: the card's usable memory in GiB, a decimal; points predicted not to fit are skipped "
       "(without it none is skipped for the device)")  //
      ("host-memory-gib", text_value(),
       "with --predict-only: the host's available memory in GiB for the host rule (without it, no host rule)")  //
      ("workspace-bytes", text_value(),
       "the GPU library workspaces the prediction assumes, in bytes (default 34603008: H200, PyTorch 2.11)")  //
      ("outside-bytes", text_value(),
       "the memory a measuring process takes outside the allocator, in bytes (default 718077952, measured on the "
       "H200)")  //
      ("point-program", text_value(),
       "the program run for each point as `PROGRAM measure ...` and `PROGRAM environment --device D` (default: this "
       "program)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire sweep`.
struct sweep_options {
  /// Which of the command's four forms was given.
  enum class mode {
    full,       ///< a new folder: plan it, then run every point
    plan_only,  ///< --plan-only: write points.tsv and nothing else
    run_point,  ///< --run-point N: run one point of a planned folder
    resume      ///< --resume DIR: run the points of a folder that have no result yet
  } what{mode::full};  ///< the form given
  std::filesystem::path folder;                    ///< --output-dir, or the folder of --resume
  sweep::sweep_axes axes;                          ///< the lists of full and plan_only; the others read points.tsv
  std::optional<std::size_t> point;                ///< --run-point
  bool predict_only{false};                        ///< --predict-only
  std::vector<device_index> devices;               ///< --device or --devices; empty with --predict-only
  bool devices_listed{false};                      ///< the devices came from --devices
  std::optional<std::uint64_t> memory_bytes;       ///< --memory-gib in whole bytes, rounded down; predictions only
  std::optional<std::uint64_t> host_memory_bytes;  ///< --host-memory-gib, as memory_bytes; predictions only
  /// --workspace-bytes, split as prediction::split_workspace_total() does.
  prediction::blas_workspaces workspaces{prediction::default_workspaces()};
  byte_count outside{prediction::memory_outside_allocator_default};  ///< --outside-bytes
  std::optional<std::string> program;                                ///< --point-program; nothing: this program
};

namespace detail {

// Whole bytes of an amount of GiB, rounded down: a capacity never grows in
// the conversion.
[[nodiscard]] inline std::uint64_t gib_flag(const po::variables_map& values, std::string_view flag) {
  const exact_decimal gib = decimal_flag(flag, required_text(values, flag, "a decimal number of GiB"));
  const auto bytes = gib_to_bytes_rounded_down(gib);
  if (!bytes) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(required_text(values, flag, "")) +
                      " GiB passes 2^64 bytes; expected a smaller decimal");
  }
  if (bytes->value == 0) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(required_text(values, flag, "")) +
                      " is less than a byte; expected a positive decimal of GiB (such as 139.8)");
  }
  return bytes->value;
}

[[nodiscard]] inline std::vector<device_index> devices_flag(std::string_view text) {
  std::vector<device_index> devices;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const auto d = parse_device(item);
    if (!d) {
      throw usage_error("--devices: " + quoted(item) + " in " + quoted(text) +
                        " is not accepted; expected comma-separated cuda:N, e.g. cuda:0,cuda:1");
    }
    if (std::find(devices.begin(), devices.end(), *d) != devices.end()) {
      throw usage_error("--devices: " + quoted(item) + " is given twice; expected each device once");
    }
    devices.push_back(*d);
    if (comma == std::string_view::npos) {
      return devices;
    }
    start = comma + 1;
  }
}

}  // namespace detail

namespace detail {

// Refuses every flag of `flags` given with `mode`, saying why.
inline void refuse_with(const po::variables_map& values, std::string_view mode,
                        std::initializer_list<std::string_view> flags, std::string_view why) {
  for (const auto flag : flags) {
    if (given(values, flag)) {
      throw usage_error("--" + std::string(flag) + " cannot be used with " + std::string(mode) + ": " + std::string(why));
    }
  }
}

inline void refuse_plan_flags(const po::variables_map& values, std::string_view mode) {
  refuse_with(values, mode, {"batch", "context", "width", "dtype", "warmup", "repeats"},
              "the plan is read from the folder's points.tsv");
}

// The mode, the folder and the point of --run-point.
inline void parse_mode(const po::variables_map& values, sweep_options& o) {
  const int modes = (given(values, "plan-only") ? 1 : 0) + (given(values, "run-point") ? 1 : 0) +
                    (given(values, "resume") ? 1 : 0);
  if (modes > 1) {
    throw usage_error("--plan-only, --run-point and --resume are exclusive; expected at most one of them");
  }
  if (given(values, "plan-only")) {
    o.what = sweep_options::mode::plan_only;
    refuse_with(values, "--plan-only",
                {"device", "devices", "predict-only", "memory-gib", "host-memory-gib", "workspace-bytes",
                 "outside-bytes", "point-program"},
                "it writes the plan only; give the flags of a run to --run-point or --resume");
  } else if (given(values, "run-point")) {
    o.what = sweep_options::mode::run_point;
    refuse_plan_flags(values, "--run-point");
    refuse_with(values, "--run-point", {"devices"}, "one point runs on one device; give --device");
    o.point = integer_flag("run-point", required_text(values, "run-point", "a point index"), 0, accepted_non_negative);
  } else if (given(values, "resume")) {
    o.what = sweep_options::mode::resume;
    refuse_plan_flags(values, "--resume");
    refuse_with(values, "--resume", {"output-dir"}, "the folder is the one given to --resume");
    o.folder = required_text(values, "resume", "the folder of a sweep");
    return;
  }
  o.folder = required_text(values, "output-dir", o.what == sweep_options::mode::run_point
                                                     ? "the folder of a planned sweep"
                                                     : "a new folder for the sweep's files");
}

[[nodiscard]] inline std::vector<std::uint64_t> size_list_flag(const po::variables_map& values, std::string_view flag,
                                                               std::string_view fallback) {
  auto parsed = sweep::parse_size_list(optional_text(values, flag, fallback));
  if (!parsed.has_value()) {
    throw usage_error("--" + std::string(flag) + ": " + parsed.error() + "; expected " +
                      std::string(sweep::accepted_size_list));
  }
  return std::move(*parsed);
}

[[nodiscard]] inline sweep::sweep_axes axes_flags(const po::variables_map& values) {
  sweep::sweep_axes axes;
  axes.batch = size_list_flag(values, "batch", "1");
  axes.context = size_list_flag(values, "context", "16");
  axes.width = size_list_flag(values, "width", "64");
  auto dtypes = sweep::parse_dtype_list(optional_text(values, "dtype", "float32"));
  if (!dtypes.has_value()) {
    throw usage_error("--dtype: " + dtypes.error() + "; expected " + std::string(sweep::accepted_dtype_list));
  }
  axes.dtype = std::move(*dtypes);
  axes.warmup = warmup_flag(optional_text(values, "warmup", "1"));
  auto repeats = sweep::parse_repeats(optional_text(values, "repeats", "2"));
  if (!repeats.has_value()) {
    throw usage_error("--repeats: " + repeats.error());
  }
  axes.repeats = *repeats;
  return axes;
}

// Predictions or devices.
inline void parse_target(const po::variables_map& values, sweep_options& o) {
  o.predict_only = given(values, "predict-only");
  if (given(values, "device") && given(values, "devices")) {
    throw usage_error("--device and --devices are exclusive; expected one of them");
  }
  if (o.predict_only) {
    refuse_with(values, "--predict-only", {"device", "devices", "point-program"},
                "no process runs and no device is used");
    return;
  }
  refuse_with(values, "a device", {"memory-gib", "host-memory-gib"},
              "the device's free memory and the host's available memory are read before each point; these are for "
              "--predict-only");
  if (given(values, "devices")) {
    o.devices = devices_flag(required_text(values, "devices", "cuda:0,cuda:1,..."));
    o.devices_listed = true;
  } else if (given(values, "device")) {
    o.devices = {device_flag(required_text(values, "device", accepted_device))};
  } else {
    throw usage_error("--device, --devices or --predict-only is required; expected " + std::string(accepted_device) +
                      ", a list of them, or --predict-only to run nothing");
  }
}

[[nodiscard]] inline std::uint64_t bytes_flag(const po::variables_map& values, std::string_view flag) {
  return integer_flag(flag, required_text(values, flag, accepted_non_negative), 0, accepted_non_negative);
}

// The figures the rules use, and the program that runs the points.
inline void parse_settings(const po::variables_map& values, sweep_options& o) {
  if (given(values, "memory-gib")) {
    o.memory_bytes = gib_flag(values, "memory-gib");
  }
  if (given(values, "host-memory-gib")) {
    o.host_memory_bytes = gib_flag(values, "host-memory-gib");
  }
  if (given(values, "workspace-bytes")) {
    o.workspaces = workspace_total_flag(required_text(values, "workspace-bytes", accepted_workspace_total));
  }
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{bytes_flag(values, "outside-bytes")};
  }
  if (given(values, "point-program")) {
    o.program = required_text(values, "point-program", "the path of a program");
  }
}

}  // namespace detail

/// Validated options. Every combination that makes no sense is refused with
/// the flags named: a usage_error, as is a value that is not accepted.
[[nodiscard]] inline sweep_options parse_sweep_options(const po::variables_map& values) {
  sweep_options o;
  detail::parse_mode(values, o);
  if (o.what == sweep_options::mode::full || o.what == sweep_options::mode::plan_only) {
    o.axes = detail::axes_flags(values);
  }
  if (o.what == sweep_options::mode::plan_only) {
    return o;
  }
  detail::parse_target(values, o);
  detail::parse_settings(values, o);
  return o;
}

/// The terminal's width in columns when stderr is one (80 when its width
/// cannot be read), nothing otherwise.
[[nodiscard]] inline std::optional<std::size_t> stderr_terminal_columns() {
  if (::isatty(STDERR_FILENO) == 0) {
    return std::nullopt;
  }
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {  // NOLINT(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
    return std::size_t{size.ws_col};
  }
  return std::size_t{80};
}

namespace detail {

// Runs `pending` with the runner the options ask for and reports on `err`.
// Returns the exit code of an interrupted or failed run, nothing when it
// ran to its end.
template <class Runner>
[[nodiscard]] std::optional<int> run_pending(const sweep_options& o, const sweep_folder& folder,
                                             const std::vector<sweep::sweep_point>& pending, Runner& runner,
                                             std::optional<std::size_t> terminal, std::ostream& err,
                                             std::string_view command) {
  std::vector<sweep::point_record> failures;
  for (const auto& r : folder.records) {
    if (r && sweep::stops_larger_points(r->outcome)) {
      failures.push_back(*r);
    }
  }
  sweep::sweep_settings settings;
  settings.kind = o.predict_only ? sweep::record_kind::prediction : sweep::record_kind::measurement;
  settings.devices = o.predict_only ? std::vector<device_index>{device_index{0}} : o.devices;
  settings.workspaces = o.workspaces;
  settings.outside_allocator = o.outside;
  folder_sink sink(folder.path, folder.points.size());
  sweep::progress_display progress(err, terminal.has_value(), pending.size(), terminal.value_or(80), o.predict_only);
  const auto ran = sweep::run_points(pending, std::move(failures), settings, runner, sink, progress);
  progress.close();
  if (!ran.has_value()) {
    err << command << ": a record could not be written: " << ran.error() << "; the sweep stopped\n";
    return exit_internal_error;
  }
  if (ran->interrupted) {
    const int code = sweep::interrupted_exit_code();
    err << command << ": interrupted by signal " << (code - 128) << "; the running points were stopped and their "
        << "partial files removed; records kept by this run: " << ran->recorded << ", in "
        << quoted(folder.path.string()) << "; run the rest with --resume " << quoted(folder.path.string()) << '\n';
    return code;
  }
  return std::nullopt;
}

[[nodiscard]] inline result<void, std::string> check_kind(const sweep_folder& f, bool predict_only) {
  const auto wanted = predict_only ? sweep::record_kind::prediction : sweep::record_kind::measurement;
  for (const auto& r : f.records) {
    if (r && r->kind != wanted) {
      return unexpected{"its records are " + std::string(sweep::name_of(r->kind)) + "s; resume it " +
                        (predict_only ? "with --device" : "with --predict-only") + " (a sweep is one or the other)"};
    }
  }
  return {};
}

// A measurement file without its record (the sweep was killed between the
// two): its record is made from the file, without the process's figures.
[[nodiscard]] inline result<std::size_t, std::string> adopt_orphans(sweep_folder& f, const sweep_options& o) {
  std::size_t adopted = 0;
  for (const auto& p : f.points) {
    const auto file = f.path / sweep::measurement_name(p.index, f.points.size());
    if (f.records[p.index] || o.predict_only || !file_exists(file)) {
      continue;
    }
    auto figures = sweep_json::read_measurement(file);
    if (!figures.has_value()) {
      return unexpected{quoted(file.string()) + " has no record and cannot be read: " + figures.error() +
                        "; move it away to measure the point again"};
    }
    sweep::point_record r;
    r.kind = sweep::record_kind::measurement;
    r.point = p;
    r.outcome = sweep::outcome_kind::measured;
    r.outside_allocator_bytes = o.outside.value;
    r.workspaces = o.workspaces;
    r.gpu_name = figures->gpu_name;
    r.device_total_bytes = figures->device_total_bytes;
    r.measured = std::move(*figures);
    if (auto predicted = sweep::predict_point(p, o.workspaces); predicted.has_value()) {
      r.prediction = std::move(*predicted);
    }
    folder_sink sink(f.path, f.points.size());
    if (auto kept = sink.keep(r); !kept.has_value()) {
      return unexpected{kept.error()};
    }
    f.records[p.index] = std::move(r);
    ++adopted;
  }
  return adopted;
}

}  // namespace detail

namespace detail {

inline constexpr std::string_view sweep_command = "mesure_memoire sweep";

// Asks a fresh `environment` about each device: one that cannot be measured
// is bad input, as every point would fail. Returns the exit code of an
// interruption.
[[nodiscard]] inline std::optional<int> check_devices(const sweep_options& o, const process_runner& runner,
                                                      std::string_view nothing_done) {
  for (const device_index d : o.devices) {
    if (auto reading = runner.read_device(d); !reading.has_value()) {
      if (sweep::interrupt_requested()) {
        return sweep::interrupted_exit_code();
      }
      throw usage_error((o.devices_listed ? "--devices: " : "--device: ") + reading.error() + "; " +
                        std::string(nothing_done));
    }
  }
  return std::nullopt;
}

[[nodiscard]] inline std::string program_of(const sweep_options& o) {
  return o.program.value_or(sweep::running_program().value_or(""));
}

// --plan-only or a new sweep: checks the new folder (and the devices), then
// makes it and writes points.tsv. Returns an exit code when that is all.
[[nodiscard]] inline std::optional<int> plan_new_folder(const sweep_options& o, std::ostream& out, std::ostream& err) {
  auto plan = sweep::make_plan(o.axes);
  if (!plan.has_value()) {
    throw usage_error("--batch/--context/--width/--dtype: " + plan.error());
  }
  if (file_exists(o.folder)) {
    throw usage_error("--output-dir: " + quoted(o.folder.string()) +
                      " already exists; expected a new folder (nothing is overwritten; --resume continues a sweep)");
  }
  const auto parent = folder_of(o.folder);
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) {
    throw usage_error("--output-dir: folder " + quoted(parent.string()) +
                      " does not exist; expected the new folder's parent to exist");
  }
  if (o.what == sweep_options::mode::full && !o.predict_only) {
    const process_runner probe(program_of(o), parent, plan->size());
    const sweep::interrupt_guard guard;
    if (auto stopped = check_devices(o, probe, "nothing was run (--predict-only plans without a GPU)")) {
      return stopped;
    }
  }
  if (::mkdir(o.folder.c_str(), 0777) != 0) {
    throw usage_error("--output-dir: cannot create " + quoted(o.folder.string()) + ": " +
                      std::generic_category().message(errno));
  }
  if (auto written = write_new_file(o.folder / sweep::points_file, sweep::points_tsv(*plan)); !written.has_value()) {
    err << sweep_command << ": " << written.error().message << "\n";
    return exit_internal_error;
  }
  out << "planned " << plan->size() << " points in " << escaped((o.folder / sweep::points_file).string()) << '\n';
  return o.what == sweep_options::mode::plan_only ? std::optional<int>(exit_success) : std::nullopt;
}

// The sweep's folder read back, and the points it still has to run.
struct sweep_work {
  sweep_folder folder;
  std::vector<sweep::sweep_point> pending;
};

// Reads the folder, refuses what cannot be run, adopts measurements left
// without their record. An exit code when there is nothing to run.
[[nodiscard]] inline result<sweep_work, int> work_of(const sweep_options& o, std::ostream& out, std::ostream& err) {
  auto loaded = load_folder(o.folder);
  if (!loaded.has_value()) {
    throw usage_error(std::string(o.what == sweep_options::mode::resume ? "--resume: " : "--output-dir: ") +
                      loaded.error());
  }
  sweep_work work{std::move(*loaded), {}};
  if (auto same = check_kind(work.folder, o.predict_only); !same.has_value()) {
    throw usage_error(quoted(o.folder.string()) + ": " + same.error());
  }
  const std::size_t size = work.folder.points.size();
  if (o.point && *o.point >= size) {
    throw usage_error("--run-point: " + to_decimal_string(*o.point) + " is past the plan's last point " +
                      to_decimal_string(size - 1) + "; expected 0 to " + to_decimal_string(size - 1));
  }
  if (o.point && work.folder.records[*o.point]) {
    out << "point " << *o.point << " already has its result (" << sweep::name_of(work.folder.records[*o.point]->outcome)
        << "); left alone\n";
    return unexpected{exit_success};
  }
  if (!o.predict_only) {
    if (auto adopted = adopt_orphans(work.folder, o); !adopted.has_value()) {
      err << sweep_command << ": " << adopted.error() << '\n';
      return unexpected{exit_internal_error};
    }
  }
  for (const auto& p : work.folder.points) {
    if (!work.folder.records[p.index] && (!o.point || *o.point == p.index)) {
      work.pending.push_back(p);
    }
  }
  return work;
}

// Runs the pending points; an exit code when the run did not end.
[[nodiscard]] inline std::optional<int> run_work(const sweep_options& o, const sweep_work& work,
                                                 std::optional<std::size_t> terminal, std::ostream& err) {
  if (work.pending.empty()) {
    return std::nullopt;
  }
  const sweep::interrupt_guard guard;
  if (o.predict_only) {
    prediction_runner runner(o.memory_bytes, o.host_memory_bytes);
    return run_pending(o, work.folder, work.pending, runner, terminal, err, sweep_command);
  }
  process_runner runner(program_of(o), work.folder.path, work.folder.points.size());
  if (o.what != sweep_options::mode::full) {
    if (auto stopped = check_devices(o, runner, "nothing was run")) {
      return stopped;
    }
  }
  return run_pending(o, work.folder, work.pending, runner, terminal, err, sweep_command);
}

// The counts of the outcomes, and the report once every point has a result.
[[nodiscard]] inline int finish(const sweep_options& o, const std::filesystem::path& folder, std::ostream& out,
                                std::ostream& err) {
  auto reloaded = load_folder(folder);
  if (!reloaded.has_value()) {
    err << sweep_command << ": " << reloaded.error() << '\n';
    return exit_internal_error;
  }
  if (o.point) {
    const auto& r = reloaded->records[*o.point];
    out << "point " << *o.point << ": " << (r ? sweep::outcome_text(*r) : std::string("no result")) << '\n';
    return exit_success;
  }
  std::map<std::string_view, std::size_t> counts;
  std::size_t missing = 0;
  for (const auto& r : reloaded->records) {
    ++(r ? counts[sweep::name_of(r->outcome)] : missing);
  }
  out << "points:";
  for (const auto& [name, n] : counts) {
    out << ' ' << name << ' ' << n << ',';
  }
  out << " without a result " << missing << '\n';
  if (missing > 0) {
    return exit_success;
  }
  if (file_exists(folder / "summary.csv")) {
    out << "every point has its result; the report is already in " << escaped(folder.string()) << '\n';
    return exit_success;
  }
  auto written = write_report({*reloaded}, folder);
  if (!written.has_value()) {
    err << sweep_command << ": " << written.error() << '\n';
    return exit_internal_error;
  }
  for (const auto& path : *written) {
    out << "wrote " << escaped(path.string()) << '\n';
  }
  return exit_success;
}

}  // namespace detail

/// The sweep command with the progress display chosen by the caller:
/// `terminal` is the terminal's width when stderr is one (the bar), nothing
/// for one line per point. A new sweep or --plan-only plans a new folder;
/// then the points without a result run (with --run-point, that point
/// alone, whose outcome is printed), and once every point has a result the
/// report is written in the folder (unless summary.csv is already there).
/// Exit 0 when the sweep ran to its end, 2 for bad input, 1 for a file that
/// could not be written, 128 + the signal's number when interrupted.
[[nodiscard]] inline int run_sweep_with(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                        std::optional<std::size_t> terminal) {
  // Once the folder is settled, the files a run writes there are complete
  // whatever becomes of standard output: the message of a failed one names it.
  std::string kept;
  return guarded(detail::sweep_command, out, err, kept, [&]() -> int {
    const auto description = sweep_description();
    if (help_requested(args)) {
      out << description << '\n';
      return exit_success;
    }
    const sweep_options o = parse_sweep_options(parse_arguments(description, args));
    const std::string folder_files =
        "the files of the sweep folder " + quoted(o.folder.string()) +
        " (points.tsv, the point records and, once every point has one, summary.csv, plot.svg and index.html)";
    if (o.what == sweep_options::mode::plan_only || o.what == sweep_options::mode::full) {
      if (auto done = detail::plan_new_folder(o, out, err)) {
        if (*done == exit_success) {
          kept = folder_files;
        }
        return *done;
      }
    }
    auto work = detail::work_of(o, out, err);
    if (!work.has_value()) {
      return work.error();
    }
    kept = folder_files;
    if (auto stopped = detail::run_work(o, *work, terminal, err)) {
      return *stopped;
    }
    return detail::finish(o, work->folder.path, out, err);
  });
}

/// The sweep command as the program runs it: the bar when stderr is a
/// terminal (run_sweep_with() with stderr_terminal_columns()).
[[nodiscard]] inline int run_sweep(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return run_sweep_with(args, out, err, stderr_terminal_columns());
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SWEEP_COMMAND_HPP
