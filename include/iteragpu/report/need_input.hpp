#ifndef ITERAGPU_REPORT_NEED_INPUT_HPP
#define ITERAGPU_REPORT_NEED_INPUT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <boost/json.hpp>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/report/json_keys.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A memory need read back from the JSON the programs print or write: the
/// estimate (`mesure_memoire estimate --json`), the plan (`mesure_memoire
/// plan --json`, recognised by "kind": "plan") and the measurement file
/// (`mesure_memoire measure --output`, schema_version 1 or 2). It lives with
/// the reports because it reads their JSON.
namespace iteragpu::report {

/// The documents a need is read from, as messages list them.
inline constexpr std::string_view need_documents_accepted =
    "the JSON of `mesure_memoire estimate --json`, `mesure_memoire plan --json` or `mesure_memoire replay --json`, "
    "or a measurement file of `mesure_memoire measure --output` (schema_version 1 or 2)";

/// Why a document gives no need: what it holds, in words (text from the
/// document escaped).
struct need_input_error {
  std::string found;  ///< what the document holds instead of a need
  /// Equal when every member is equal.
  friend bool operator==(const need_input_error&, const need_input_error&) = default;
};

namespace detail {

using need_read = result<memory_need, need_input_error>;

[[nodiscard]] inline unexpected<need_input_error> not_a_need(std::string found) {
  return unexpected{need_input_error{std::move(found)}};
}

// A JSON integer from 0 to 2^64 - 1 (Boost.JSON keeps those past 2^63 - 1
// as uint64); a negative number, a fraction or an exponent is not one.
[[nodiscard]] inline std::optional<std::uint64_t> byte_integer(const boost::json::value& v) noexcept {
  if (v.is_uint64()) {
    return v.get_uint64();
  }
  if (v.is_int64() && v.get_int64() >= 0) {
    return static_cast<std::uint64_t>(v.get_int64());
  }
  return std::nullopt;
}

// The field `key` of `o` as a byte count, or why not; `where` names the
// object in messages.
[[nodiscard]] inline result<std::uint64_t, need_input_error> byte_field(const boost::json::object& o,
                                                                        std::string_view key, std::string_view where) {
  const auto* v = o.if_contains(key);
  const std::string name = std::string(where) + std::string(key);
  if (v == nullptr) {
    return not_a_need(name + " missing");
  }
  const auto bytes = byte_integer(*v);
  if (!bytes) {
    return not_a_need(name + " " + quoted_excerpt(boost::json::serialize(*v)) +
                      ", not an integer number of bytes from 0 to " + std::string(largest_u64_text));
  }
  return *bytes;
}

// The `memory_need` object of an estimate or a plan: its bytes. The source
// says in our words which document (`what`) and which figure (`figure`),
// then quotes the source the document gives.
[[nodiscard]] inline need_read need_of_document(const boost::json::object& o, std::string_view what,
                                                std::string_view figure) {
  const auto* need = o.if_contains("memory_need");
  if (need == nullptr) {
    return not_a_need(std::string(what) + " without memory_need");
  }
  if (need->is_null()) {
    return not_a_need(std::string(what) + " whose memory_need is null (the need passes 64 bits of bytes)");
  }
  if (!need->is_object()) {
    return not_a_need(std::string(what) + " whose memory_need is not an object");
  }
  const auto bytes = byte_field(need->get_object(), "bytes", "memory_need.");
  if (!bytes) {
    return not_a_need(std::string(what) + " with " + bytes.error().found);
  }
  std::string source = std::string(what) + ": its memory_need.bytes, " + std::string(figure);
  if (const auto* said = need->get_object().if_contains("source"); said != nullptr && said->is_string()) {
    const auto& text = said->get_string();
    source += "; the file says " + quoted_excerpt(std::string_view(text.data(), text.size()), 200);
  }
  return memory_need{byte_count{*bytes}, std::move(source)};
}

// A measurement's need: its largest peak_reserved_bytes, plus, where the
// file records the device's used memory (schema 2), the memory outside the
// allocator: the largest end_device_used_bytes less that row's
// end_reserved_bytes, floored at 0 (of rows sharing the largest, the
// largest difference).
[[nodiscard]] inline need_read need_of_measurement(const boost::json::object& o, std::int64_t version) {
  const auto* phases = o.if_contains("phases");
  if (phases == nullptr || !phases->is_array() || phases->get_array().empty()) {
    return not_a_need("a measurement (schema_version " + to_decimal_string(static_cast<std::uint64_t>(version)) +
                      ") without a non-empty phases array");
  }
  const auto& rows = phases->get_array();
  std::uint64_t peak = 0;
  std::optional<std::uint64_t> used;  // the largest end_device_used_bytes
  std::uint64_t reserved_there = 0;   // that row's end_reserved_bytes
  std::uint64_t outside = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = "phases[" + to_decimal_string(i) + "].";
    if (!rows[i].is_object()) {
      return not_a_need("a measurement whose " + where.substr(0, where.size() - 1) + " is not an object");
    }
    const auto& row = rows[i].get_object();
    const auto row_peak = byte_field(row, "peak_reserved_bytes", where);
    if (!row_peak) {
      return not_a_need("a measurement with " + row_peak.error().found);
    }
    peak = std::max(peak, *row_peak);
    if (version < 2) {
      continue;
    }
    const auto row_reserved = byte_field(row, "end_reserved_bytes", where);
    if (!row_reserved) {
      return not_a_need("a measurement with " + row_reserved.error().found);
    }
    const auto* device = row.if_contains("end_device_used_bytes");
    if (device == nullptr) {
      return not_a_need("a measurement (schema_version 2) with " + where + "end_device_used_bytes missing");
    }
    if (device->is_null()) {
      continue;
    }
    const auto row_used = byte_field(row, "end_device_used_bytes", where);
    if (!row_used) {
      return not_a_need("a measurement with " + row_used.error().found + " or null");
    }
    const std::uint64_t row_outside = *row_used > *row_reserved ? *row_used - *row_reserved : 0U;
    if (!used || *row_used > *used || (*row_used == *used && row_outside > outside)) {
      used = *row_used;
      reserved_there = *row_reserved;
      outside = row_outside;
    }
  }
  const std::string head = "measurement (schema_version " + to_decimal_string(static_cast<std::uint64_t>(version)) +
                           "): the largest peak_reserved_bytes of its " + to_decimal_string(rows.size()) +
                           " rows, " + to_decimal_string(peak) + " bytes";
  if (!used) {
    return memory_need{byte_count{peak},
                       head + "; the memory outside the allocator (CUDA context, libraries) was not recorded and is "
                              "not included"};
  }
  const auto total = checked_add(peak, outside);
  if (!total) {
    return not_a_need("a measurement whose peak plus the memory outside the allocator passes 64 bits of bytes");
  }
  return memory_need{byte_count{*total},
                     head + ", plus the memory outside the allocator, " + to_decimal_string(outside) +
                         " bytes: the largest end_device_used_bytes, " + to_decimal_string(*used) +
                         ", less that row's end_reserved_bytes, " + to_decimal_string(reserved_there) +
                         ", floored at 0"};
}

}  // namespace detail

