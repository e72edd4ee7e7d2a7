#ifndef ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP

#include <algorithm>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"

// The bodies of the functions that <iteragpu/memory/files/measurement_file.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::uint64_t measurement_file::peak_reserved_bytes() const noexcept {
  std::uint64_t peak = 0;
  for (const auto& row : phases) {
    peak = std::max(peak, row.peak_reserved_bytes);
  }
  return peak;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<device_sample> measurement_file::device_samples() const {
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

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> json_byte_count(const boost::json::value& v) noexcept {
  if (const auto* u = v.if_uint64()) {
    return *u;
  }
  if (const auto* i = v.if_int64(); i != nullptr && *i >= 0) {
    return static_cast<std::uint64_t>(*i);
  }
  return std::nullopt;
}

}  // namespace iteragpu::memory

namespace iteragpu::memory::detail::measurement_fields {

class row_reader {
 public:
  row_reader(const boost::json::object& row, std::size_t index, std::int64_t version) noexcept
      : row_(row), index_(index), version_(version) {}

  // A byte count that must be there.
  [[nodiscard]] result<std::uint64_t, measurement_file_error> bytes(std::string_view key) const;

  // A device-used count, null when not read; `required` says whether the
  // key must be there (an absent key is read as null otherwise).
  [[nodiscard]] result<std::optional<std::uint64_t>, measurement_file_error> used_bytes(std::string_view key,
                                                                                        bool required) const;

  [[nodiscard]] measurement_file_error error(measurement_file_errc kind, std::string_view key,
                                             const boost::json::value& value) const {
    return measurement_file_error{kind, version_, index_, key, boost::json::serialize(value)};
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
[[nodiscard]] result<measurement_file_row, measurement_file_error> read_row(const boost::json::object& o,
                                                                                  std::size_t index,
                                                                                  std::int64_t version);


[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, measurement_file_error> row_reader::bytes(std::string_view key) const {
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

[[nodiscard]] ITERAGPU_INLINE result<std::optional<std::uint64_t>, measurement_file_error> row_reader::used_bytes(std::string_view key,
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

[[nodiscard]] ITERAGPU_INLINE result<measurement_file_row, measurement_file_error> read_row(const boost::json::object& o,
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

}  // namespace iteragpu::memory::detail::measurement_fields

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<measurement_file, measurement_file_error> read_measurement_file(
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
    return unexpected{measurement_file_error{measurement_file_errc::unknown_schema_version, 0, 0, {}, boost::json::serialize(*version)}};
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

#endif  // ITERAGPU_MEMORY_FILES_IMPL_MEASUREMENT_FILE_IPP
