#ifndef ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
#define ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>

#include <boost/json/fwd.hpp>

#include "iteragpu/error_code.hpp"
#include "iteragpu/memory/compare.hpp"
#include "iteragpu/memory/files/detail/conversion.hpp"
#include "iteragpu/memory/measured_need.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/one_of.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The one reader of a measurement file (data/schema/measurement.schema.json,
/// schema_version 2, and measurement-v1.schema.json): the whole document,
/// checked, into a memory::measured_run. The comparison of two measurements
/// reads it, the sweep derives a point's figures from it, and the package
/// search its memory need
/// (need_of_measurement() below, measured_need.hpp's one definition). Errors
/// carry the place, the key and the value found; the words are
/// report/compare.hpp's describe().
namespace iteragpu::memory {

/// The largest measurement file read_measurement() reads.
inline constexpr std::size_t measurement_file_limit = std::size_t{16 * mebibyte};

/// The other outputs of the two programs, recognised when one is given
/// where a measurement is expected.
enum class other_output_kind : std::uint8_t {
  plan,         ///< a plan's JSON ("kind": "plan"): the prediction
  estimate,     ///< a weight estimate's JSON
  quote,        ///< a package quote's JSON
  environment,  ///< an environment report's JSON
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

/// missing: the key absent, and what is accepted there.
struct missing_key {
  std::string key;            ///< the key
  std::string_view expected;  ///< what is accepted there (a literal of this reader)
  /// Equal when both members are.
  friend bool operator==(const missing_key&, const missing_key&) = default;
};

/// wrong_value: the value found, and what is accepted there.
struct rejected_value {
  std::string found;          ///< the value, as JSON text
  std::string_view expected;  ///< what is accepted there (a literal of this reader)
  /// Equal when both members are.
  friend bool operator==(const rejected_value&, const rejected_value&) = default;
};

/// wrong_row: the row as written, and the row expected at its index.
struct misplaced_row {
  std::string phase;                                  ///< the row's phase, as written
  std::string repeat;                                 ///< the row's repeat, as JSON text
  phase_kind expected_phase{phase_kind::model_load};  ///< the phase expected at that index
  std::optional<std::uint64_t> expected_repeat{};     ///< the repeat expected at that index
  friend bool operator==(const misplaced_row&, const misplaced_row&) = default;
};

/// too_few_rows: the rows of phases.
struct row_count {
  std::uint64_t rows{0};  ///< how many
  /// Equal when the counts are.
  friend bool operator==(const row_count&, const row_count&) = default;
};

/// count_mismatch: the count a series writes and the warm_forward rows.
struct count_and_rows {
  std::uint64_t count{0};  ///< the series' count
  std::uint64_t rows{0};   ///< the warm_forward rows
  /// Equal when both members are.
  friend bool operator==(const count_and_rows&, const count_and_rows&) = default;
};

/// What a measurement_field_error carries beyond its code and place, one
/// alternative per shape: missing_key (missing), rejected_value
/// (wrong_value), misplaced_row (wrong_row), row_count (too_few_rows),
/// count_and_rows (count_mismatch), nothing (std::monostate) for
/// interval_without_median and throttled_above_state.
using measurement_field_data =
    one_of<std::monostate, missing_key, rejected_value, misplaced_row, row_count, count_and_rows>;

/// What is wrong inside a measurement document, where, and in `what` the
/// data that kind names (measurement_field_data says which).
struct measurement_field_error {
  measurement_field_errc code{measurement_field_errc::missing};  ///< what is wrong
  std::string path{};             ///< where: "phases[2]", "configuration.batch"; empty for the top level
  measurement_field_data what{};  ///< the data the code names
  friend bool operator==(const measurement_field_error&, const measurement_field_error&) = default;
};

/// Why a measurement was not read.
enum class measurement_read_errc : std::uint8_t {
  does_not_exist,          ///< no such file
  folder,                  ///< the path names a folder
  too_large,               ///< past measurement_file_limit
  not_a_regular_file,      ///< a FIFO, a device, a socket
  unreadable,              ///< it cannot be opened or read
  empty,                   ///< no text but white space
  not_json,                ///< malformed JSON (parse_stop)
  duplicate_key,           ///< a key twice in one object (repeated_key)
  torchscript,             ///< a measurement of a TorchScript module
  top_level,               ///< the top level is not an object (found_value)
  other_output,            ///< another output of the programs (other_output_kind)
  no_schema_version,       ///< no schema_version
  unknown_schema_version,  ///< schema_version is not 1 or 2 (found_value)
  bad_field,               ///< a field inside the document (measurement_field_error)
};

/// The call that refused a measurement, which frames the words: the
/// document alone, its text, or the file named.
enum class measurement_read_stage : std::uint8_t {
  document,  ///< measurement_from_json()
  text,      ///< measurement_from_text()
  file,      ///< read_measurement()
};

/// not_json: where and why Boost.JSON's parser stopped.
struct parse_stop {
  std::error_code reason{};  ///< Boost.JSON's
  std::size_t offset{0};     ///< the bytes read when parsing stopped
  std::size_t size{0};       ///< the text's bytes
  friend bool operator==(const parse_stop&, const parse_stop&) = default;
};

/// duplicate_key: the key given twice in one object.
struct repeated_key {
  std::string pointer;  ///< its JSON Pointer (RFC 6901)
  /// Equal when the pointers are.
  friend bool operator==(const repeated_key&, const repeated_key&) = default;
};

/// top_level, unknown_schema_version: the value found in place of the one expected.
struct found_value {
  std::string json;  ///< the value, as JSON text
  /// Equal when the texts are.
  friend bool operator==(const found_value&, const found_value&) = default;
};

/// What a measurement_read_error carries beyond its code, one alternative
/// per shape: parse_stop (not_json), repeated_key (duplicate_key),
/// found_value (top_level, unknown_schema_version), other_output_kind
/// (other_output), measurement_field_error (bad_field), and nothing
/// (std::monostate) for the other codes.
using measurement_read_data =
    one_of<std::monostate, parse_stop, repeated_key, found_value, other_output_kind, measurement_field_error>;

/// Why a measurement was not read: the kind, the call that refused it, the
/// file (stage file) and the data of that kind, in `what`
/// (measurement_read_data names which alternative each code holds; the
/// readers below build no other pairing).
struct measurement_read_error {
  measurement_read_errc code{measurement_read_errc::bad_field};    ///< what is wrong
  measurement_read_stage stage{measurement_read_stage::document};  ///< the call that refused it
  std::string file{};                                              ///< stage file: the path as given; empty otherwise
  measurement_read_data what{};                                    ///< the data the code names
  friend bool operator==(const measurement_read_error&, const measurement_read_error&) = default;
};

/// The kind's name, as written above; the message of its std::error_code.
[[nodiscard]] constexpr std::string_view name_of(measurement_read_errc kind) noexcept {
  switch (kind) {
    case measurement_read_errc::does_not_exist:
      return "does_not_exist";
    case measurement_read_errc::folder:
      return "folder";
    case measurement_read_errc::too_large:
      return "too_large";
    case measurement_read_errc::not_a_regular_file:
      return "not_a_regular_file";
    case measurement_read_errc::unreadable:
      return "unreadable";
    case measurement_read_errc::empty:
      return "empty";
    case measurement_read_errc::not_json:
      return "not_json";
    case measurement_read_errc::duplicate_key:
      return "duplicate_key";
    case measurement_read_errc::torchscript:
      return "torchscript";
    case measurement_read_errc::top_level:
      return "top_level";
    case measurement_read_errc::other_output:
      return "other_output";
    case measurement_read_errc::no_schema_version:
      return "no_schema_version";
    case measurement_read_errc::unknown_schema_version:
      return "unknown_schema_version";
    case measurement_read_errc::bad_field:
      return "bad_field";
  }
  return "unknown";
}

/// The name of the std::error_category of measurement_read_errc (error_code.hpp).
[[nodiscard]] constexpr const char* failure_category_name(measurement_read_errc /*kind*/) noexcept {
  return "iteragpu.measurement";
}

/// A JSON integer from 0 to 2^64 - 1 as a byte count (Boost.JSON keeps
/// those past 2^63 - 1 as uint64); nothing for a negative number, a
/// fraction, an exponent or a value of another kind.
[[nodiscard]] std::optional<std::uint64_t> json_byte_count(const boost::json::value& v) noexcept;

/// A measurement document, read whole: an object with schema_version 1 or
/// 2; its configuration (with the synthetic network's shape, unless the
/// document measures the user's own module: it has a `workload`); its environment (an object; the facts a run
/// compares are read where they are there); its phase rows in the
/// protocol's order (model_load, inputs, cold_forward, warmup, then
/// warm_forward 0, 1, ...), each with its phase, repeat, seconds,
/// gpu_seconds and six byte counts, and in schema 2 the device's used
/// memory at the row's baseline and end (absent or null: not read); in
/// schema 2 its statistics, whose counts must match the rows (schema 1: the
/// statistics are computed from the rows). The first problem found is the
/// error, with its place.
[[nodiscard]] result<measured_run, measurement_read_error> measurement_from_json(const boost::json::value& document);

/// The text of a document, parsed (malformed JSON, a key given twice and
/// the measurement of a TorchScript module are refused), then read by
/// measurement_from_json().
[[nodiscard]] result<measured_run, measurement_read_error> measurement_from_text(std::string_view text);

/// The file `path` (at most measurement_file_limit bytes, a regular file),
/// read by measurement_from_text(). The error keeps the path as given.
[[nodiscard]] result<measured_run, measurement_read_error> read_measurement(const std::filesystem::path& path);

/// The largest peak_reserved_bytes of the rows (0 without rows).
[[nodiscard]] std::uint64_t peak_reserved_bytes(std::span<const phase_row> rows) noexcept;

/// The memory need of a measurement as read: the largest peak reserved of
/// its rows plus the memory outside the allocator of every device sample
/// the file records (measured_need.hpp; a schema-1 file records none).
[[nodiscard]] result<measured_need, measured_need_errc> need_of_measurement(const measured_run& run);

/// Boost.JSON's conversion, found by argument-dependent lookup:
/// `boost::json::try_value_to<memory::measured_run>(document)` reads
/// through measurement_from_json(), and a refusal is the kind's
/// to_error_code() (the place and value are what measurement_from_json()
/// adds). The caller includes `<boost/json/value_to.hpp>`.
template <class Value>
  requires std::same_as<Value, boost::json::value>
[[nodiscard]] auto tag_invoke(const boost::json::try_value_to_tag<measured_run>& /*tag*/, const Value& document) ->
    typename boost::json::result_for<measured_run, Value>::type {
  return detail::conversion_result<Value>(measurement_from_json(document), &measurement_read_error::code);
}

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/memory/files/impl/measurement_file.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
