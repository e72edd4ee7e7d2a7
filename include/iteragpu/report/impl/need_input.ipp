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

[[nodiscard]] ITERAGPU_INLINE need_read need_of_replay(const boost::json::object& o, const document_names& names) {
  const auto* need = o.if_contains("memory_need");
  if (need != nullptr && need->is_null() && every_replay_setting_ran_out(o)) {
    return not_a_need(std::string(names.replay_output) +
                      " in which every setting replayed ran out of memory under the capacity asked, so it gives no "
                      "need; " +
                      std::string(names.replay_for_a_need));
  }
  auto read = need_of_document(
      o, names.replay_output,
      "the least need of the settings replayed: a capacity under which the trace runs, plus "
      "the memory outside the allocator",
      "every setting replayed ran out of memory, or fits no capacity; " + std::string(names.replay_for_a_need));
  if (read) {
    read->setting = replay_setting_of(o, read->bytes.value);
  }
  return read;
}

/// A verdict of an extrapolation's card, where messages place it.
struct verdict_field {
  const boost::json::object* row;
  std::string where;  // the extrapolation's name and the card's place
};

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, need_input_error> integer_at(const verdict_field& f,
                                                                                 const char* key) {
  const auto* v = f.row->if_contains(key);
  const auto n = non_negative_integer(v);
  if (!n) {
    return not_a_need(f.where + (v == nullptr ? " has no " : " has a ") + key +
                      (v == nullptr ? "" : " that is not a non-negative integer") + " (expected bytes as an integer)");
  }
  return *n;
}

[[nodiscard]] ITERAGPU_INLINE result<bool, need_input_error> bool_at(const verdict_field& f, const char* key) {
  const auto* v = f.row->if_contains(key);
  if (v == nullptr || !v->is_bool()) {
    return not_a_need(f.where + (v == nullptr ? " has no " : " has a ") + key +
                      (v == nullptr ? "" : " that is not true or false") + " (expected true or false)");
  }
  return v->get_bool();
}

