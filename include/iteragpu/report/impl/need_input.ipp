#ifndef ITERAGPU_REPORT_IMPL_NEED_INPUT_IPP
#define ITERAGPU_REPORT_IMPL_NEED_INPUT_IPP

#include <algorithm>
#include <variant>
#include <vector>

#include <boost/json.hpp>

#include "iteragpu/checked.hpp"
#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/report/detail/data_of.hpp"
#include "iteragpu/report/need_input.hpp"

// The bodies of the functions that <iteragpu/report/need_input.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE need_read need_of_document(const boost::json::object& o, std::string_view what,
                                                         std::string_view figure, std::string_view when_null) {
  const auto need = memory::read_memory_need(o);
  if (!need) {
    switch (need.error().code) {
      case memory::memory_need_errc::missing:
        return not_a_need(std::string(what) + " without memory_need");
      case memory::memory_need_errc::null:
        return not_a_need(std::string(what) + " whose memory_need is null (" + std::string(when_null) + ")");
      case memory::memory_need_errc::not_an_object:
        return not_a_need(std::string(what) + " whose memory_need is not an object");
      case memory::memory_need_errc::bytes_missing:
        return not_a_need(std::string(what) + " with memory_need.bytes missing");
      case memory::memory_need_errc::bytes_not_bytes:
        return not_a_need(std::string(what) + " with memory_need.bytes " + quoted_excerpt(need.error().value) +
                          ", not an integer number of bytes from 0 to " + std::string(largest_u64_text));
    }
    return not_a_need(std::string(what) + " whose memory_need cannot be read");
  }
  std::string source = std::string(what) + ": its memory_need.bytes, " + std::string(figure);
  if (need->source) {
    source += "; the file says " + quoted_excerpt(*need->source, 200);
  }
  return memory_need{byte_count{need->bytes}, std::move(source)};
}

[[nodiscard]] ITERAGPU_INLINE need_input_error measurement_refusal(const memory::measurement_read_error& e,
                                                                   const document_names& names) {
  if (e.code == memory::measurement_read_errc::unknown_schema_version) {
    return {"a measurement of schema_version " + quoted_excerpt(detail::data_of<memory::found_value>(e.what).json)};
  }
  return {"a measurement that cannot be read: " + describe_document(e, names)};
}

[[nodiscard]] ITERAGPU_INLINE need_read need_of_measurement(const boost::json::value& document,
                                                            const document_names& names) {
  const auto run = memory::measurement_from_json(document);
  if (!run) {
    return unexpected{measurement_refusal(run.error(), names)};
  }
  const auto need = memory::need_of_measurement(*run);
  if (!need) {
    return not_a_need("a measurement whose peak plus the memory outside the allocator passes 64 bits of bytes");
  }
  const std::string head = "measurement (schema_version " +
                           to_decimal_string(static_cast<std::uint64_t>(run->schema_version)) +
                           "): the largest peak_reserved_bytes of its " + to_decimal_string(run->phases.size()) +
                           " rows, " + to_decimal_string(need->peak_reserved_bytes) + " bytes";
  if (!need->outside_sample) {
    return memory_need{byte_count{need->bytes},
                       head + "; the memory outside the allocator (CUDA context, libraries) was not recorded and is "
                              "not included"};
  }
  return memory_need{byte_count{need->bytes},
                     head + ", plus the memory outside the allocator, " +
                         to_decimal_string(need->outside_allocator_bytes()) +
                         " bytes: the largest device used less reserved at the baseline and end of every row ("
                         "device used " +
                         to_decimal_string(need->outside_sample->device_used_bytes) + " less reserved " +
                         to_decimal_string(need->outside_sample->reserved_bytes) + "), floored at 0"};
}

/// The row of an extrapolation's `predictions` at `size` under the recorded
/// settings (`alloc_conf` ""), or null.
[[nodiscard]] ITERAGPU_INLINE const boost::json::object* recorded_row_at(const boost::json::value& p,
                                                                         std::uint64_t size) {
  const auto* row = p.if_object();
  if (row == nullptr) {
    return nullptr;
  }
  const auto* n = row->if_contains("size");
  const auto* conf = row->if_contains("alloc_conf");
  if (n == nullptr || conf == nullptr || !conf->is_string() || !conf->get_string().empty()) {
    return nullptr;
  }
  const bool at_size = (n->is_uint64() && n->get_uint64() == size) ||
                       (n->is_int64() && n->get_int64() >= 0 && static_cast<std::uint64_t>(n->get_int64()) == size);
  return at_size ? row : nullptr;
}

