#ifndef ITERAGPU_REPORT_IMPL_COMPARE_IPP
#define ITERAGPU_REPORT_IMPL_COMPARE_IPP

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/report/compare.hpp"

// The bodies of the functions that <iteragpu/report/compare.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

inline constexpr std::array<phase_kind, 4> leading_phases{phase_kind::model_load, phase_kind::inputs,
                                                          phase_kind::cold_forward, phase_kind::warmup};

// What a JSON value is, for a message: "an array", "the string 'x'",
// "the number -5".
[[nodiscard]] std::string describe_value(const boost::json::value& v);

// Reads the fields of a document, keeping the first problem. After a
// problem every call returns a neutral value, so that reading goes on
// without checks at every step and the caller looks once at the end.
class field_reader {
 public:
  [[nodiscard]] const std::optional<measurement_field_error>& problem() const noexcept { return problem_; }

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

  [[nodiscard]] std::uint64_t count_at(const boost::json::object& parent, std::string_view key,
                                       std::string_view where, std::uint64_t minimum, std::string_view expected) {
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
[[nodiscard]] measurement_read_error refusal(measurement_read_errc kind);

void read_configuration(field_reader& r, const boost::json::object& top, std::int64_t schema,
                               memory::run_configuration& c);

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
[[nodiscard]] memory::median_estimate read_series(field_reader& r, const boost::json::object& warm, std::string_view key,
                                                 std::size_t warm_rows);

void read_statistics(field_reader& r, const boost::json::object& top, memory::compared_run& run);


[[nodiscard]] ITERAGPU_INLINE std::string describe_value(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_:
      return "the number " + boost::json::serialize(v);
    case boost::json::kind::string:
      return "the string " + quoted_excerpt(v.get_string());
    case boost::json::kind::array:
      return "an array";
    case boost::json::kind::object:
      return "an object";
  }
  return "a JSON value";
}

// describe_value() of a value kept as JSON text.
[[nodiscard]] ITERAGPU_INLINE std::string describe_found(std::string_view text) {
  boost::system::error_code ec;
  const auto v = boost::json::parse(text, ec);
  return ec ? std::string("a JSON value") : describe_value(v);
}

ITERAGPU_INLINE void field_reader::fail_value(std::string where, const boost::json::value& found, std::string_view expected) {
  measurement_field_error e;
  e.kind = measurement_field_errc::wrong_value;
  e.path = std::move(where);
  e.expected = expected;
  e.found = boost::json::serialize(found);
  fail(std::move(e));
}

[[nodiscard]] ITERAGPU_INLINE const boost::json::value* field_reader::member(const boost::json::object& parent, std::string_view key,
                                                                             std::string_view where, std::string_view expected) {
  const auto* found = parent.if_contains(key);
  if (found == nullptr) {
    measurement_field_error e;
    e.path = std::string(where);
    e.key = std::string(key);
    e.expected = expected;
    fail(std::move(e));
  }
  return found;
}

[[nodiscard]] ITERAGPU_INLINE const boost::json::object& field_reader::object(const boost::json::value* v, std::string_view where) {
  if (v != nullptr && v->is_object()) {
    return v->get_object();
  }
  if (v != nullptr) {
    fail_value(std::string(where), *v, "an object");
  }
  return empty_object_;
}

[[nodiscard]] ITERAGPU_INLINE std::uint64_t field_reader::count(const boost::json::value* v, std::string_view where, std::uint64_t minimum,
                                                                std::string_view expected) {
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

[[nodiscard]] ITERAGPU_INLINE double field_reader::seconds_at(const boost::json::object& parent, std::string_view key, std::string_view where) {
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

[[nodiscard]] ITERAGPU_INLINE std::string field_reader::text_at(const boost::json::object& parent, std::string_view key, std::string_view where) {
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
  return v != nullptr ? memory::json_byte_count(*v) : std::nullopt;
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

[[nodiscard]] ITERAGPU_INLINE measurement_read_error refusal(measurement_read_errc kind) {
  measurement_read_error e;
  e.kind = kind;
  return e;
}

ITERAGPU_INLINE void read_configuration(field_reader& r, const boost::json::object& top, std::int64_t schema,
                                        memory::run_configuration& c) {
  const auto& o = r.object_at(top, "configuration", "");
  constexpr std::string_view where = "configuration";
  constexpr std::string_view positive = "a positive integer";
  c.device = r.text_at(o, "device", where);
  c.batch = r.count_at(o, "batch", where, 1, positive);
  c.context = r.count_at(o, "context", where, 1, positive);
  c.width = r.count_at(o, "width", where, 1, positive);
  c.dtype = r.text_at(o, "dtype", where);
  c.warmup = r.count_at(o, "warmup", where, 0, "an integer, 0 or more");
  const std::string_view expected_repeats = schema == 1 ? "a positive integer" : "a positive integer or \"auto\"";
  const auto* repeats = r.member(o, "repeats", where, expected_repeats);
  if (repeats != nullptr && schema >= 2 && repeats->is_string() && repeats->get_string() == "auto") {
    c.repeats = std::nullopt;
  } else {
    c.repeats = r.count(repeats, "configuration.repeats", 1, expected_repeats);
  }
}

[[nodiscard]] ITERAGPU_INLINE bool repeat_is(const boost::json::value& v, const std::optional<std::uint64_t>& expected) {
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
  if (r.problem()) {
    return row;
  }
  if (phase != name_of(row.phase) || !repeat_is(*repeat, row.repeat)) {
    measurement_field_error e;
    e.kind = measurement_field_errc::wrong_row;
    e.path = where;
    e.found = boost::json::serialize(*repeat);
    e.phase = phase;
    e.row_phase = row.phase;
    e.row_repeat = row.repeat;
    r.fail(std::move(e));
    return row;
  }
  row.seconds = r.seconds_at(o, "seconds", where);
  row.gpu_seconds = r.seconds_at(o, "gpu_seconds", where);
  constexpr std::string_view bytes = "a byte count, an integer of 0 or more";
  std::array<std::uint64_t, 6> fields{};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    fields[f] = r.count_at(o, memory::prediction::byte_field_names[f], where, 0, bytes);
  }
  row.baseline_allocated_bytes = fields[0];
  row.baseline_reserved_bytes = fields[1];
  row.end_allocated_bytes = fields[2];
  row.end_reserved_bytes = fields[3];
  row.peak_allocated_bytes = fields[4];
  row.peak_reserved_bytes = fields[5];
  if (schema >= 2) {
    constexpr std::string_view used = "null or a byte count, an integer of 0 or more";
    for (auto [key, field] : {std::pair{std::string_view("baseline_device_used_bytes"), &phase_row::baseline_device_used_bytes},
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
    measurement_field_error e;
    e.kind = measurement_field_errc::too_few_rows;
    e.count = array.size();
    r.fail(std::move(e));
    return;
  }
  rows.reserve(array.size());
  for (std::size_t i = 0; i < array.size() && !r.problem(); ++i) {
    rows.push_back(read_row(r, array[i], i, schema));
  }
}

[[nodiscard]] ITERAGPU_INLINE memory::median_estimate read_series(field_reader& r, const boost::json::object& warm, std::string_view key,
                                                          std::size_t warm_rows) {
  const std::string where = field_reader::path("statistics.warm_forward", key);
  const auto& o = r.object(r.member(warm, key, "statistics.warm_forward", "an object"), where);
  memory::median_estimate e;
  e.count = r.count_at(o, "count", where, 1, "a positive integer");
  if (!r.problem() && e.count != warm_rows) {
    measurement_field_error problem;
    problem.kind = measurement_field_errc::count_mismatch;
    problem.path = where;
    problem.count = e.count;
    problem.rows = warm_rows;
    r.fail(std::move(problem));
  }
  e.median = r.seconds_at(o, "median", where);
  const auto* ci = r.member(o, "median_ci", where, "null or an object");
  if (ci != nullptr && !ci->is_null()) {
    const std::string ci_where = where + ".median_ci";
    const auto& interval = r.object(ci, ci_where);
    e.ci = memory::median_estimate::interval{r.seconds_at(interval, "lower", ci_where),
                                     r.seconds_at(interval, "upper", ci_where)};
    if (!r.problem() && !(e.ci->lower <= e.median && e.median <= e.ci->upper)) {
      measurement_field_error problem;
      problem.kind = measurement_field_errc::interval_without_median;
      problem.path = ci_where;
      r.fail(std::move(problem));
    }
  }
  return e;
}

ITERAGPU_INLINE void read_statistics(field_reader& r, const boost::json::object& top, memory::compared_run& run) {
  const auto& statistics = r.object_at(top, "statistics", "");
  const auto& warm = r.object_at(statistics, "warm_forward", "statistics");
  const std::size_t warm_rows = run.phases.size() - leading_phases.size();
  run.seconds = read_series(r, warm, "seconds", warm_rows);
  run.gpu_seconds = read_series(r, warm, "gpu_seconds", warm_rows);
  const std::uint64_t with_state =
      r.count_at(statistics, "repeats_with_gpu_state", "statistics", 0, "an integer, 0 or more");
  const std::uint64_t throttled = r.count_at(statistics, "repeats_under_throttling", "statistics", 0,
                                             "an integer, at most repeats_with_gpu_state");
  if (!r.problem() && throttled > with_state) {
    measurement_field_error problem;
    problem.kind = measurement_field_errc::throttled_above_state;
    r.fail(std::move(problem));
  }
  run.repeats_with_gpu_state = with_state;
  run.repeats_under_throttling = throttled;
  run.statistics_recorded = true;
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE result<memory::compared_run, measurement_read_error> measurement_from_json(
    const boost::json::value& document) {
  if (!document.is_object()) {
    auto e = detail::refusal(measurement_read_errc::top_level);
    e.found = boost::json::serialize(document);
    return unexpected{std::move(e)};
  }
  const auto& top = document.get_object();
  if (const auto other = detail::other_output(top)) {
    auto e = detail::refusal(measurement_read_errc::other_output);
    e.other = *other;
    return unexpected{std::move(e)};
  }
  const auto* version = top.if_contains("schema_version");
  if (version == nullptr) {
    return unexpected{detail::refusal(measurement_read_errc::no_schema_version)};
  }
  if (!version->is_int64() || (version->get_int64() != 1 && version->get_int64() != 2)) {
    auto e = detail::refusal(measurement_read_errc::unknown_schema_version);
    e.found = boost::json::serialize(*version);
    return unexpected{std::move(e)};
  }
  memory::compared_run run;
  run.schema_version = version->get_int64();
  detail::field_reader r;
  detail::read_configuration(r, top, run.schema_version, run.configuration);
  const auto& environment = r.object_at(top, "environment", "");
  detail::read_phases(r, top, run.schema_version, run.phases);
  if (!r.problem()) {
    if (run.schema_version >= 2) {
      detail::read_statistics(r, top, run);
    } else {
      // Schema 1 has no statistics: they are computed from the rows, which
      // are all finite and not negative by now.
      const auto computed = memory::statistics_of(run.phases);
      run.seconds = memory::median_estimate_of(computed.seconds.value_or(memory::sample_summary{}));
      run.gpu_seconds = memory::median_estimate_of(computed.gpu_seconds.value_or(memory::sample_summary{}));
    }
  }
  if (const auto& problem = r.problem()) {
    auto e = detail::refusal(measurement_read_errc::bad_field);
    e.field = *problem;
    return unexpected{std::move(e)};
  }
  const auto name = detail::string_in(environment, {"library", "name"});
  const auto version_text = detail::string_in(environment, {"library", "version"});
  if (name && version_text) {
    run.environment.library = *name + " " + *version_text;
  }
  run.environment.libtorch = detail::string_in(environment, {"libtorch", "version"});
  run.environment.cuda_build = detail::string_in(environment, {"cuda_build"});
  run.environment.gpu = detail::string_in(environment, {"device", "name"});
  run.environment.driver = detail::string_in(environment, {"management", "driver_version"});
  run.environment.device_total_bytes = detail::bytes_in(environment, {"device", "total_memory_bytes"});
  return run;
}

[[nodiscard]] ITERAGPU_INLINE result<memory::compared_run, measurement_read_error> measurement_from_text(std::string_view text) {
  const auto refusal = [](measurement_read_errc kind) {
    auto e = detail::refusal(kind);
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
    auto e = refusal(measurement_read_errc::not_json);
    e.json = error;
    e.offset = used;
    e.size = text.size();
    return unexpected{std::move(e)};
  }
  if (auto duplicate = first_duplicate_key(text)) {
    auto e = refusal(measurement_read_errc::duplicate_key);
    e.duplicate = std::move(*duplicate);
    return unexpected{std::move(e)};
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

[[nodiscard]] ITERAGPU_INLINE result<memory::compared_run, measurement_read_error> read_measurement(
    const std::filesystem::path& path) {
  const auto refused = [&path](measurement_read_errc kind) {
    auto e = detail::refusal(kind);
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
      case read_error::too_large:
        return refused(measurement_read_errc::too_large);
      case read_error::not_a_regular_file:
        return refused(measurement_read_errc::not_a_regular_file);
      case read_error::cannot_open:
      case read_error::cannot_read:
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

[[nodiscard]] ITERAGPU_INLINE std::string describe(const measurement_field_error& e) {
  switch (e.kind) {
    case measurement_field_errc::missing:
      return (e.path.empty() ? std::string("the document") : e.path) + " has no \"" + e.key + "\"; expected " +
             std::string(e.expected);
    case measurement_field_errc::wrong_value:
      return e.path + " is " + detail::describe_found(e.found) + "; expected " + std::string(e.expected);
    case measurement_field_errc::wrong_row:
      return e.path + " is phase " + quoted_excerpt(e.phase) + " with repeat " + detail::describe_found(e.found) +
             "; expected the row " + row_name(e.row_phase, e.row_repeat) + " (rows in the protocol's order)";
    case measurement_field_errc::too_few_rows:
      return "phases has " + to_decimal_string(e.count) +
             " rows; expected model_load, inputs, cold_forward, warmup and at least one warm_forward row";
    case measurement_field_errc::count_mismatch:
      return e.path + ".count is " + to_decimal_string(e.count) + " but phases has " + to_decimal_string(e.rows) +
             " warm_forward rows; expected the two equal";
    case measurement_field_errc::interval_without_median:
      return e.path + " does not hold the median; expected lower <= median <= upper";
    case measurement_field_errc::throttled_above_state:
      return "statistics.repeats_under_throttling is larger than statistics.repeats_with_gpu_state; expected at "
             "most as large";
  }
  return "a field cannot be read";
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE std::string describe_document(const measurement_read_error& e) {
  const std::string expected(expected_measurement);
  switch (e.kind) {
    case measurement_read_errc::top_level:
      return "the top level is " + describe_found(e.found) + "; " + expected;
    case measurement_read_errc::other_output:
      return "it is " + std::string(name_of(e.other)) + "; " + expected;
    case measurement_read_errc::no_schema_version:
      return "it has no schema_version; " + expected;
    case measurement_read_errc::unknown_schema_version:
      return "schema_version is " + describe_found(e.found) + ", not one this program reads; " + expected;
    default:
      return describe(e.field);
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string describe_text(const measurement_read_error& e) {
  const std::string expected(expected_measurement);
  switch (e.kind) {
    case measurement_read_errc::empty:
      return "is empty; " + expected;
    case measurement_read_errc::not_json:
      return "is not JSON (" + e.json.message() + " at byte " + to_decimal_string(e.offset) + " of " +
             to_decimal_string(e.size) + "); " + expected;
    case measurement_read_errc::duplicate_key:
      return "is refused: " + duplicate_key_message(e.duplicate) + "; " + expected + ", each key once";
    case measurement_read_errc::torchscript:
      return "is the measurement of a TorchScript module (it has a workload); compare reads measurements of the "
             "synthetic network only";
    default:
      return "is not a measurement: " + describe_document(e);
  }
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const measurement_read_error& e) {
  if (e.stage == measurement_read_stage::document) {
    return detail::describe_document(e);
  }
  if (e.stage == measurement_read_stage::text) {
    return detail::describe_text(e);
  }
  const std::string name = quoted(e.file);
  const std::string expected(expected_measurement);
  switch (e.kind) {
    case measurement_read_errc::does_not_exist:
      return name + " does not exist; " + expected;
    case measurement_read_errc::folder:
      return name + " is a folder; " + expected;
    case measurement_read_errc::too_large:
      return name + " is larger than 16 MiB (" + to_decimal_string(measurement_file_limit) +
             " bytes), more than compare reads; " + expected;
    case measurement_read_errc::not_a_regular_file:
      return name + iteragpu::describe(read_error::not_a_regular_file, "") + "; " + expected;
    case measurement_read_errc::unreadable:
      return name + " cannot be read; " + expected;
    default:
      return name + " " + detail::describe_text(e);
  }
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::median_estimate& e) {
  boost::json::object o{{"count", e.count}, {"median", e.median}};
  if (e.ci) {
    o["median_ci"] = {{"lower", e.ci->lower}, {"upper", e.ci->upper}};
  } else {
    o["median_ci"] = nullptr;
  }
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const compared_file& f) {
  const auto& c = f.run.configuration;
  boost::json::object o{{"file", f.name},
                        {"schema_version", f.run.schema_version},
                        {"device", c.device},
                        {"batch", c.batch},
                        {"context", c.context},
                        {"width", c.width},
                        {"dtype", c.dtype},
                        {"warmup", c.warmup},
                        {"repeats", c.repeats ? boost::json::value(*c.repeats) : boost::json::value("auto")},
                        {"warm_forward_rows", f.run.warm_repeats()},
                        {"statistics", f.run.statistics_recorded ? "recorded" : "computed_from_rows"},
                        {"repeats_with_gpu_state", optional_count_json(f.run.repeats_with_gpu_state)},
                        {"repeats_under_throttling", optional_count_json(f.run.repeats_under_throttling)}};
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::time_comparison& t) {
  return {{"verdict", name_of(t.verdict)},
          {"reason", describe(t)},
          {"relative_change",
           t.relative_change ? boost::json::value(*t.relative_change) : boost::json::value(nullptr)},
          {"a", to_json(t.a)},
          {"b", to_json(t.b)}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::memory_comparison& m) {
  boost::json::array fields;
  for (const auto name : memory::prediction::byte_field_names) {
    fields.emplace_back(name);
  }
  boost::json::array differences;
  for (const auto& row : m.different_rows) {
    boost::json::array changes;
    for (const auto& change : row.fields) {
      const auto difference = change.difference();
      changes.push_back({{"field", memory::prediction::byte_field_names[change.field]},
                         {"a", change.a},
                         {"b", change.b},
                         {"difference", difference ? boost::json::value(*difference) : boost::json::value(nullptr)}});
    }
    differences.push_back({{"phase", name_of(row.phase)},
                           {"repeat", row.repeat ? boost::json::value(*row.repeat) : boost::json::value(nullptr)},
                           {"fields", std::move(changes)}});
  }
  return {{"verdict", m.same() ? "SAME" : "DIFFERENT"},
          {"fields", std::move(fields)},
          {"rows_compared", m.rows_compared},
          {"rows_different", m.different_rows.size()},
          {"rows_only_in_a", m.rows_only_in_a},
          {"rows_only_in_b", m.rows_only_in_b},
          {"differences", std::move(differences)}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::comparison& c, const compared_file& a,
                                                          const compared_file& b) {
  boost::json::object o;
  o["kind"] = "compare";
  o["schema_version"] = compare_schema_version;
  o["a"] = to_json(a);
  o["b"] = to_json(b);
  boost::json::array settings;
  for (const auto& s : c.configuration) {
    settings.push_back({{"setting", s.name}, {"a", s.a}, {"b", s.b}});
  }
  o["configuration"] = {{"same", c.configuration.empty()}, {"differences", std::move(settings)}};
  boost::json::array facts;
  bool environment_same = true;
  for (const auto& f : c.environment) {
    facts.push_back({{"fact", f.name},
                     {"a", optional_text_json(f.a)},
                     {"b", optional_text_json(f.b)},
                     {"status", name_of(f.status)}});
    environment_same = environment_same && f.status != memory::fact_status::different;
  }
  o["environment"] = {{"same", environment_same}, {"facts", std::move(facts)}};
  o["memory"] = to_json(c.memory);
  o["time"] = {{"phase", "warm_forward"},
               {"rule", memory::time_rule},
               {"tolerance", c.gpu_seconds.tolerance},
               {"verdict_from", "gpu_seconds"},
               {"gpu_seconds", to_json(c.gpu_seconds)},
               {"seconds", to_json(c.seconds)}};
  o["verdict"] = memory::verdict_line(c);
  return o;
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE std::string median_text(const memory::median_estimate& e) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(3) << e.median << " s";
  if (e.ci) {
    out << " [" << e.ci->lower << ", " << e.ci->upper << "]";
  } else {
    out << " [no interval]";
  }
  out << " n=" << e.count;
  return out.str();
}

[[nodiscard]] ITERAGPU_INLINE std::string describe_file(const compared_file& f) {
  const auto& c = f.run.configuration;
  std::string text = escaped(f.name) + ": schema " + to_decimal_string(static_cast<std::uint64_t>(f.run.schema_version)) +
                     ", " + to_decimal_string(c.batch) + " x " + to_decimal_string(c.context) + " x " +
                     to_decimal_string(c.width) + " " + escaped(c.dtype) + " on " + escaped(c.device) + ", warmup " +
                     to_decimal_string(c.warmup) + ", repeats " + (c.repeats ? to_decimal_string(*c.repeats) : std::string("auto")) + " (" +
                     to_decimal_string(f.run.warm_repeats()) + " warm_forward rows), statistics " +
                     (f.run.statistics_recorded ? "as recorded" : "computed from the rows");
  if (f.run.repeats_with_gpu_state && *f.run.repeats_with_gpu_state > 0) {
    text += "; " + to_decimal_string(f.run.repeats_under_throttling.value_or(0)) + " of " +
            to_decimal_string(*f.run.repeats_with_gpu_state) + " repeats under a throttle reason other than gpu_idle";
  }
  return text;
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

ITERAGPU_INLINE void write_text(std::ostream& out, const memory::comparison& c, const compared_file& a, const compared_file& b) {
  constexpr std::size_t shown_rows = 10;
  out << "A: " << detail::describe_file(a) << '\n' << "B: " << detail::describe_file(b) << '\n';
  if (c.configuration.empty()) {
    out << "configuration: same\n";
  } else {
    out << "configuration differs:";
    for (const auto& s : c.configuration) {
      out << ' ' << s.name << ' ' << escaped(s.a) << " (A) / " << escaped(s.b) << " (B);";
    }
    out << '\n';
  }
  out << "environment:\n";
  for (const auto& f : c.environment) {
    const auto shown = [](const std::optional<std::string>& v) { return v ? escaped(*v) : std::string("-"); };
    out << "  " << std::left << std::setw(12) << f.name << std::setw(28) << shown(f.a) << std::setw(28) << shown(f.b)
        << std::right << name_of(f.status) << '\n';
  }
  out << "memory (the six allocator byte fields of every phase row, exact): " << memory::memory_summary(c.memory) << '\n';
  for (std::size_t i = 0; i < c.memory.different_rows.size() && i < shown_rows; ++i) {
    const auto& row = c.memory.different_rows[i];
    out << "  " << memory::row_name(row.phase, row.repeat) << ':';
    for (const auto& change : row.fields) {
      out << ' ' << change.describe() << ';';
    }
    out << '\n';
  }
  if (c.memory.different_rows.size() > shown_rows) {
    out << "  ... and " << c.memory.different_rows.size() - shown_rows << " more rows (see --json)\n";
  }
  out << "time of warm_forward, B against A (tolerance " << memory::signed_percent(c.gpu_seconds.tolerance).substr(1)
      << "):\n  rule: " << memory::time_rule << '\n';
  for (const auto& [label, t] : {std::pair{"gpu_seconds", &c.gpu_seconds}, std::pair{"seconds    ", &c.seconds}}) {
    out << "  " << label << ": A " << detail::median_text(t->a) << "; B " << detail::median_text(t->b) << ": "
        << name_of(t->verdict) << " (" << describe(*t) << ")\n";
  }
  out << "verdict: " << memory::verdict_line(c) << '\n';
}

}  // namespace iteragpu::report

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_text_json(const std::optional<std::string>& v) {
  return v ? boost::json::value(boost::json::string(*v)) : boost::json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_count_json(const std::optional<std::size_t>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_COMPARE_IPP
