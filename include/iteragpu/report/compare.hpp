#ifndef ITERAGPU_REPORT_COMPARE_HPP
#define ITERAGPU_REPORT_COMPARE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/compare.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/report/json_keys.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Measurement files read for `compare` (schema 1 and 2 of
/// report/measurement.hpp), and the comparison as JSON and as text.
namespace iteragpu::report {

/// The schema_version of compare's JSON (data/schema/compare.schema.json).
inline constexpr std::int64_t compare_schema_version = 1;

/// The largest measurement file compare reads.
inline constexpr std::size_t measurement_file_limit = std::size_t{16} << 20U;

/// What a file given to compare must be, as messages say it.
inline constexpr std::string_view expected_measurement =
    "expected a measurement, the JSON file mesure_memoire measure --output writes (schema_version 1 or 2)";

/// The other outputs of the two programs, named when one is given to compare.
enum class other_output_kind : std::uint8_t {
  plan,         ///< the prediction `mesure_memoire plan --json` prints
  estimate,     ///< the weight estimate `mesure_memoire estimate --json` prints
  quote,        ///< the package quote `calcul_forfaits --json` prints
  environment,  ///< the report `mesure_memoire environment` prints
};

/// What is wrong inside a measurement document.
enum class measurement_field_errc : std::uint8_t {
  missing,                  ///< the object at `path` has no `key` (expected)
  wrong_value,              ///< `path` holds `found`, not what `expected` says
  wrong_row,                ///< row `path` is `phase` with repeat `found`, not (row_phase, row_repeat)
  too_few_rows,             ///< phases has `count` rows, no warm_forward row among them
  count_mismatch,           ///< `path`.count is `count` but phases has `rows` warm_forward rows
  interval_without_median,  ///< the interval at `path` does not hold its median
  throttled_above_state,    ///< more repeats under throttling than repeats with a GPU state
};

/// What is wrong inside a measurement document, and where; the members
/// that a kind names carry its data, the others keep their defaults.
struct measurement_field_error {
  measurement_field_errc kind{measurement_field_errc::missing};  ///< what is wrong
  std::string path{};               ///< where: "phases[2]", "configuration.batch"; empty for the top level
  std::string key{};                ///< missing: the key absent
  std::string_view expected{};      ///< missing, wrong_value: what is accepted there (a literal of this header)
  std::string found{"null"};        ///< wrong_value: the value; wrong_row: the row's repeat (as JSON text)
  std::string phase{};              ///< wrong_row: the row's phase, as written
  phase_kind row_phase{phase_kind::model_load};  ///< wrong_row: the phase expected at that index
  std::optional<std::uint64_t> row_repeat{};     ///< wrong_row: the repeat expected at that index
  std::uint64_t count{0};           ///< too_few_rows: the rows; count_mismatch: the count written
  std::uint64_t rows{0};            ///< count_mismatch: the warm_forward rows
};

/// Why a measurement was not read for compare.
enum class measurement_read_errc : std::uint8_t {
  does_not_exist,          ///< no such file
  folder,                  ///< the path names a folder
  too_large,               ///< past measurement_file_limit
  not_a_regular_file,      ///< a FIFO, a device, a socket
  unreadable,              ///< it cannot be opened or read
  empty,                   ///< no text but white space
  not_json,                ///< malformed JSON (json, offset, size)
  duplicate_key,           ///< a key twice in one object (duplicate: its JSON pointer)
  torchscript,             ///< a measurement of a TorchScript module
  top_level,               ///< the top level is not an object (found)
  other_output,            ///< another output of the programs (other)
  no_schema_version,       ///< no schema_version
  unknown_schema_version,  ///< schema_version is not 1 or 2 (found)
  bad_field,               ///< a field inside the document (field)
};

/// The call that refused a measurement, which frames the words: the
/// document alone, its text, or the file named.
enum class measurement_read_stage : std::uint8_t {
  document,  ///< measurement_from_json()
  text,      ///< measurement_from_text()
  file,      ///< read_measurement()
};

/// Why a measurement was not read for compare; the members that a kind
/// names carry its data, the others keep their defaults.
struct measurement_read_error {
  measurement_read_errc kind{measurement_read_errc::bad_field};          ///< what is wrong
  measurement_read_stage stage{measurement_read_stage::document};       ///< the call that refused it
  std::string file{};                   ///< stage file: the path as given
  std::error_code json{};               ///< not_json: Boost.JSON's reason
  std::size_t offset{0};                ///< not_json: the bytes read when parsing stopped
  std::size_t size{0};                  ///< not_json: the text's bytes
  std::string duplicate{};              ///< duplicate_key: the JSON pointer of the key given twice
  std::string found{"null"};            ///< top_level, unknown_schema_version: the value (as JSON text)
  other_output_kind other{other_output_kind::plan};  ///< other_output: which
  measurement_field_error field{};      ///< bad_field: what and where
};

/// A measurement document, read for compare. The error says where in the
/// document and what was expected there (describe()).
[[nodiscard]] result<memory::compared_run, measurement_read_error> measurement_from_json(
    const boost::json::value& document);

/// The text of a document, parsed: the error says where the JSON breaks (describe()).
[[nodiscard]] result<memory::compared_run, measurement_read_error> measurement_from_text(std::string_view text);

/// The file `path`, read and checked. The error names the file, as given,
/// and says what was expected (describe()).
[[nodiscard]] result<memory::compared_run, measurement_read_error> read_measurement(
    const std::filesystem::path& path);

/// What is wrong inside a document, in a sentence that names the place and
/// what is accepted there.
[[nodiscard]] std::string describe(const measurement_field_error& e);

/// The program and output an other_output_kind names.
[[nodiscard]] constexpr std::string_view name_of(other_output_kind k) noexcept {
  switch (k) {
    case other_output_kind::plan:
      return "the prediction mesure_memoire plan --json prints";
    case other_output_kind::estimate:
      return "the weight estimate mesure_memoire estimate --json prints";
    case other_output_kind::quote:
      return "the package quote calcul_forfaits --json prints";
    case other_output_kind::environment:
      return "the report mesure_memoire environment prints";
  }
  return "another output";
}

namespace detail {

// The words of a document's refusal, as measurement_from_json() frames them.
[[nodiscard]] std::string describe_document(const measurement_read_error& e);

// The words of a text's refusal, as measurement_from_text() frames them.
[[nodiscard]] std::string describe_text(const measurement_read_error& e);

}  // namespace detail

/// Why a measurement was not read, in one line: for read_measurement() it
/// names the file as given and says what was expected.
[[nodiscard]] std::string describe(const measurement_read_error& e);

// ---------------------------------------------------------------------------
// Rendering

/// What the file says of itself, shown beside the comparison.
struct compared_file {
  std::string name;  ///< the file's name, without its folder
  memory::compared_run run;  ///< the measurement, as read
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

/// The whole comparison, as `mesure_memoire compare --json` prints it (data/schema/compare.schema.json).
[[nodiscard]] boost::json::object to_json(const memory::comparison& c, const compared_file& a,
                                          const compared_file& b);

namespace detail {

// "3.000e-05 s [2.991e-05, 3.006e-05] n=10", or "... [no interval] n=3".
[[nodiscard]] std::string median_text(const memory::median_estimate& e);

[[nodiscard]] std::string describe_file(const compared_file& f);

}  // namespace detail

/// The comparison for a person. At most ten differing rows are listed (a
/// run of many repeats repeats one pattern); the JSON has them all.
void write_text(std::ostream& out, const memory::comparison& c, const compared_file& a, const compared_file& b);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE)
#include "iteragpu/report/impl/compare.ipp"
#endif

#endif  // ITERAGPU_REPORT_COMPARE_HPP
