#ifndef ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_IPP

#include <bit>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/snapshot.hpp"

// The bodies of the functions that <iteragpu/memory/files/snapshot.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::detail::snapshot_fields {

[[nodiscard]] ITERAGPU_INLINE std::string at(std::string_view path, std::string_view key) {
  std::string p(path);
  if (!p.empty()) {
    p += '.';
  }
  p += key;
  return p;
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, snapshot_error> unsigned_field(const boost::json::object& o,
                                                                                   std::string_view key,
                                                                                   std::string_view path) {
  const auto* v = o.if_contains(key);
  if (v == nullptr) {
    return fail(snapshot_errc::missing_field, at(path, key));
  }
  if (v->is_uint64()) {
    return v->get_uint64();
  }
  if (v->is_int64()) {
    if (v->get_int64() < 0) {
      return fail(snapshot_errc::out_of_range, at(path, key));
    }
    return static_cast<std::uint64_t>(v->get_int64());
  }
  return fail(snapshot_errc::wrong_type, at(path, key));
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, snapshot_error> stream_field(const boost::json::object& o,
                                                                                 std::string_view path) {
  const auto* v = o.if_contains("stream");
  if (v == nullptr) {
    return std::uint64_t{0};
  }
  if (v->is_uint64()) {
    return v->get_uint64();
  }
  if (v->is_int64()) {
    return static_cast<std::uint64_t>(v->get_int64());
  }
  return fail(snapshot_errc::wrong_type, at(path, "stream"));
}

[[nodiscard]] ITERAGPU_INLINE std::optional<trace_action> action_named(std::string_view name) noexcept {
  struct entry {
    std::string_view name;
    trace_action action;
  };
  constexpr std::array<entry, 10> names{{
      {"alloc", trace_action::alloc},
      {"free_requested", trace_action::free_requested},
      {"free_completed", trace_action::free_completed},
      {"segment_alloc", trace_action::segment_alloc},
      {"segment_free", trace_action::segment_free},
      {"segment_map", trace_action::segment_map},
      {"segment_unmap", trace_action::segment_unmap},
      {"oom", trace_action::oom},
      {"snapshot", trace_action::snapshot},
      {"user_defined", trace_action::other},
  }};
  for (const auto& e : names) {
    if (e.name == name) {
      return e.action;
    }
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE result<trace_event, snapshot_error> event_from(const boost::json::value& v,
                                                                             const std::string& path) {
  const auto* o = v.if_object();
  if (o == nullptr) {
    return fail(snapshot_errc::not_an_object, path);
  }
  const auto* action = o->if_contains("action");
  if (action == nullptr) {
    return fail(snapshot_errc::missing_field, at(path, "action"));
  }
  if (!action->is_string()) {
    return fail(snapshot_errc::wrong_type, at(path, "action"));
  }
  trace_event e;
  const auto& name = action->get_string();
  const auto known = action_named(std::string_view{name.data(), name.size()});
  // An action PyTorch does not write (a misspelt `allocate`, a word holding
  // control bytes) is refused: skipped, it would drop requests unseen.
  if (!known) {
    return fail(snapshot_errc::unknown_value, at(path, "action"));
  }
  e.action = *known;
  if (e.action == trace_action::other || e.action == trace_action::snapshot) {
    return e;
  }
  auto address = unsigned_field(*o, e.action == trace_action::oom ? "device_free" : "addr", path);
  if (!address) {
    return unexpected{address.error()};
  }
  auto size = unsigned_field(*o, "size", path);
  if (!size) {
    return unexpected{size.error()};
  }
  auto stream = stream_field(*o, path);
  if (!stream) {
    return unexpected{stream.error()};
  }
  e.address = *address;
  e.size = *size;
  e.stream = *stream;
  return e;
}

[[nodiscard]] ITERAGPU_INLINE result<block_state, snapshot_error> state_from(const boost::json::object& o,
                                                                             const std::string& path) {
  const auto* v = o.if_contains("state");
  if (v == nullptr) {
    return fail(snapshot_errc::missing_field, at(path, "state"));
  }
  if (!v->is_string()) {
    return fail(snapshot_errc::wrong_type, at(path, "state"));
  }
  const std::string_view s{v->get_string().data(), v->get_string().size()};
  if (s == "active_allocated") {
    return block_state::active_allocated;
  }
  if (s == "active_pending_free") {
    return block_state::active_pending_free;
  }
  if (s == "inactive") {
    return block_state::inactive;
  }
  return fail(snapshot_errc::unknown_value, at(path, "state"));
}

[[nodiscard]] ITERAGPU_INLINE result<recorded_block, snapshot_error> block_from(const boost::json::value& v,
                                                                                std::uint64_t next,
                                                                                const std::string& path) {
  const auto* b = v.if_object();
  if (b == nullptr) {
    return fail(snapshot_errc::not_an_object, path);
  }
  recorded_block block;
  auto size = unsigned_field(*b, "size", path);
  if (!size) {
    return unexpected{size.error()};
  }
  block.size = *size;
  block.address = next;
  if (b->contains("address")) {
    auto a = unsigned_field(*b, "address", path);
    if (!a) {
      return unexpected{a.error()};
    }
    block.address = *a;
  }
  if (b->contains("requested_size")) {
    auto r = unsigned_field(*b, "requested_size", path);
    if (!r) {
      return unexpected{r.error()};
    }
    block.requested_size = *r;
  }
  auto state = state_from(*b, path);
  if (!state) {
    return unexpected{state.error()};
  }
  block.state = *state;
  return block;
}

[[nodiscard]] ITERAGPU_INLINE result<recorded_segment, snapshot_error> segment_from(const boost::json::object& o,
                                                                                    const std::string& path) {
  recorded_segment s;
  auto address = unsigned_field(o, "address", path);
  if (!address) {
    return unexpected{address.error()};
  }
  auto total = unsigned_field(o, "total_size", path);
  if (!total) {
    return unexpected{total.error()};
  }
  auto stream = stream_field(o, path);
  if (!stream) {
    return unexpected{stream.error()};
  }
  s.address = *address;
  s.total_size = *total;
  s.stream = *stream;
  if (const auto* type = o.if_contains("segment_type"); type != nullptr && type->is_string()) {
    s.small_pool = type->get_string() == "small";
  }
  if (const auto* e = o.if_contains("is_expandable"); e != nullptr && e->is_bool()) {
    s.expandable = e->get_bool();
  }
  const auto* blocks = o.if_contains("blocks");
  if (blocks == nullptr) {
    return s;
  }
  if (!blocks->is_array()) {
    return fail(snapshot_errc::wrong_type, at(path, "blocks"));
  }
  // Older versions give no block address: blocks follow each other.
  std::uint64_t next = s.address;
  s.blocks.reserve(blocks->get_array().size());
  for (std::size_t j = 0; j < blocks->get_array().size(); ++j) {
    auto block = block_from(blocks->get_array()[j], next, at(at(path, "blocks"), j));
    if (!block) {
      return unexpected{block.error()};
    }
    next = block->address + block->size;
    s.blocks.push_back(*block);
  }
  return s;
}

[[nodiscard]] ITERAGPU_INLINE result<std::optional<std::uint64_t>, snapshot_error> split_limit(
    const boost::json::value& v, const std::string& path) {
  // PyTorch refuses a max_split_size_mb under 20 MiB (kLargeBuffer).
  constexpr std::uint64_t least = std::uint64_t{20} << 20U;
  if (v.is_int64() && v.get_int64() == -1) {
    return std::optional<std::uint64_t>{};
  }
  if (v.is_uint64() && v.get_uint64() == UINT64_MAX) {
    return std::optional<std::uint64_t>{};
  }
  if (!v.is_int64() && !v.is_uint64()) {
    return fail(snapshot_errc::wrong_type, path);
  }
  if ((v.is_int64() && v.get_int64() < 0) || v.to_number<std::uint64_t>() < least) {
    return fail(snapshot_errc::out_of_range, path);
  }
  return std::optional(v.to_number<std::uint64_t>());
}

[[nodiscard]] ITERAGPU_INLINE result<std::vector<std::pair<std::uint64_t, std::uint64_t>>, snapshot_error>
divisions_from(const boost::json::value& v, const std::string& path) {
  if (!v.is_object()) {
    return fail(snapshot_errc::wrong_type, path);
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> divisions;
  divisions.reserve(v.get_object().size());
  for (const auto& [key, value] : v.get_object()) {
    const std::string_view name{key.data(), key.size()};
    const auto mib = parse_unsigned(name);
    if (!mib) {
      return fail(snapshot_errc::unknown_value, at(path, name));
    }
    auto count = unsigned_field(v.get_object(), name, path);
    if (!count) {
      return unexpected{count.error()};
    }
    // PyTorch takes 0 (no rounding) or a power of two.
    if (*count != 0 && !std::has_single_bit(*count)) {
      return fail(snapshot_errc::out_of_range, at(path, name));
    }
    divisions.emplace_back(*mib, *count);
  }
  return divisions;
}

[[nodiscard]] ITERAGPU_INLINE result<recorded_settings, snapshot_error> settings_from(const boost::json::object& o) {
  const std::string path = "allocator_settings";
  recorded_settings s;
  if (const auto* conf = o.if_contains("PYTORCH_CUDA_ALLOC_CONF"); conf != nullptr && conf->is_string()) {
    s.alloc_conf = std::string(conf->get_string());
  }
  if (const auto* split = o.if_contains("max_split_size"); split != nullptr) {
    auto limit = split_limit(*split, at(path, "max_split_size"));
    if (!limit) {
      return unexpected{limit.error()};
    }
    s.max_split_size = *limit;
  }
  if (const auto* gc = o.if_contains("garbage_collection_threshold"); gc != nullptr) {
    if (!gc->is_number()) {
      return fail(snapshot_errc::wrong_type, at(path, "garbage_collection_threshold"));
    }
    // 0 when unset; PyTorch refuses a threshold outside (0, 1). NaN fails both tests.
    const double threshold = gc->to_number<double>();
    if (!(threshold >= 0.0 && threshold < 1.0)) {
      return fail(snapshot_errc::out_of_range, at(path, "garbage_collection_threshold"));
    }
    s.garbage_collection_threshold = threshold;
  }
  if (const auto* e = o.if_contains("expandable_segments"); e != nullptr) {
    if (!e->is_bool()) {
      return fail(snapshot_errc::wrong_type, at(path, "expandable_segments"));
    }
    s.expandable_segments = e->get_bool();
  }
  if (const auto* r = o.if_contains("roundup_power2_divisions"); r != nullptr) {
    auto divisions = divisions_from(*r, at(path, "roundup_power2_divisions"));
    if (!divisions) {
      return unexpected{divisions.error()};
    }
    s.roundup_power2_divisions = std::move(*divisions);
  }
  return s;
}

[[nodiscard]] ITERAGPU_INLINE result<device_trace, snapshot_error> events_from(const boost::json::value& v,
                                                                               const std::string& path) {
  const auto* events = v.if_array();
  if (events == nullptr) {
    return fail(snapshot_errc::wrong_type, path);
  }
  device_trace trace;
  trace.events.reserve(events->size());
  for (std::size_t i = 0; i < events->size(); ++i) {
    auto e = event_from((*events)[i], at(path, i));
    if (!e) {
      return unexpected{e.error()};
    }
    trace.events.push_back(*e);
  }
  return trace;
}

[[nodiscard]] ITERAGPU_INLINE result<void, snapshot_error> add_segments(const boost::json::value& v, snapshot& into) {
  if (!v.is_array()) {
    return fail(snapshot_errc::wrong_type, "segments");
  }
  const std::size_t traced = into.devices.size();
  for (std::size_t i = 0; i < v.get_array().size(); ++i) {
    const std::string path = at("segments", i);
    const auto* o = v.get_array()[i].if_object();
    if (o == nullptr) {
      return fail(snapshot_errc::not_an_object, path);
    }
    auto device = unsigned_field(*o, "device", path);
    if (!device) {
      return unexpected{device.error()};
    }
    if (*device > traced + 64) {
      return fail(snapshot_errc::out_of_range, at(path, "device"));
    }
    auto segment = segment_from(*o, path);
    if (!segment) {
      return unexpected{segment.error()};
    }
    const auto index = static_cast<std::size_t>(*device);
    if (index >= into.devices.size()) {
      into.devices.resize(index + 1);
    }
    into.devices[index].segments.push_back(std::move(*segment));
  }
  return {};
}

}  // namespace iteragpu::memory::detail::snapshot_fields

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<snapshot, snapshot_error> snapshot_from(const boost::json::value& document) {
  namespace d = detail::snapshot_fields;
  const auto* top = document.if_object();
  if (top == nullptr) {
    return d::fail(snapshot_errc::not_an_object, "");
  }
  const auto* traces = top->if_contains("device_traces");
  if (traces == nullptr) {
    return d::fail(snapshot_errc::missing_field, "device_traces");
  }
  if (!traces->is_array()) {
    return d::fail(snapshot_errc::wrong_type, "device_traces");
  }
  snapshot read;
  read.devices.reserve(traces->get_array().size());
  for (std::size_t device = 0; device < traces->get_array().size(); ++device) {
    auto trace = d::events_from(traces->get_array()[device], d::at("device_traces", device));
    if (!trace) {
      return unexpected{trace.error()};
    }
    read.devices.push_back(std::move(*trace));
  }
  if (const auto* segments = top->if_contains("segments"); segments != nullptr) {
    if (auto added = d::add_segments(*segments, read); !added) {
      return unexpected{added.error()};
    }
  }
  if (const auto* settings = top->if_contains("allocator_settings"); settings != nullptr) {
    if (!settings->is_object()) {
      return d::fail(snapshot_errc::wrong_type, "allocator_settings");
    }
    auto s = d::settings_from(settings->get_object());
    if (!s) {
      return unexpected{s.error()};
    }
    read.settings = std::move(*s);
  }
  return read;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_IPP
