#ifndef ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
#define ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

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
  [[nodiscard]] std::uint64_t peak_reserved_bytes() const noexcept {
    std::uint64_t peak = 0;
    for (const auto& row : phases) {
      peak = std::max(peak, row.peak_reserved_bytes);
    }
    return peak;
  }

  /// Every sample of the device's used memory: each row's baseline, then its end.
  [[nodiscard]] std::vector<device_sample> device_samples() const {
    std::vector<device_sample> samples;
    for (const auto& row : phases) {
      for (const auto& sample : {row.baseline, row.end}) {
        if (sample) {
          samples.push_back(*sample);
        }
      }
    }
    return samples;
  }

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
  boost::json::value value{};      ///< the value found
  /// Equal when every member is equal.
  friend bool operator==(const measurement_file_error&, const measurement_file_error&) = default;
};

/// A JSON integer from 0 to 2^64 - 1 as a byte count (Boost.JSON keeps
/// those past 2^63 - 1 as uint64); nothing for a negative number, a
/// fraction, an exponent or a value of another kind.
[[nodiscard]] inline std::optional<std::uint64_t> json_byte_count(const boost::json::value& v) noexcept {
  if (const auto* u = v.if_uint64()) {
    return *u;
  }
  if (const auto* i = v.if_int64(); i != nullptr && *i >= 0) {
    return static_cast<std::uint64_t>(*i);
  }
  return std::nullopt;
}

namespace detail::measurement_fields {

class row_reader {
 public:
  row_reader(const boost::json::object& row, std::size_t index, std::int64_t version) noexcept
      : row_(row), index_(index), version_(version) {}

  // A byte count that must be there.
  [[nodiscard]] result<std::uint64_t, measurement_file_error> bytes(std::string_view key) const {
    const auto* v = row_.if_contains(key);
    if (v == nullptr) {
      return unexpected{error(measurement_file_errc::field_missing, key, {})};
    }
    const auto b = json_byte_count(*v);
    if (!b) {
      return unexpected{error(measurement_file_errc::field_not_bytes, key, *v)};
    }
    return *b;
  }

  // A device-used count, null when not read; `required` says whether the
  // key must be there (an absent key is read as null otherwise).
  [[nodiscard]] result<std::optional<std::uint64_t>, measurement_file_error> used_bytes(std::string_view key,
                                                                                        bool required) const {
    const auto* v = row_.if_contains(key);
    if (v == nullptr) {
      if (required) {
        return unexpected{error(measurement_file_errc::field_missing, key, {})};
      }
      return std::optional<std::uint64_t>{};
    }
    if (v->is_null()) {
      return std::optional<std::uint64_t>{};
    }
    const auto b = json_byte_count(*v);
    if (!b) {
      return unexpected{error(measurement_file_errc::field_not_bytes_or_null, key, *v)};
    }
    return std::optional<std::uint64_t>{*b};
  }

  [[nodiscard]] measurement_file_error error(measurement_file_errc kind, std::string_view key,
                                             const boost::json::value& value) const {
    return measurement_file_error{kind, version_, index_, key, value};
  }

 private:
  const boost::json::object& row_;
  std::size_t index_;
  std::int64_t version_;
};

// One row; the checks in the order messages have always reported them:
// peak_reserved_bytes, then (schema 2) end_reserved_bytes,
// end_device_used_bytes, baseline_device_used_bytes and, where that one is
// a number, baseline_reserved_bytes.
[[nodiscard]] inline result<measurement_file_row, measurement_file_error> read_row(const boost::json::object& o,
                                                                                  std::size_t index,
                                                                                  std::int64_t version) {
  const row_reader r(o, index, version);
  measurement_file_row row;
  const auto peak = r.bytes("peak_reserved_bytes");
  if (!peak) {
    return unexpected{peak.error()};
  }
  row.peak_reserved_bytes = *peak;
  if (version < 2) {
    return row;
  }
  const auto end_reserved = r.bytes("end_reserved_bytes");
  if (!end_reserved) {
    return unexpected{end_reserved.error()};
  }
  const auto end_used = r.used_bytes("end_device_used_bytes", true);
  if (!end_used) {
    return unexpected{end_used.error()};
  }
  if (*end_used) {
    row.end = device_sample{**end_used, *end_reserved};
  }
  const auto baseline_used = r.used_bytes("baseline_device_used_bytes", false);
  if (!baseline_used) {
    return unexpected{baseline_used.error()};
  }
  if (*baseline_used) {
    const auto baseline_reserved = r.bytes("baseline_reserved_bytes");
    if (!baseline_reserved) {
      return unexpected{baseline_reserved.error()};
    }
    row.baseline = device_sample{**baseline_used, *baseline_reserved};
  }
  return row;
}

}  // namespace detail::measurement_fields

/// The memory figures of a measurement file, from its JSON: an object with
/// schema_version 1 or 2 and a non-empty phases array of objects, each with
/// its peak_reserved_bytes and, in schema 2, end_reserved_bytes and
/// end_device_used_bytes (null where not read); baseline_device_used_bytes
/// counts where it is there and not null, with baseline_reserved_bytes.
/// The first problem found is the error.
[[nodiscard]] inline result<measurement_file, measurement_file_error> read_measurement_file(
    const boost::json::value& document) {
  const auto* top = document.if_object();
  if (top == nullptr) {
    return unexpected{measurement_file_error{measurement_file_errc::not_an_object, 0, 0, {}, {}}};
  }
  const auto* version = top->if_contains("schema_version");
  if (version == nullptr) {
    return unexpected{measurement_file_error{measurement_file_errc::no_schema_version, 0, 0, {}, {}}};
  }
  const auto* number = version->if_int64();
  if (number == nullptr || (*number != 1 && *number != 2)) {
    return unexpected{measurement_file_error{measurement_file_errc::unknown_schema_version, 0, 0, {}, *version}};
  }
  measurement_file file{*number, {}};
  const auto* phases = top->if_contains("phases");
  const auto* rows = phases != nullptr ? phases->if_array() : nullptr;
  if (rows == nullptr || rows->empty()) {
    return unexpected{measurement_file_error{measurement_file_errc::no_phases, file.schema_version, 0, {}, {}}};
  }
  file.phases.reserve(rows->size());
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const auto* o = (*rows)[i].if_object();
    if (o == nullptr) {
      return unexpected{
          measurement_file_error{measurement_file_errc::row_not_an_object, file.schema_version, i, {}, {}}};
    }
    auto row = detail::measurement_fields::read_row(*o, i, file.schema_version);
    if (!row) {
      return unexpected{std::move(row).error()};
    }
    file.phases.push_back(*row);
  }
  return file;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_MEASUREMENT_FILE_HPP