// The most peak reserved of a range's ends, its upper end read and checked
// against the lower (`lower` bytes, `oom` for the whole prediction).
[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, need_input_error> most_of_range(const verdict_field& f,
                                                                                    std::uint64_t lower, bool oom) {
  const auto* upper = f.row->if_contains("upper");
  if (upper == nullptr || !upper->is_object()) {
    return not_a_need(f.where + " is a range (exact false) with no upper object (expected its upper end's figures)");
  }
  const verdict_field u{&upper->get_object(), f.where + " (its upper end)"};
  const auto high = integer_at(u, "peak_reserved_bytes");
  const auto high_oom = bool_at(u, "oom");
  if (!high || !high_oom) {
    return unexpected{!high ? high.error() : high_oom.error()};
  }
  if (*high < lower && !*high_oom) {
    return not_a_need(f.where + " has an upper end of " + to_decimal_string(*high) + " bytes below its lower end of " +
                      to_decimal_string(lower) + " (expected the upper end at least the lower)");
  }
  if (*high_oom && !oom) {
    return not_a_need(f.where + " says oom false while its upper end runs out of memory (expected oom true)");
  }
  return std::max(lower, *high);
}

// One card's verdict at a size under the recorded settings: its need (the
// most peak reserved of its ends plus `outside`), none when it does not
// fit (a size past what a request can be carries no figures), or a refusal
// naming the key at fault.
[[nodiscard]] ITERAGPU_INLINE result<std::optional<byte_count>, need_input_error> card_need(const verdict_field& f,
                                                                                            std::uint64_t outside) {
  const auto fits = bool_at(f, "fits");
  if (!fits) {
    return unexpected{fits.error()};
  }
  if (!*fits && !f.row->contains("peak_reserved_bytes")) {
    return std::optional<byte_count>{};
  }
  const auto oom = bool_at(f, "oom");
  const auto exact = bool_at(f, "exact");
  const auto lower = integer_at(f, "peak_reserved_bytes");
  if (!oom || !exact || !lower) {
    return unexpected{!oom ? oom.error() : !exact ? exact.error() : lower.error()};
  }
  const auto most = *exact ? result<std::uint64_t, need_input_error>(*lower) : most_of_range(f, *lower, *oom);
  if (!most) {
    return unexpected{most.error()};
  }
  if (*fits == *oom) {
    return not_a_need(f.where + " says fits " + (*fits ? "true" : "false") + " and oom " + (*oom ? "true" : "false") +
                      " (expected one true, the other false)");
  }
  if (!*fits) {
    return std::optional<byte_count>{};
  }
  const auto need = checked_add<std::uint64_t>(*most, outside);
  if (!need) {
    return not_a_need(f.where + ": its peak plus the memory outside the allocator passes 64 bits of bytes");
  }
  return std::optional<byte_count>{byte_count{*need}};
}

// The verdicts of one card (`c`, the k-th) at `size`, added to `need`.
[[nodiscard]] ITERAGPU_INLINE result<void, need_input_error> add_card(memory_need& need, const boost::json::value& c,
                                                                      std::size_t k, std::uint64_t size,
                                                                      const std::string& name) {
  const std::string where = name + " whose cards[" + to_decimal_string(k) + "]";
  if (!c.is_object()) {
    return not_a_need(where + " is not an object");
  }
  const auto& card = c.get_object();
  const auto* gpu = card.if_contains("gpu");
  const auto* rows = card.if_contains("sizes");
  if (gpu == nullptr || !gpu->is_string() || rows == nullptr || !rows->is_array()) {
    return not_a_need(where + " has no gpu text or no sizes array");
  }
  const auto capacity = integer_at({&card, where}, "capacity_bytes");
  if (!capacity) {
    return unexpected{capacity.error()};
  }
  for (const auto& r : rows->get_array()) {
    if (const auto* row = recorded_row_at(r, size)) {
      const auto one = card_need({row, where + " at size " + to_decimal_string(size)}, need.outside.value);
      if (!one) {
        return unexpected{one.error()};
      }
      need.per_gpu.push_back({std::string(gpu->get_string()), byte_count{*capacity}, *one});
    }
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE need_read need_of_extrapolation(const boost::json::object& o,
                                                              std::optional<std::uint64_t> size,
                                                              const document_names& names) {
  const std::string name(names.extrapolation_output);
  if (!size) {
    return not_a_need(name + ", which gives a need only at one size (expected " + std::string(names.size) + ")");
  }
  const auto* assumptions = o.if_contains("assumptions");
  const auto* cards = o.if_contains("cards");
  if (assumptions == nullptr || !assumptions->is_object() || cards == nullptr || !cards->is_array()) {
    return not_a_need(name +
                      " without its assumptions object and cards array (expected one of this version, which judges "
                      "every card at each size it answers)");
  }
  const auto outside = integer_at({&assumptions->get_object(), name + " whose assumptions"}, "outside_allocator_bytes");
  if (!outside) {
    return unexpected{outside.error()};
  }
  memory_need need{byte_count{0}, ""};
  need.outside = byte_count{*outside};
  for (std::size_t k = 0; k < cards->get_array().size(); ++k) {
    if (auto added = add_card(need, cards->get_array()[k], k, *size, name); !added) {
      return unexpected{added.error()};
    }
  }
  if (need.per_gpu.empty()) {
    return not_a_need(name + " with no card judged at size " + to_decimal_string(*size) +
                      " under the recorded settings (" + std::string(names.extrapolation_at) + " " +
                      to_decimal_string(*size) + ")");
  }
  std::optional<std::uint64_t> least;
  for (const auto& g : need.per_gpu) {
    if (g.need) {
      least = std::min(least.value_or(g.need->value), g.need->value);
    }
  }
  need.bytes = byte_count{least.value_or(0)};
  need.source = name + " at size " + to_decimal_string(*size) +
                ", judged GPU by GPU: the trace at that size replayed under each GPU's capacity (its memory's low end "
                "less the " +
                to_decimal_string(*outside) +
                " bytes outside the allocator it assumed); a GPU fits when every end of the prediction completes, "
                "and its need is that replay's peak reserved plus those bytes. Shown: the least need of the GPUs "
                "that hold it";
  return need;
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
    return detail::need_of_extrapolation(o, size, names);
  }
  if (size) {
    return detail::not_a_need("a document that is not " + std::string(names.extrapolation_output) + ", which " +
                              std::string(names.size) + " does not go with");
  }
  if (kind != nullptr) {
    if (kind->is_string() && kind->get_string() == "plan") {
      return detail::need_of_document(o, names.plan_output,
                                      "the predicted peak reserved plus the memory outside the allocator");
    }
    if (kind->is_string() && kind->get_string() == "replay") {
      return detail::need_of_replay(o, names);
    }
    const std::string shown = kind->is_string() ? std::string(kind->get_string()) : boost::json::serialize(*kind);
    return detail::not_a_need("JSON of kind " + quoted_excerpt(shown));
  }
  if (o.contains("schema_version")) {
    return detail::need_of_measurement(document, names);
  }
  if (o.contains("weight_bytes") && o.contains("total_gib") && o.contains("memory_need")) {
    return detail::need_of_document(o, names.estimate_output, "the estimate's total (weights + reserve)");
  }
  return detail::not_a_need("a JSON object that is neither an estimate, a plan nor a measurement");
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_NEED_INPUT_IPP
