#ifndef ITERAGPU_REPORT_IMPL_COMPARE_IPP
#define ITERAGPU_REPORT_IMPL_COMPARE_IPP

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <variant>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/report/detail/data_of.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/report/compare.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

// What a JSON value is, for a message: "an array", "the string 'x'",
// "the number -5".
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

// describe_value() of a value kept as JSON text; an empty text, a reason's
// member left as built, is null.
[[nodiscard]] ITERAGPU_INLINE std::string describe_found(std::string_view text) {
  if (text.empty()) {
    return "null";
  }
  boost::system::error_code ec;
  const auto v = boost::json::parse(text, ec);
  return ec ? std::string("a JSON value") : describe_value(v);
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::measurement_field_error& e) {
  switch (e.code) {
    case memory::measurement_field_errc::missing: {
      const auto missing = detail::data_of<memory::missing_key>(e.what);
      return (e.path.empty() ? std::string("the document") : e.path) + " has no \"" + missing.key + "\"; expected " +
             std::string(missing.expected);
    }
    case memory::measurement_field_errc::wrong_value: {
      const auto value = detail::data_of<memory::rejected_value>(e.what);
      return e.path + " is " + detail::describe_found(value.found) + "; expected " + std::string(value.expected);
    }
    case memory::measurement_field_errc::wrong_row: {
      const auto row = detail::data_of<memory::misplaced_row>(e.what);
      return e.path + " is phase " + quoted_excerpt(row.phase) + " with repeat " + detail::describe_found(row.repeat) +
             "; expected the row " + row_name(row.expected_phase, row.expected_repeat) +
             " (rows in the protocol's order)";
    }
    case memory::measurement_field_errc::too_few_rows:
      return "phases has " + to_decimal_string(detail::data_of<memory::row_count>(e.what).rows) +
             " rows; expected model_load, inputs, cold_forward, warmup and at least one warm_forward row";
    case memory::measurement_field_errc::count_mismatch: {
      const auto counts = detail::data_of<memory::count_and_rows>(e.what);
      return e.path + ".count is " + to_decimal_string(counts.count) + " but phases has " +
             to_decimal_string(counts.rows) + " warm_forward rows; expected the two equal";
    }
    case memory::measurement_field_errc::interval_without_median:
      return e.path + " does not hold the median; expected lower <= median <= upper";
    case memory::measurement_field_errc::throttled_above_state:
      return "statistics.repeats_under_throttling is larger than statistics.repeats_with_gpu_state; expected at "
             "most as large";
  }
  return "a field cannot be read";
}

}  // namespace iteragpu::report

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string expected_measurement(const document_names& names) {
  return "expected " + std::string(names.measurement);
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE std::string describe_document(const memory::measurement_read_error& e,
                                                            const document_names& names) {
  const std::string expected = expected_measurement(names);
  const auto found = data_of<memory::found_value>(e.what).json;
  const std::string found_text = describe_found(found);
  switch (e.code) {
    case memory::measurement_read_errc::top_level:
      return "the top level is " + found_text + "; " + expected;
    case memory::measurement_read_errc::other_output:
      return "it is " + std::string(describe(data_of<memory::other_output_kind>(e.what), names)) + "; " + expected;
    case memory::measurement_read_errc::no_schema_version:
      return "it has no schema_version; " + expected;
    case memory::measurement_read_errc::unknown_schema_version:
      return "schema_version is " + found_text + ", not one this program reads; " + expected;
    default:
      return describe(data_of<memory::measurement_field_error>(e.what));
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string describe_text(const memory::measurement_read_error& e,
                                                        const document_names& names) {
  const std::string expected = expected_measurement(names);
  switch (e.code) {
    case memory::measurement_read_errc::empty:
      return "is empty; " + expected;
    case memory::measurement_read_errc::not_json: {
      const auto stop = data_of<memory::parse_stop>(e.what);
      return "is not JSON (" + stop.reason.message() + " at byte " + to_decimal_string(stop.offset) + " of " +
             to_decimal_string(stop.size) + "); " + expected;
    }
    case memory::measurement_read_errc::duplicate_key:
      return "is refused: " + duplicate_key_message(data_of<memory::repeated_key>(e.what).pointer) + "; " + expected +
             ", each key once";
    case memory::measurement_read_errc::torchscript:
      return "is the measurement of a TorchScript module (it has a workload); compare reads measurements of the "
             "synthetic network only";
    default:
      return "is not a measurement: " + describe_document(e, names);
  }
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::measurement_read_error& e,
                                                   const document_names& names) {
  if (e.stage == memory::measurement_read_stage::document) {
    return detail::describe_document(e, names);
  }
  if (e.stage == memory::measurement_read_stage::text) {
    return detail::describe_text(e, names);
  }
  const std::string name = quoted(e.file);
  const std::string expected = expected_measurement(names);
  switch (e.code) {
    case memory::measurement_read_errc::does_not_exist:
      return name + " does not exist; " + expected;
    case memory::measurement_read_errc::folder:
      return name + " is a folder; " + expected;
    case memory::measurement_read_errc::too_large:
      return name + " is larger than 16 MiB (" + to_decimal_string(memory::measurement_file_limit) +
             " bytes), more than compare reads; " + expected;
    case memory::measurement_read_errc::not_a_regular_file:
      return name + iteragpu::describe(read_errc::not_a_regular_file, "") + "; " + expected;
    case memory::measurement_read_errc::unreadable:
      return name + " cannot be read; " + expected;
    default:
      return name + " " + detail::describe_text(e, names);
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
          {"relative_change", t.relative_change ? boost::json::value(*t.relative_change) : boost::json::value(nullptr)},
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
  return {{"verdict", m.same() ? "SAME" : "DIFFERENT"}, {"fields", std::move(fields)},
          {"rows_compared", m.rows_compared},           {"rows_different", m.different_rows.size()},
          {"rows_only_in_a", m.rows_only_in_a},         {"rows_only_in_b", m.rows_only_in_b},
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
  // One unit for the median and its interval, microseconds below a
  // millisecond and milliseconds below a second, with four significant digits of the median.
  const double magnitude = std::fabs(e.median);
  const double scale = magnitude < 1e-3 ? 1e6 : magnitude < 1.0 ? 1e3 : 1.0;
  const std::string_view unit = magnitude < 1e-3 ? " \u00b5s" : magnitude < 1.0 ? " ms" : " s";
  const double shown = magnitude * scale;
  std::ostringstream out;
  out << std::fixed << std::setprecision(shown < 10.0 ? 3 : shown < 100.0 ? 2 : 1) << e.median * scale << unit;
  if (e.ci) {
    out << " [" << e.ci->lower * scale << ", " << e.ci->upper * scale << "]";
  } else {
    out << " [no interval]";
  }
  out << " n=" << e.count;
  return out.str();
}

[[nodiscard]] ITERAGPU_INLINE std::string describe_file(const compared_file& f) {
  const auto& c = f.run.configuration;
  std::string text =
      escaped(f.name) + ": schema " + to_decimal_string(static_cast<std::uint64_t>(f.run.schema_version)) + ", " +
      to_decimal_string(c.batch) + " x " + to_decimal_string(c.context) + " x " + to_decimal_string(c.width) + " " +
      escaped(c.dtype) + " on " + escaped(c.device) + ", warmup " + to_decimal_string(c.warmup) + ", repeats " +
      (c.repeats ? to_decimal_string(*c.repeats) : std::string("auto")) + " (" +
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

ITERAGPU_INLINE void write_text(std::ostream& out, const memory::comparison& c, const compared_file& a,
                                const compared_file& b) {
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
  out << "memory (the six allocator byte fields of every phase row, exact): " << memory::memory_summary(c.memory)
      << '\n';
  for (std::size_t i = 0; i < c.memory.different_rows.size() && i < shown_rows; ++i) {
    const auto& row = c.memory.different_rows[i];
    out << "  " << memory::row_name(row.phase, row.repeat) << ':';
    for (const auto& change : row.fields) {
      out << ' ' << change.describe() << ';';
    }
    out << '\n';
  }
  if (c.memory.different_rows.size() > shown_rows) {
    out << "  ... and " << c.memory.different_rows.size() - shown_rows << " more rows (see the JSON output)\n";
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