/// `v` as a non-negative JSON integer, or none.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> non_negative_integer(const boost::json::value* v) {
  if (v != nullptr && v->is_uint64()) {
    return v->get_uint64();
  }
  if (v != nullptr && v->is_int64() && v->get_int64() >= 0) {
    return static_cast<std::uint64_t>(v->get_int64());
  }
  return std::nullopt;
}

/// The settings of a replay's JSON that are objects (none when it has no array).
[[nodiscard]] ITERAGPU_INLINE std::vector<const boost::json::object*> replay_settings(const boost::json::object& o) {
  std::vector<const boost::json::object*> settings;
  const auto* array = o.if_contains("settings");
  if (array != nullptr && array->is_array()) {
    for (const auto& s : array->get_array()) {
      if (s.is_object()) {
        settings.push_back(&s.get_object());
      }
    }
  }
  return settings;
}

/// A string member of `o`, or none.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> string_member(const boost::json::object& o,
                                                                       std::string_view key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) {
    return std::nullopt;
  }
  return std::string(v->get_string());
}

/// Which of a replay's settings gives `need` and how to run under it, in
/// words; empty when no setting says so.
[[nodiscard]] ITERAGPU_INLINE std::string replay_setting_of(const boost::json::object& o, std::uint64_t need) {
  const auto settings = replay_settings(o);
  for (const auto* s : settings) {
    const auto* setting_need = s->if_contains("memory_need");
    const auto* bytes = setting_need != nullptr && setting_need->is_object()
                            ? setting_need->get_object().if_contains("bytes")
                            : nullptr;
    const auto conf = string_member(*s, "alloc_conf");
    if (!conf || non_negative_integer(bytes) != need) {
      continue;
    }
    const std::string which =
        settings.size() == 1 ? std::string("the one setting replayed")
                             : "the least need of the " + to_decimal_string(settings.size()) + " settings replayed";
    if (!conf->empty()) {
      return which + ", under PYTORCH_CUDA_ALLOC_CONF=" + escaped(*conf) +
             ": run with PYTORCH_CUDA_ALLOC_CONF=" + escaped(*conf);
    }
    const auto recorded = string_member(o, "recorded_alloc_conf");
    const auto* was_recorded = o.if_contains("settings_recorded");
    if (was_recorded == nullptr || !was_recorded->is_bool() || !was_recorded->get_bool() || !recorded) {
      return which + ", under the recorded settings: run with the settings the program was recorded with (the "
                     "snapshot does not record them)";
    }
    return which + ", under the recorded settings: run with " +
           (recorded->empty() ? std::string("PYTORCH_CUDA_ALLOC_CONF unset (PyTorch's defaults, as recorded)")
                              : "PYTORCH_CUDA_ALLOC_CONF=" + escaped(*recorded) + " (as recorded)");
  }
  return {};
}

/// Whether every setting of a replay's JSON ran out of memory (false when it has none).
[[nodiscard]] ITERAGPU_INLINE bool every_replay_setting_ran_out(const boost::json::object& o) {
  const auto settings = replay_settings(o);
  return !settings.empty() && std::all_of(settings.begin(), settings.end(), [](const boost::json::object* s) {
    const auto* oom = s->if_contains("oom");
    return oom != nullptr && oom->is_bool() && oom->get_bool();
  });
}

[[nodiscard]] ITERAGPU_INLINE need_read need_of_replay(const boost::json::object& o) {
  const auto* need = o.if_contains("memory_need");
  if (need != nullptr && need->is_null() && every_replay_setting_ran_out(o)) {
    return not_a_need("replay --json in which every setting replayed ran out of memory under the capacity asked, "
                      "so it gives no need; run `replay SNAPSHOT --smallest-capacity --json` for the "
                      "least capacity each setting needs, and give --fits that file");
  }
  auto read = need_of_document(o, "replay --json",
                               "the least need of the settings replayed: a capacity under which the trace runs, plus "
                               "the memory outside the allocator",
                               "every setting replayed ran out of memory, or fits no capacity; replay with "
                               "--smallest-capacity for the least capacity each setting needs");
  if (read) {
    read->setting = replay_setting_of(o, read->bytes.value);
  }
  return read;
}

