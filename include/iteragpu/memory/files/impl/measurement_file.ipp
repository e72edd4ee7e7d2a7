#ifndef ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/memory/files/measurement_file.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> json_byte_count(const boost::json::value& v) noexcept {
  if (const auto* u = v.if_uint64()) {
    return *u;
  }
  if (const auto* i = v.if_int64(); i != nullptr && *i >= 0) {
    return static_cast<std::uint64_t>(*i);
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::uint64_t peak_reserved_bytes(std::span<const phase_row> rows) noexcept {
  std::uint64_t peak = 0;
  for (const auto& row : rows) {
    peak = std::max(peak, row.peak_reserved_bytes);
  }
  return peak;
}

[[nodiscard]] ITERAGPU_INLINE result<measured_need, measured_need_errc> need_of_measurement(const measured_run& run) {
  return need_of_measurement(peak_reserved_bytes(run.phases), device_samples(run.phases));
}

}  // namespace iteragpu::memory

namespace iteragpu::memory::detail::measurement_fields {

inline constexpr std::array<phase_kind, 4> leading_phases{phase_kind::model_load, phase_kind::inputs,
                                                          phase_kind::cold_forward, phase_kind::warmup};

// Reads the fields of a document, keeping the first problem. After a
// problem every call returns a neutral value, so that reading goes on
// without checks at every step and the caller looks once at the end.
class field_reader {
 public:
  // Whether a problem was kept: every call after it returns a neutral value.
  [[nodiscard]] bool failed() const noexcept { return problem_.has_value(); }
  // A success, or the first problem.
  [[nodiscard]] result<void, measurement_field_error> outcome() const {
    if (problem_) {
      return unexpected{*problem_};
    }
    return {};
  }

  void fail(measurement_field_error problem) {
    if (!problem_) {
      problem_ = std::move(problem);
    }
  }

  // `where` holds `found`, not what `expected` (a literal) says.
  void fail_value(std::string where, const boost::json::value& found, std::string_view expected);

  // The member `key` of `parent`, or nothing (and a problem) when absent.
  [[nodiscard]] const boost::json::value* member(const boost::json::object& parent, std::string_view key,
                                                 std::string_view where, std::string_view expected);

  [[nodiscard]] const boost::json::object& object(const boost::json::value* v, std::string_view where);

  [[nodiscard]] const boost::json::object& object_at(const boost::json::object& parent, std::string_view key,
                                                     std::string_view where) {
    return object(member(parent, key, where, "an object"), path(where, key));
  }

  // An integer of at least `minimum`.
  [[nodiscard]] std::uint64_t count(const boost::json::value* v, std::string_view where, std::uint64_t minimum,
                                    std::string_view expected);

  [[nodiscard]] std::uint64_t count_at(const boost::json::object& parent, std::string_view key, std::string_view where,
                                       std::uint64_t minimum, std::string_view expected) {
    return count(member(parent, key, where, expected), path(where, key), minimum, expected);
  }

  // A finite number of at least 0 (seconds).
  [[nodiscard]] double seconds_at(const boost::json::object& parent, std::string_view key, std::string_view where);

  [[nodiscard]] std::string text_at(const boost::json::object& parent, std::string_view key, std::string_view where);

  // "phases[2].seconds"; a member of the top level is named by its key.
  [[nodiscard]] static std::string path(std::string_view where, std::string_view key) {
    return where.empty() ? std::string(key) : std::string(where) + "." + std::string(key);
  }