/// The need a document states or implies. An estimate is an object with
/// weight_bytes, total_gib and memory_need and no kind; a plan has "kind":
/// "plan"; a measurement has schema_version 1 or 2. Anything else, and
/// malformed JSON, is an error that says what was found.
[[nodiscard]] inline result<memory_need, need_input_error> need_from_json(std::string_view text) {
  std::error_code error;
  const boost::json::value document = boost::json::parse(boost::json::string_view(text.data(), text.size()), error);
  if (error) {
    return detail::not_a_need("not valid JSON (" + error.message() + ")");
  }
  if (const auto duplicate = first_duplicate_key(text)) {
    return detail::not_a_need(duplicate_key_message(*duplicate) + " (each key once)");
  }
  if (!document.is_object()) {
    return detail::not_a_need("JSON that is not an object");
  }
  const auto& o = document.get_object();
  if (const auto* kind = o.if_contains("kind")) {
    if (kind->is_string() && kind->get_string() == "plan") {
      return detail::need_of_document(o, "plan --json",
                                      "the predicted peak reserved plus the memory outside the allocator");
    }
    if (kind->is_string() && kind->get_string() == "replay") {
      return detail::need_of_document(o, "replay --json",
                                      "the least need of the settings replayed: a capacity under which the trace "
                                      "runs, plus the memory outside the allocator");
    }
    const std::string shown = kind->is_string() ? std::string(kind->get_string()) : boost::json::serialize(*kind);
    return detail::not_a_need("JSON of kind " + quoted_excerpt(shown));
  }
  if (const auto* version = o.if_contains("schema_version")) {
    if (version->is_int64() && (version->get_int64() == 1 || version->get_int64() == 2)) {
      return detail::need_of_measurement(o, version->get_int64());
    }
    return detail::not_a_need("a measurement of schema_version " + quoted_excerpt(boost::json::serialize(*version)));
  }
  if (o.contains("weight_bytes") && o.contains("total_gib") && o.contains("memory_need")) {
    return detail::need_of_document(o, "estimate --json", "the estimate's total (weights + reserve)");
  }
  return detail::not_a_need("a JSON object that is neither an estimate, a plan nor a measurement");
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_NEED_INPUT_HPP
