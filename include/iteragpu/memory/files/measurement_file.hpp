#ifndef ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
#define ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/error_code.hpp"
#include "iteragpu/memory/files/detail/conversion.hpp"
#include "iteragpu/memory/measured_need.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The memory figures of a measurement file (`mesure_memoire measure
/// --output`, data/schema/measurement.schema.json, schema_version 2, and
/// measurement-v1.schema.json), read into a typed value from which the
/// derived figures (measured_need.hpp) are computed. Only the fields those
/// figures need are read and checked: the peak reserved of every row and,
/// in schema 2, the device's used memory beside the reserved bytes at the
/// baseline and end of every row. Errors carry the row, the key and the
/// value found; the words are report/need_input.hpp's.
namespace iteragpu::memory {

/// The memory figures of one phase row.
struct measurement_file_row {
  std::uint64_t peak_reserved_bytes{0};  ///< peak_reserved_bytes
  /// baseline_device_used_bytes with baseline_reserved_bytes; nothing when
  /// the device memory was not read (null, or a file without the key).
  std::optional<device_sample> baseline{};
  /// end_device_used_bytes with end_reserved_bytes; nothing when null.
  std::optional<device_sample> end{};
  /// Equal when every member is equal.
  friend bool operator==(const measurement_file_row&, const measurement_file_row&) = default;
};

/// A measurement file as the derived figures read it.
struct measurement_file {
  std::int64_t schema_version{2};            ///< 1 or 2
  std::vector<measurement_file_row> phases;  ///< the rows, at least one, in the file's order

  /// The largest peak_reserved_bytes of the rows.
  [[nodiscard]] std::uint64_t peak_reserved_bytes() const noexcept;

  /// Every sample of the device's used memory: each row's baseline, then its end.
  [[nodiscard]] std::vector<device_sample> device_samples() const;

  /// The memory need of the measurement (need_of_measurement()).
  [[nodiscard]] result<measured_need, measured_need_error> need() const {
    return need_of_measurement(peak_reserved_bytes(), device_samples());
  }

  /// Equal when every member is equal.
  friend bool operator==(const measurement_file&, const measurement_file&) = default;
};

/// Why a JSON value is not a measurement file.
enum class measurement_file_errc : std::uint8_t {
  not_an_object,           ///< the top level is not an object
  no_schema_version,       ///< no schema_version
  unknown_schema_version,  ///< schema_version is not 1 or 2 (value)
  no_phases,               ///< phases is missing, not an array, or empty
  row_not_an_object,       ///< phases[row] is not an object (row)
  field_missing,           ///< phases[row] has no `field` (row, field)
  field_not_bytes,         ///< phases[row].field is not an integer from 0 to 2^64 - 1 (row, field, value)
  field_not_bytes_or_null, ///< as field_not_bytes, for a device-used field that may be null (row, field, value)
};

/// Why a JSON value is not a measurement file; the members that a kind
/// names carry its data, the others keep their defaults.
struct measurement_file_error {
  measurement_file_errc kind{measurement_file_errc::not_an_object};  ///< what is wrong
  std::int64_t schema_version{0};  ///< the version read, from no_phases on (0 before)
  std::size_t row{0};              ///< the index in phases
  std::string_view field{};        ///< the key in that row (a literal of this header)
  std::string value{};             ///< the value found, as JSON text
  /// Equal when every member is equal.
  friend bool operator==(const measurement_file_error&, const measurement_file_error&) = default;
};

/// The kind's name, as written above; the message of its std::error_code.
[[nodiscard]] constexpr std::string_view name_of(measurement_file_errc kind) noexcept {
  switch (kind) {
    case measurement_file_errc::not_an_object:
      return "not_an_object";
    case measurement_file_errc::no_schema_version:
      return "no_schema_version";
    case measurement_file_errc::unknown_schema_version:
      return "unknown_schema_version";
    case measurement_file_errc::no_phases:
      return "no_phases";
    case measurement_file_errc::row_not_an_object:
      return "row_not_an_object";
    case measurement_file_errc::field_missing:
      return "field_missing";
    case measurement_file_errc::field_not_bytes:
      return "field_not_bytes";
    case measurement_file_errc::field_not_bytes_or_null:
      return "field_not_bytes_or_null";
  }
  return "unknown";
}

/// The name of the std::error_category of measurement_file_errc (error_code.hpp).
[[nodiscard]] constexpr const char* failure_category_name(measurement_file_errc /*kind*/) noexcept {
  return "iteragpu.measurement_file";
}

/// A JSON integer from 0 to 2^64 - 1 as a byte count (Boost.JSON keeps
/// those past 2^63 - 1 as uint64); nothing for a negative number, a
/// fraction, an exponent or a value of another kind.
[[nodiscard]] std::optional<std::uint64_t> json_byte_count(const boost::json::value& v) noexcept;

/// The memory figures of a measurement file, from its JSON: an object with
/// schema_version 1 or 2 and a non-empty phases array of objects, each with
/// its peak_reserved_bytes and, in schema 2, end_reserved_bytes and
/// end_device_used_bytes (null where not read); baseline_device_used_bytes
/// counts where it is there and not null, with baseline_reserved_bytes.
/// The first problem found is the error.
[[nodiscard]] result<measurement_file, measurement_file_error> read_measurement_file(
    const boost::json::value& document);

/// Boost.JSON's conversion, found by argument-dependent lookup:
/// `boost::json::try_value_to<memory::measurement_file>(document)` reads
/// through read_measurement_file(), and a refusal is the kind's
/// to_error_code() (the row, key and value are what read_measurement_file()
/// adds). The caller includes `<boost/json/value_to.hpp>`.
template <class Value>
  requires std::same_as<Value, boost::json::value>
[[nodiscard]] auto tag_invoke(const boost::json::try_value_to_tag<measurement_file>& /*tag*/, const Value& document)
    -> typename boost::json::result_for<measurement_file, Value>::type {
  return detail::conversion_result<Value>(read_measurement_file(document), &measurement_file_error::kind);
}

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE)
#include "iteragpu/memory/files/impl/measurement_file.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