 private:
  std::optional<measurement_field_error> problem_{};
  boost::json::object empty_object_{};
};

// A value somewhere inside an object, or nothing where any step is
// missing or not an object: the environment's facts are read this way, so
// that a file whose environment says less is still compared.
[[nodiscard]] const boost::json::value* value_in(const boost::json::object& root,
                                                 std::initializer_list<std::string_view> keys);
// The string at that place; nothing where there is none.
[[nodiscard]] std::optional<std::string> string_in(const boost::json::object& root,
                                                   std::initializer_list<std::string_view> keys);
// The byte count at that place; nothing where there is none (json_byte_count()).
[[nodiscard]] std::optional<std::uint64_t> bytes_in(const boost::json::object& root,
                                                    std::initializer_list<std::string_view> keys);

// The program that writes a document of this shape, when it is one of the
// other outputs of the two programs.
[[nodiscard]] std::optional<other_output_kind> other_output(const boost::json::object& top);

// A refusal of kind `kind`, from the document, its data still to fill in.
[[nodiscard]] measurement_read_error refusal(measurement_read_errc kind, measurement_read_data what = {});

// The configuration: the device and passes of every run, and the shape
// of the synthetic network where the run measured it (`synthetic`).
void read_configuration(field_reader& r, const boost::json::object& top, std::int64_t schema, bool synthetic,
                        run_configuration& c);

// Whether a row's repeat is the one expected: null for the four leading
// phases, the 0-based number for warm_forward rows.
[[nodiscard]] bool repeat_is(const boost::json::value& v, const std::optional<std::uint64_t>& expected);

// Row `index` of phases, which must be the protocol's row of that index:
// model_load, inputs, cold_forward, warmup, then warm_forward 0, 1, 2...
// Schema 2 adds the device's used memory at the row's baseline and end
// (null where it was not read).
[[nodiscard]] phase_row read_row(field_reader& r, const boost::json::value& value, std::size_t index,
                                 std::int64_t schema);

// The rows, in the protocol's order, at least one of them warm_forward.
void read_phases(field_reader& r, const boost::json::object& top, std::int64_t schema, std::vector<phase_row>& rows);

// statistics.warm_forward.<series> of a schema-2 file: the count must be
// the number of warm_forward rows.
[[nodiscard]] median_estimate read_series(field_reader& r, const boost::json::object& warm, std::string_view key,
                                          std::size_t warm_rows);

void read_statistics(field_reader& r, const boost::json::object& top, measured_run& run);

ITERAGPU_INLINE void field_reader::fail_value(std::string where, const boost::json::value& found,
                                              std::string_view expected) {
  fail(measurement_field_error{measurement_field_errc::wrong_value, std::move(where),
                               rejected_value{boost::json::serialize(found), expected}});
}

[[nodiscard]] ITERAGPU_INLINE const boost::json::value* field_reader::member(const boost::json::object& parent,
                                                                             std::string_view key,
                                                                             std::string_view where,
                                                                             std::string_view expected) {
  const auto* found = parent.if_contains(key);
  if (found == nullptr) {
    fail(measurement_field_error{measurement_field_errc::missing, std::string(where),
                                 missing_key{std::string(key), expected}});
  }
  return found;
}

[[nodiscard]] ITERAGPU_INLINE const boost::json::object& field_reader::object(const boost::json::value* v,
                                                                              std::string_view where) {
  if (v != nullptr && v->is_object()) {
    return v->get_object();
  }
  if (v != nullptr) {
    fail_value(std::string(where), *v, "an object");
  }
  return empty_object_;
}

[[nodiscard]] ITERAGPU_INLINE std::uint64_t field_reader::count(const boost::json::value* v, std::string_view where,
                                                                std::uint64_t minimum, std::string_view expected) {
  if (v == nullptr) {
    return minimum;
  }
  if (const auto* u = v->if_uint64()) {
    if (*u >= minimum) {
      return *u;
    }
  } else if (const auto* i = v->if_int64()) {
    if (*i >= 0 && static_cast<std::uint64_t>(*i) >= minimum) {
      return static_cast<std::uint64_t>(*i);
    }
  }
  fail_value(std::string(where), *v, expected);
  return minimum;
}

[[nodiscard]] ITERAGPU_INLINE double field_reader::seconds_at(const boost::json::object& parent, std::string_view key,
                                                              std::string_view where) {
  constexpr std::string_view expected = "a finite number of seconds, 0 or more";
  const auto* v = member(parent, key, where, expected);
  if (v == nullptr) {
    return 0.0;
  }
  if (v->is_number()) {
    const double d = v->to_number<double>();
    if (std::isfinite(d) && d >= 0.0) {
      return d;
    }
  }
  fail_value(path(where, key), *v, expected);
  return 0.0;
}

[[nodiscard]] ITERAGPU_INLINE std::string field_reader::text_at(const boost::json::object& parent, std::string_view key,
                                                                std::string_view where) {
  const auto* v = member(parent, key, where, "a string");
  if (v == nullptr) {
    return {};
  }
  if (!v->is_string()) {
    fail_value(path(where, key), *v, "a string");
    return {};
  }
  return std::string(v->get_string());
}

[[nodiscard]] ITERAGPU_INLINE const boost::json::value* value_in(const boost::json::object& root,
                                                                 std::initializer_list<std::string_view> keys) {
  const boost::json::object* o = &root;
  const boost::json::value* v = nullptr;
  for (const auto key : keys) {
    v = o != nullptr ? o->if_contains(key) : nullptr;
    if (v == nullptr) {
      return nullptr;
    }
    o = v->if_object();
  }
  return v;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> string_in(const boost::json::object& root,
                                                                   std::initializer_list<std::string_view> keys) {
  const auto* v = value_in(root, keys);
  return v != nullptr && v->is_string() ? std::optional<std::string>(std::string(v->get_string())) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> bytes_in(const boost::json::object& root,
                                                                    std::initializer_list<std::string_view> keys) {
  const auto* v = value_in(root, keys);
  return v != nullptr ? json_byte_count(*v) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<other_output_kind> other_output(const boost::json::object& top) {
  const auto* kind = top.if_contains("kind");
  if (kind != nullptr && kind->is_string() && kind->get_string() == "plan") {
    return other_output_kind::plan;
  }
  if (top.contains("weight_bytes") && top.contains("bits")) {
    return other_output_kind::estimate;
  }
  if (top.contains("total_price_cents")) {
    return other_output_kind::quote;
  }
  if (top.contains("gpus") && top.contains("device") && !top.contains("phases")) {
    return other_output_kind::environment;
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE measurement_read_error refusal(measurement_read_errc kind, measurement_read_data what) {
  measurement_read_error e;
  e.code = kind;
  e.what = std::move(what);
  return e;
}

ITERAGPU_INLINE void read_configuration(field_reader& r, const boost::json::object& top, std::int64_t schema,
                                        bool synthetic, run_configuration& c) {
  const auto& o = r.object_at(top, "configuration", "");
  constexpr std::string_view where = "configuration";
  constexpr std::string_view positive = "a positive integer";
  c.device = r.text_at(o, "device", where);
  if (synthetic) {
    c.batch = r.count_at(o, "batch", where, 1, positive);
    c.context = r.count_at(o, "context", where, 1, positive);
    c.width = r.count_at(o, "width", where, 1, positive);
    c.dtype = r.text_at(o, "dtype", where);
  }
  c.warmup = r.count_at(o, "warmup", where, 0, "an integer, 0 or more");
  const std::string_view expected_repeats = schema == 1 ? "a positive integer" : "a positive integer or \"auto\"";
  const auto* repeats = r.member(o, "repeats", where, expected_repeats);
  if (repeats != nullptr && schema >= 2 && repeats->is_string() && repeats->get_string() == "auto") {
    c.repeats = std::nullopt;
  } else {
    c.repeats = r.count(repeats, "configuration.repeats", 1, expected_repeats);
  }
}

[[nodiscard]] ITERAGPU_INLINE bool repeat_is(const boost::json::value& v,
                                             const std::optional<std::uint64_t>& expected) {
  if (!expected) {
    return v.is_null();
  }
  if (const auto* i = v.if_int64()) {
    return *i >= 0 && static_cast<std::uint64_t>(*i) == *expected;
  }
  return v.is_uint64() && v.get_uint64() == *expected;
}

[[nodiscard]] ITERAGPU_INLINE phase_row read_row(field_reader& r, const boost::json::value& value, std::size_t index,
                                                 std::int64_t schema) {
  const std::string where = "phases[" + to_decimal_string(index) + "]";
  const auto& o = r.object(&value, where);
  phase_row row;
  if (index < leading_phases.size()) {
    row.phase = leading_phases[index];
  } else {
    row.phase = phase_kind::warm_forward;
    row.repeat = index - leading_phases.size();
  }
  const std::string phase = r.text_at(o, "phase", where);
  const auto* repeat = r.member(o, "repeat", where, row.repeat ? "the repeat's number" : "null");
  if (r.failed()) {
    return row;
  }
  if (phase != name_of(row.phase) || !repeat_is(*repeat, row.repeat)) {
    r.fail(measurement_field_error{measurement_field_errc::wrong_row, where,
                                   misplaced_row{phase, boost::json::serialize(*repeat), row.phase, row.repeat}});
    return row;
  }
  row.seconds = r.seconds_at(o, "seconds", where);
  row.gpu_seconds = r.seconds_at(o, "gpu_seconds", where);
  constexpr std::string_view bytes = "a byte count, an integer of 0 or more";
  std::array<std::uint64_t, 6> fields{};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    fields[f] = r.count_at(o, prediction::byte_field_names[f], where, 0, bytes);
  }
  row.baseline_allocated_bytes = fields[0];
  row.baseline_reserved_bytes = fields[1];
  row.end_allocated_bytes = fields[2];
  row.end_reserved_bytes = fields[3];
  row.peak_allocated_bytes = fields[4];
  row.peak_reserved_bytes = fields[5];
  if (schema >= 2) {
    constexpr std::string_view used = "null or a byte count, an integer of 0 or more";
    for (auto [key, field] :
         {std::pair{std::string_view("baseline_device_used_bytes"), &phase_row::baseline_device_used_bytes},
          std::pair{std::string_view("end_device_used_bytes"), &phase_row::end_device_used_bytes}}) {
      const auto* v = o.if_contains(key);
      if (v != nullptr && !v->is_null()) {
        row.*field = r.count(v, field_reader::path(where, key), 0, used);
      }
    }
  }
  return row;
}

ITERAGPU_INLINE void read_phases(field_reader& r, const boost::json::object& top, std::int64_t schema,
                                 std::vector<phase_row>& rows) {
  const auto* phases = r.member(top, "phases", "", "an array of phase rows");
  if (phases == nullptr) {
    return;
  }
  if (!phases->is_array()) {
    r.fail_value("phases", *phases, "an array of phase rows");
    return;
  }
  const auto& array = phases->get_array();
  if (array.size() <= leading_phases.size()) {
    r.fail(measurement_field_error{measurement_field_errc::too_few_rows, "phases", row_count{array.size()}});
    return;
  }
  rows.reserve(array.size());
  for (std::size_t i = 0; i < array.size() && !r.failed(); ++i) {
    rows.push_back(read_row(r, array[i], i, schema));
  }
}

[[nodiscard]] ITERAGPU_INLINE median_estimate read_series(field_reader& r, const boost::json::object& warm,
                                                          std::string_view key, std::size_t warm_rows) {
  const std::string where = field_reader::path("statistics.warm_forward", key);
  const auto& o = r.object(r.member(warm, key, "statistics.warm_forward", "an object"), where);
  median_estimate e;
  e.count = r.count_at(o, "count", where, 1, "a positive integer");
  if (!r.failed() && e.count != warm_rows) {
    r.fail(measurement_field_error{measurement_field_errc::count_mismatch, where, count_and_rows{e.count, warm_rows}});
  }
  e.median = r.seconds_at(o, "median", where);
  const auto* ci = r.member(o, "median_ci", where, "null or an object");
  if (ci != nullptr && !ci->is_null()) {
    const std::string ci_where = where + ".median_ci";
    const auto& interval = r.object(ci, ci_where);
    e.ci =
        median_estimate::interval{r.seconds_at(interval, "lower", ci_where), r.seconds_at(interval, "upper", ci_where)};
    if (!r.failed() && !(e.ci->lower <= e.median && e.median <= e.ci->upper)) {
      r.fail(measurement_field_error{measurement_field_errc::interval_without_median, ci_where, {}});
    }
  }
  return e;
}

ITERAGPU_INLINE void read_statistics(field_reader& r, const boost::json::object& top, measured_run& run) {
  const auto& statistics = r.object_at(top, "statistics", "");
  const auto& warm = r.object_at(statistics, "warm_forward", "statistics");
  const std::size_t warm_rows = run.phases.size() - leading_phases.size();
  run.seconds = read_series(r, warm, "seconds", warm_rows);
  run.gpu_seconds = read_series(r, warm, "gpu_seconds", warm_rows);
  const std::uint64_t with_state =
      r.count_at(statistics, "repeats_with_gpu_state", "statistics", 0, "an integer, 0 or more");
  const std::uint64_t throttled =
      r.count_at(statistics, "repeats_under_throttling", "statistics", 0, "an integer, at most repeats_with_gpu_state");
  if (!r.failed() && throttled > with_state) {
    r.fail(measurement_field_error{measurement_field_errc::throttled_above_state, "statistics", {}});
  }
  run.repeats_with_gpu_state = with_state;
  run.repeats_under_throttling = throttled;
  run.statistics_recorded = true;
}
}  // namespace iteragpu::memory::detail::measurement_fields

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<measured_run, measurement_read_error> measurement_from_json(
    const boost::json::value& document) {
  if (!document.is_object()) {
    return unexpected{detail::measurement_fields::refusal(measurement_read_errc::top_level,
                                                          found_value{boost::json::serialize(document)})};
  }
  const auto& top = document.get_object();
  if (const auto other = detail::measurement_fields::other_output(top)) {
    return unexpected{detail::measurement_fields::refusal(measurement_read_errc::other_output, *other)};
  }
  const auto* version = top.if_contains("schema_version");
  if (version == nullptr) {
    return unexpected{detail::measurement_fields::refusal(measurement_read_errc::no_schema_version)};
  }
  if (!version->is_int64() || (version->get_int64() != 1 && version->get_int64() != 2)) {
    return unexpected{detail::measurement_fields::refusal(measurement_read_errc::unknown_schema_version,
                                                          found_value{boost::json::serialize(*version)})};
  }
  measured_run run;
  run.schema_version = version->get_int64();
  run.synthetic = !top.contains("workload");
  detail::measurement_fields::field_reader r;
  detail::measurement_fields::read_configuration(r, top, run.schema_version, run.synthetic, run.configuration);
  const auto& environment = r.object_at(top, "environment", "");
  detail::measurement_fields::read_phases(r, top, run.schema_version, run.phases);
  if (!r.failed()) {
    if (run.schema_version >= 2) {
      detail::measurement_fields::read_statistics(r, top, run);
    } else {
      // Schema 1 has no statistics: they are computed from the rows, which
      // are all finite and not negative by now.
      const auto computed = statistics_of(run.phases);
      run.seconds = median_estimate_of(computed.seconds.value_or(sample_summary{}));
      run.gpu_seconds = median_estimate_of(computed.gpu_seconds.value_or(sample_summary{}));
    }
  }
  if (const auto read = r.outcome(); !read) {
    return unexpected{detail::measurement_fields::refusal(measurement_read_errc::bad_field, read.error())};
  }
  const auto name = detail::measurement_fields::string_in(environment, {"library", "name"});
  const auto version_text = detail::measurement_fields::string_in(environment, {"library", "version"});
  if (name && version_text) {
    run.environment.library = *name + " " + *version_text;
  }
  run.environment.libtorch = detail::measurement_fields::string_in(environment, {"libtorch", "version"});
  run.environment.cuda_build = detail::measurement_fields::string_in(environment, {"cuda_build"});
  run.environment.gpu = detail::measurement_fields::string_in(environment, {"device", "name"});
  run.environment.driver = detail::measurement_fields::string_in(environment, {"management", "driver_version"});
  run.environment.device_total_bytes =
      detail::measurement_fields::bytes_in(environment, {"device", "total_memory_bytes"});
  return run;
}

[[nodiscard]] ITERAGPU_INLINE result<measured_run, measurement_read_error> measurement_from_text(
    std::string_view text) {
  const auto refusal = [](measurement_read_errc kind, measurement_read_data what = {}) {
    auto e = detail::measurement_fields::refusal(kind, std::move(what));
    e.stage = measurement_read_stage::text;
    return e;
  };
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return unexpected{refusal(measurement_read_errc::empty)};
  }
  boost::json::stream_parser parser;
  boost::system::error_code error;
  const std::size_t used = parser.write(text.data(), text.size(), error);
  if (!error) {
    parser.finish(error);
  }
  if (error) {
    return unexpected{refusal(measurement_read_errc::not_json, parse_stop{error, used, text.size()})};
  }
  auto duplicate = first_duplicate_key(text);
  if (!duplicate) {
    return unexpected{refusal(measurement_read_errc::not_json, parse_stop{duplicate.error().parser, 0, text.size()})};
  }
  if (*duplicate) {
    return unexpected{refusal(measurement_read_errc::duplicate_key, repeated_key{std::move(**duplicate)})};
  }
  const auto document = parser.release();
  if (const auto* o = document.if_object(); o != nullptr && o->contains("workload")) {
    return unexpected{refusal(measurement_read_errc::torchscript)};
  }
  auto run = measurement_from_json(document);
  if (!run) {
    auto e = std::move(run).error();
    e.stage = measurement_read_stage::text;
    return unexpected{std::move(e)};
  }
  return run;
}

[[nodiscard]] ITERAGPU_INLINE result<measured_run, measurement_read_error> read_measurement(
    const std::filesystem::path& path) {
  const auto refused = [&path](measurement_read_errc kind) {
    auto e = detail::measurement_fields::refusal(kind);
    e.stage = measurement_read_stage::file;
    e.file = path.string();
    return unexpected{std::move(e)};
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    return refused(measurement_read_errc::does_not_exist);
  }
  if (std::filesystem::is_directory(status)) {
    return refused(measurement_read_errc::folder);
  }
  auto text = read_file_within(path, measurement_file_limit);
  if (!text) {
    switch (text.error()) {
      case read_errc::too_large:
        return refused(measurement_read_errc::too_large);
      case read_errc::not_a_regular_file:
        return refused(measurement_read_errc::not_a_regular_file);
      case read_errc::cannot_open:
      case read_errc::cannot_read:
        break;
    }
    return refused(measurement_read_errc::unreadable);
  }
  auto run = measurement_from_text(*text);
  if (!run) {
    auto e = std::move(run).error();
    e.stage = measurement_read_stage::file;
    e.file = path.string();
    return unexpected{std::move(e)};
  }
  return run;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP
