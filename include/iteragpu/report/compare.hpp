#ifndef ITERAGPU_REPORT_COMPARE_HPP
#define ITERAGPU_REPORT_COMPARE_HPP

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/compare.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"

/// \file
/// The words for a measurement file refused (memory/files/measurement_file.hpp
/// reads it), and the comparison of two as JSON and as text.
namespace iteragpu::report {

/// The schema_version of compare's JSON (data/schema/compare.schema.json).
inline constexpr std::int64_t compare_schema_version = 1;

/// How messages name a measurement file and the documents it may be taken
/// for. The library's words name each by its kind; a program that writes
/// them gives its own words (the command that writes each).
struct document_names {
  std::string_view measurement{"a measurement file (schema_version 1 or 2)"};  ///< after "expected "
  std::string_view plan{"the prediction of a plan"};                           ///< a plan's JSON ("kind": "plan")
  std::string_view estimate{"a weight estimate"};                              ///< an estimate's JSON
  std::string_view quote{"a package quote"};                                   ///< a quote's JSON
  std::string_view environment{"an environment report"};                       ///< an environment's JSON
  std::string_view plan_output{"a plan"};                                      ///< a plan's JSON, as a need's source
  std::string_view estimate_output{"an estimate"};            ///< an estimate's JSON, as a need's source
  std::string_view replay_output{"a replay"};                 ///< a replay's JSON ("kind": "replay")
  std::string_view extrapolation_output{"an extrapolation"};  ///< an extrapolation's JSON ("kind": "extrapolation")
  std::string_view size{"a size"};                            ///< the size at which an extrapolation's need is read
  /// How an extrapolation judges the cards at a size it did not answer (the size follows).
  std::string_view extrapolation_at{"an extrapolation that judges the cards at size"};
  /// How a replay that gives no need gives one.
  std::string_view replay_for_a_need{"a replay for the smallest capacity gives the least capacity each setting needs"};
};

/// What a file given to compare must be, as messages say it: "expected "
/// and the measurement's name.
[[nodiscard]] std::string expected_measurement(const document_names& names = {});

/// What is wrong inside a document, in a sentence that names the place and
/// what is accepted there.
[[nodiscard]] std::string describe(const memory::measurement_field_error& e);

/// The document a memory::other_output_kind names, in `names`' words.
[[nodiscard]] constexpr std::string_view describe(memory::other_output_kind k,
                                                  const document_names& names = {}) noexcept {
  switch (k) {
    case memory::other_output_kind::plan:
      return names.plan;
    case memory::other_output_kind::estimate:
      return names.estimate;
    case memory::other_output_kind::quote:
      return names.quote;
    case memory::other_output_kind::environment:
      return names.environment;
  }
  return "another output";
}

namespace detail {

// The words of a document's refusal, as measurement_from_json() frames them.
[[nodiscard]] std::string describe_document(const memory::measurement_read_error& e, const document_names& names);

// The words of a text's refusal, as measurement_from_text() frames them.
[[nodiscard]] std::string describe_text(const memory::measurement_read_error& e, const document_names& names);

}  // namespace detail

/// Why a measurement was not read, in one line: for read_measurement() it
/// names the file as given and says what was expected, the documents named
/// in `names`' words.
[[nodiscard]] std::string describe(const memory::measurement_read_error& e, const document_names& names = {});

// ---------------------------------------------------------------------------
// Rendering

/// What the file says of itself, shown beside the comparison.
struct compared_file {
  std::string name;          ///< the file's name, without its folder
  memory::measured_run run;  ///< the measurement, as read
};

/// The text, or JSON null.
[[nodiscard]] boost::json::value optional_text_json(const std::optional<std::string>& v);

/// The count, or JSON null.
[[nodiscard]] boost::json::value optional_count_json(const std::optional<std::size_t>& v);

/// {"count", "median", "median_ci": {"lower", "upper"} or null}.
[[nodiscard]] boost::json::object to_json(const memory::median_estimate& e);

/// One side of the comparison: the file's name, shape, passes and repeats.
[[nodiscard]] boost::json::object to_json(const compared_file& f);

/// The time verdict with its reason, the relative change and both medians.
[[nodiscard]] boost::json::object to_json(const memory::time_comparison& t);

/// The memory verdict, the fields compared, the counts of rows and each differing row's fields.
[[nodiscard]] boost::json::object to_json(const memory::memory_comparison& m);

/// The whole comparison, as a program's compare prints it in JSON (data/schema/compare.schema.json).
[[nodiscard]] boost::json::object to_json(const memory::comparison& c, const compared_file& a, const compared_file& b);

namespace detail {

// "3.000e-05 s [2.991e-05, 3.006e-05] n=10", or "... [no interval] n=3".
[[nodiscard]] std::string median_text(const memory::median_estimate& e);

[[nodiscard]] std::string describe_file(const compared_file& f);

}  // namespace detail

/// The comparison for a person. At most ten differing rows are listed (a
/// run of many repeats repeats one pattern); the JSON has them all.
void write_text(std::ostream& out, const memory::comparison& c, const compared_file& a, const compared_file& b);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/compare.ipp"
#endif

#endif  // ITERAGPU_REPORT_COMPARE_HPP
