#ifndef ITERAGPU_SWEEP_FILES_RECORD_HPP
#define ITERAGPU_SWEEP_FILES_RECORD_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/memory/measured_need.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The sweep's files as JSON (Boost.JSON): a point's record (written and
/// read back), its prediction file, the figures of a `measure` result file
/// and of `environment`'s output. One reader and one writer per file kind.
namespace iteragpu::sweep::files {

/// Boost.JSON, as this namespace names it.
namespace json = boost::json;

// ---- reading JSON values ------------------------------------------------------

/// A non-negative JSON integer (stored signed or unsigned), as
/// memory::json_byte_count() reads it; nothing for a null pointer, another
/// type or a negative number.
[[nodiscard]] std::optional<std::uint64_t> as_u64(const json::value* v);

/// Any JSON number as a double; nothing for a null pointer or another type.
[[nodiscard]] std::optional<double> as_double(const json::value* v);

/// A JSON string; nothing for a null pointer or another type.
[[nodiscard]] std::optional<std::string> as_string(const json::value* v);

/// The member `key` of an object; nullptr when `v` is null, not an object
/// or has no such member, so that calls chain through missing levels.
[[nodiscard]] const json::value* member(const json::value* v, std::string_view key);

/// The value, or JSON null for nothing.
[[nodiscard]] json::value optional_value(const std::optional<std::uint64_t>& v);
/// The value, or JSON null for nothing.
[[nodiscard]] json::value optional_value(const std::optional<double>& v);
/// The value, or JSON null for nothing.
[[nodiscard]] json::value optional_value(const std::optional<std::string>& v);
/// The value, or JSON null for nothing.
[[nodiscard]] json::value optional_value(const std::optional<int>& v);

/// The largest JSON file the sweep reads, in bytes (64 MiB).
inline constexpr std::size_t json_file_limit = std::size_t{64 * mebibyte};

/// Why a JSON file of the sweep cannot be read (see json_file_error).
enum class json_file_errc {
  unreadable,    ///< read_file_within() refused it (`read` says why)
  not_json,      ///< Boost.JSON refused it (`detail`: its message)
  duplicate_key  ///< a key is given twice in one object (`detail`: its JSON pointer)
};

/// A JSON file of the sweep that cannot be read: why, the file, and what
/// the reader said. Words: report/sweep_errors.hpp.
struct json_file_error {
  json_file_errc code{json_file_errc::unreadable};  ///< why
  std::filesystem::path file;                       ///< the file, as given
  read_errc read{read_errc::cannot_open};           ///< unreadable: the reason
  std::string detail;  ///< not_json: the parser's message; duplicate_key: the key's JSON pointer
};

/// A JSON document from a file of at most json_file_limit bytes; the error
/// says that it is larger, cannot be read, is not JSON, or gives a key
/// twice in one object.
[[nodiscard]] result<json::value, json_file_error> read_json(const std::filesystem::path& file);

// ---- measurement files (schema 1, and 2 with statistics) --------------------------

/// Why a `measure` result gives no figures: memory::measurement_from_json()
/// refused it (the one reader of a measurement file, which the comparison
/// of two measurements and a memory need read from a measurement use too).
using measurement_error = memory::measurement_read_error;

/// The figures of a measurement, derived from the file as read: peaks over
/// every row, the memory outside the allocator (memory_outside_allocator(),
/// the one definition), the warm pass's median times with their intervals
/// (from the file's statistics, or computed from its rows for schema 1),
/// the sum of the phases' seconds, and the GPU's name and memory.
[[nodiscard]] sweep::measured_figures figures_of(const memory::measured_run& run);

/// The figures of a `measure` result: measurement_from_json(), then
/// figures_of(). The error is the reader's: what is wrong and where.
[[nodiscard]] result<sweep::measured_figures, measurement_error> measured_from(const json::value& doc);

/// A `measure` result file that gives no figures: it cannot be read
/// (`file`), or it can and gives none (`figures`).
struct point_measurement_error {
  std::optional<json_file_error> file;  ///< why it cannot be read; nothing when it was read
  measurement_error figures{};          ///< why it gives no figures, once read
};

/// The figures of the `measure` result file `file` (read_json(), then
/// measured_from()); the error says why it cannot be read or used.
[[nodiscard]] result<sweep::measured_figures, point_measurement_error> read_measurement(
    const std::filesystem::path& file);

// ---- `environment` output ---------------------------------------------------------

/// A device whose free memory `environment` does not report: the reason
/// its output gives, when it gives one.
struct device_reading_error {
  std::optional<std::string> reason;  ///< as `environment` wrote it; nothing: no reason given
};

/// The device as an environment report's JSON gives it (its "device"
/// object): its name, free and total memory. Without its free memory, the error carries the reason the
/// output gives, if any.
[[nodiscard]] result<sweep::device_reading, device_reading_error> device_from(const json::value& doc);

// ---- records ----------------------------------------------------------------------

/// The schema_version of the record and prediction files; record_from()
/// reads this version only.
inline constexpr std::int64_t record_schema_version = 1;

/// A point as records write it: index, batch, context, width, dtype, warmup,
/// and repeats (a count or "auto").
[[nodiscard]] json::object point_json(const sweep::sweep_point& p);

/// A timing summary as records write it, `{median, lower, upper}` (null for
/// an end it lacks); null for nothing.
[[nodiscard]] json::value timing_json(const std::optional<sweep::timing_summary>& t);

/// A timing summary as timing_json() writes it, `{median, lower, upper}`;
/// nothing when there is no numeric median.
[[nodiscard]] std::optional<sweep::timing_summary> timing_from_record(const json::value* t);

/// The workspaces as records write them: `cublas_bytes` and `cublaslt_bytes`.
[[nodiscard]] json::object workspace_json(const memory::prediction::blas_workspaces& w);

/// A record file's JSON: every field of `r` but the prediction's rows (null
/// where it has nothing), the schema version, and the names of the point's
/// files in a plan of `plan_size` points (the measurement's only for a
/// measured point, the prediction's only for a predicted one).
[[nodiscard]] json::object record_json(const sweep::point_record& r, std::size_t plan_size);

/// Why a record file is refused (see record_error).
enum class record_errc {
  invalid_field,  ///< the field `field` is missing or invalid
  other_point     ///< its point is not the point `expected` of the plan
};

/// A record file that is refused: why, the field at fault, or the point of
/// the plan it should hold. Words: report/sweep_errors.hpp.
struct record_error {
  record_errc code{record_errc::invalid_field};  ///< why
  std::string field;                             ///< invalid_field: the field, as the words name it
  sweep::sweep_point expected;                   ///< other_point: the point of the plan
};

namespace detail {

[[nodiscard]] bool same_point(const json::value* p, const sweep::sweep_point& expected);

[[nodiscard]] inline unexpected<record_error> missing(std::string_view what) {
  return unexpected{record_error{record_errc::invalid_field, std::string(what), {}}};
}

[[nodiscard]] bool present(const json::value* v) noexcept;

[[nodiscard]] result<std::optional<sweep::point_prediction>, record_error> prediction_from(const json::value* f);

[[nodiscard]] result<std::optional<sweep::measured_figures>, record_error> measured_from_record(const json::value* m);

// An exit code or a signal number, kept when it is a plausible one.
[[nodiscard]] std::optional<int> small_integer(const json::value* v);

[[nodiscard]] result<std::optional<sweep::process_figures>, record_error> process_from(const json::value* q);

// The fields every record has: kind, outcome and the settings of the rules.
[[nodiscard]] result<void, record_error> head_from(const json::value& doc, sweep::point_record& r);

}  // namespace detail

/// A record read back from its JSON; it must be of schema version 1 and of
/// the point `expected` of the plan. The error names the field that is
/// missing or invalid, or carries the point expected. The prediction's
/// rows are not in a record and stay empty.
[[nodiscard]] result<sweep::point_record, record_error> record_from(const json::value& doc,
                                                                    const sweep::sweep_point& expected);

/// A prediction file: the predicted phase rows of one point, labelled as a
/// prediction, with the settings that gave them and the peaks (no time is
/// predicted).
[[nodiscard]] json::object prediction_json(const sweep::point_record& r);

}  // namespace iteragpu::sweep::files

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/sweep/files/impl/record.ipp"
#endif

#endif  // ITERAGPU_SWEEP_FILES_RECORD_HPP