[[nodiscard]] ITERAGPU_INLINE need_read need_of_extrapolation(const boost::json::object& o,
                                                              std::optional<std::uint64_t> size) {
  if (!size) {
    return not_a_need("extrapolate --json, which gives a need only at one size (expected --size N)");
  }
  const auto* predictions = o.if_contains("predictions");
  if (predictions == nullptr || !predictions->is_array()) {
    return not_a_need("extrapolate --json without a predictions array");
  }
  std::optional<std::uint64_t> peak;
  bool out_of_memory = false;
  for (const auto& p : predictions->get_array()) {
    const auto* row = recorded_row_at(p, *size);
    if (row == nullptr) {
      continue;
    }
    const auto* oom = row->if_contains("oom");
    if (oom != nullptr && oom->is_bool() && oom->get_bool()) {
      out_of_memory = true;
      continue;
    }
    const auto* upper = row->if_contains("peak_reserved_bytes_upper");
    const auto bytes = non_negative_integer(upper != nullptr ? upper : row->if_contains("peak_reserved_bytes"));
    if (!bytes) {
      return not_a_need("extrapolate --json whose prediction at size " + to_decimal_string(*size) +
                        " has no peak_reserved_bytes as an integer number of bytes");
    }
    peak = std::max(peak.value_or(0), *bytes);
  }
  if (!peak) {
    return not_a_need("extrapolate --json with no prediction at size " + to_decimal_string(*size) +
                      " under the recorded settings" + (out_of_memory ? " that does not run out of memory" : "") +
                      " (run it with --to " + to_decimal_string(*size) + ")");
  }
  const auto need = checked_add<std::uint64_t>(*peak, memory::prediction::h200_pytorch_2_11_outside_allocator.value);
  if (!need) {
    return not_a_need("extrapolate --json whose peak plus the memory outside the allocator passes 64 bits of bytes");
  }
  return memory_need{byte_count{*need},
                     "extrapolate --json at size " + to_decimal_string(*size) +
                         ": the predicted peak reserved (the "
                         "upper end of a range), " +
                         to_decimal_string(*peak) +
                         " bytes, plus the memory outside the allocator measured on the H200, " +
                         to_decimal_string(memory::prediction::h200_pytorch_2_11_outside_allocator.value) + " bytes"};
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE result<memory_need, need_input_error> need_from_json(std::string_view text,
                                                                                   std::optional<std::uint64_t> size,
                                                                                   const document_names& names) {
  std::error_code error;
  const boost::json::value document = boost::json::parse(boost::json::string_view(text.data(), text.size()), error);
  if (error) {
    return detail::not_a_need("not valid JSON (" + error.message() + ")");
  }
  const auto duplicate = first_duplicate_key(text);
  if (!duplicate) {
    return detail::not_a_need("not valid JSON (" + duplicate.error().parser.message() + ")");
  }
  if (*duplicate) {
    return detail::not_a_need(duplicate_key_message(**duplicate) + " (each key once)");
  }
  if (!document.is_object()) {
    return detail::not_a_need("JSON that is not an object");
  }
  const auto& o = document.get_object();
  const auto* kind = o.if_contains("kind");
  const bool extrapolation = kind != nullptr && kind->is_string() && kind->get_string() == "extrapolation";
  if (extrapolation) {
    return detail::need_of_extrapolation(o, size);
  }
  if (size) {
    return detail::not_a_need("a document that is not extrapolate --json, which --size does not go with");
  }
  if (kind != nullptr) {
    if (kind->is_string() && kind->get_string() == "plan") {
      return detail::need_of_document(o, "plan --json",
                                      "the predicted peak reserved plus the memory outside the allocator");
    }
    if (kind->is_string() && kind->get_string() == "replay") {
      return detail::need_of_replay(o);
    }
    const std::string shown = kind->is_string() ? std::string(kind->get_string()) : boost::json::serialize(*kind);
    return detail::not_a_need("JSON of kind " + quoted_excerpt(shown));
  }
  if (o.contains("schema_version")) {
    return detail::need_of_measurement(document, names);
  }
  if (o.contains("weight_bytes") && o.contains("total_gib") && o.contains("memory_need")) {
    return detail::need_of_document(o, "estimate --json", "the estimate's total (weights + reserve)");
  }
  return detail::not_a_need("a JSON object that is neither an estimate, a plan nor a measurement");
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_NEED_INPUT_IPP
