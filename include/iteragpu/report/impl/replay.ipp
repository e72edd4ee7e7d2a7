#ifndef ITERAGPU_REPORT_IMPL_REPLAY_IPP
#define ITERAGPU_REPORT_IMPL_REPLAY_IPP

#include <algorithm>
#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/replay.hpp"

// The bodies of the functions that <iteragpu/report/replay.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::snapshot_error& e) {
  const std::string where = e.path.empty() ? std::string("the top level") : escaped(e.path);
  switch (e.code) {
    case memory::snapshot_errc::not_an_object:
      return where + " is not a dict";
    case memory::snapshot_errc::missing_field:
      return where + " is missing";
    case memory::snapshot_errc::wrong_type:
      return where + " holds another kind of value than the snapshot format gives it";
    case memory::snapshot_errc::out_of_range:
      if (e.path.starts_with("allocator_settings")) {
        return where + " is a setting PyTorch never records (max_split_size: -1 for no limit, or 20 MiB or more; "
                       "garbage_collection_threshold: 0 up to below 1; roundup_power2_divisions: 0 or a power of two)";
      }
      return where + " is out of range (a negative size or address, or a device index far past the traces)";
    case memory::snapshot_errc::unknown_value:
      return where + " holds a word this reader does not know";
  }
  return where + " is not understood";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::replay_error& e) {
  const std::string at = "event " + to_decimal_string(e.event) + " (address " + to_decimal_string(e.address) + ")";
  switch (e.code) {
    case memory::replay_errc::starts_late:
      return "the trace does not start at the process's first allocation: " + at +
             " frees a block or segment no earlier event made (the ring buffer wrapped, or recording began late)";
    case memory::replay_errc::address_reused:
      return "the trace is inconsistent: " + at + " allocates at the address of a block still in use";
    case memory::replay_errc::request_too_large:
      return "the trace asks for 2^60 bytes or more at " + at + ", which PyTorch refuses";
    case memory::replay_errc::cannot_rebuild:
      return "the trace does not start at the process's first allocation (the ring buffer wrapped, or recording "
             "began late) and the state where it starts cannot be rebuilt from the snapshot's segments: " +
             at +
             " does not fit them; record with torch.cuda.memory._record_memory_history() before the first "
             "CUDA allocation, with max_entries above the number of events";
    case memory::replay_errc::expandable_start:
      return "the trace does not start at the process's first allocation, and its expandable segments' state "
             "where it starts is not rebuilt (" +
             at +
             "); record with torch.cuda.memory._record_memory_history() "
             "before the first CUDA allocation";
    case memory::replay_errc::ends_where_program_died:
      return "the recorded program died of an out-of-memory error at event " + to_decimal_string(e.event) +
             " and the trace ends there: no capacity can be shown to suffice; record the program under a larger "
             "capacity";
    case memory::replay_errc::device_memory_unknown:
      return "expandable segments reserve an address space of 9/8 of the device's memory, which was not given: "
             "name the card or its total memory";
  }
  return "the trace cannot be replayed at " + at;
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail::replay_text {

[[nodiscard]] ITERAGPU_INLINE boost::json::value event_json(const memory::trace_event& e) {
  return boost::json::object{
      {"action", action_name(e.action)}, {"address", e.address}, {"size", e.size}, {"stream", e.stream}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::value events_json(const std::vector<memory::trace_event>& events) {
  boost::json::array a;
  for (const auto& e : events) {
    a.push_back(event_json(e));
  }
  return a;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> need_of(const memory::setting_result& r, bool smallest) {
  if (!r.memory_need) {
    return std::nullopt;
  }
  const std::string conf = r.request.alloc_conf.empty() ? std::string("the recorded settings")
                                                        : "PYTORCH_CUDA_ALLOC_CONF=" + escaped(r.request.alloc_conf);
  return memory_need{*r.memory_need, "replay under " + conf + ": " +
                                         (smallest ? std::string("the smallest capacity under which the trace runs")
                                                   : std::string("the peak reserved")) +
                                         ", plus the memory outside the allocator"};
}

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> least_need(const memory::study& s, bool smallest) {
  std::optional<memory_need> least;
  for (const auto& r : s.settings) {
    auto need = need_of(r, smallest);
    if (need && (!least || need->bytes < least->bytes)) {
      least = std::move(need);
    }
  }
  return least;
}

}  // namespace iteragpu::report::detail::replay_text

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value to_json(const memory::study& s, const replay_context& c) {
  namespace d = detail::replay_text;
  boost::json::array settings;
  for (const auto& r : s.settings) {
    boost::json::object o{{"alloc_conf", valid_utf8(r.request.alloc_conf)},
                          {"capacity_bytes", c.capacity ? boost::json::value(c.capacity->value) : nullptr},
                          {"peak_allocated_bytes", r.outcome.peak_allocated.value},
                          {"peak_reserved_bytes", r.outcome.peak_reserved.value},
                          {"alloc_retries", r.outcome.alloc_retries},
                          {"oom", r.outcome.oom.has_value()},
                          {"peak_allocated_event", r.outcome.peak_allocated_event},
                          {"peak_reserved_event", r.outcome.peak_reserved_event},
                          {"cache_releases", r.outcome.cache_releases},
                          {"no_verdict", r.outcome.past_recorded_death}};
    if (r.outcome.oom) {
      o["failed_request"] = boost::json::object{{"event", r.outcome.oom->event},
                                                {"size_bytes", r.outcome.oom->size.value},
                                                {"stream", r.outcome.oom->stream},
                                                {"scratch", r.outcome.oom->scratch}};
    } else {
      o["failed_request"] = nullptr;
    }
    if (c.smallest_capacity) {
      o["smallest_capacity_bytes"] =
          r.smallest_capacity ? boost::json::value(r.smallest_capacity->value) : boost::json::value(nullptr);
      o["smallest_capacity_retries"] =
          r.smallest_capacity_retries ? boost::json::value(*r.smallest_capacity_retries) : boost::json::value(nullptr);
    }
    o["memory_need"] = to_json(d::need_of(r, c.smallest_capacity));
    settings.push_back(std::move(o));
  }
  boost::json::value divergence = nullptr;
  if (s.self_check.divergence) {
    divergence = boost::json::object{{"event", s.self_check.divergence->event},
                                     {"recorded", d::events_json(s.self_check.divergence->recorded)},
                                     {"replayed", d::events_json(s.self_check.divergence->replayed)}};
  }
  return boost::json::object{
      {"kind", "replay"},
      {"prediction", true},
      {"file", valid_utf8(c.file)},
      {"device", c.device},
      {"settings_recorded", c.settings_recorded},
      {"recorded_alloc_conf", valid_utf8(c.recorded_alloc_conf)},
      {"recorded", boost::json::object{{"peak_allocated_bytes", s.recorded.peak_allocated.value},
                                       {"peak_reserved_bytes", s.recorded.peak_reserved.value}}},
      {"self_check", boost::json::object{{"passed", self_check_passed(s)},
                                         {"peak_allocated_bytes", s.self_check.peak_allocated.value},
                                         {"peak_reserved_bytes", s.self_check.peak_reserved.value},
                                         {"requests", s.self_check.requests},
                                         {"first_divergence", divergence}}},
      {"recorded_ooms", s.self_check.recorded_ooms},
      {"recorded_death_event",
       s.self_check.recorded_death ? boost::json::value(*s.self_check.recorded_death) : boost::json::value(nullptr)},
      {"starts_late", s.self_check.adopted_segments > 0},
      {"rebuilt_segments", s.self_check.adopted_segments},
      {"cache_releases", s.self_check.cache_releases},
      {"outside_bytes", c.outside.value},
      {"settings", std::move(settings)},
      {"memory_need", to_json(d::least_need(s, c.smallest_capacity))},
      {"statement", replay_statement},
  };
}

}  // namespace iteragpu::report

namespace iteragpu::report::detail::replay_text {

ITERAGPU_INLINE void write_events(std::ostream& out, const std::vector<memory::trace_event>& events) {
  for (const auto& e : events) {
    out << ' ' << action_name(e.action) << '(' << e.address << ", " << e.size << ')';
  }
}

ITERAGPU_INLINE void write_self_check(std::ostream& out, const memory::study& s) {
  if (!s.self_check.divergence) {
    out << "self-check: passed (the replay under the recorded settings makes the recorded segment events; peak "
           "allocated "
        << bytes_text(s.self_check.peak_allocated) << ", peak reserved " << bytes_text(s.self_check.peak_reserved)
        << ")\n";
    return;
  }
  const auto& div = *s.self_check.divergence;
  out << "self-check: FAILED at event " << div.event << ": recorded";
  write_events(out, div.recorded);
  out << "; replayed";
  write_events(out, div.replayed);
  out << " (the figures below are not exact)\n";
}

ITERAGPU_INLINE void write_cautions(std::ostream& out, const memory::study& s) {
  if (s.self_check.adopted_segments > 0) {
    out << "the trace starts late (the ring buffer wrapped, or recording began late): the allocator's state where it "
           "starts was rebuilt from the snapshot's segments ("
        << s.self_check.adopted_segments << " segment(s)); under other settings that state keeps the recorded layout\n";
  }
  const std::uint64_t caught = s.self_check.recorded_ooms - (s.self_check.recorded_death ? 1U : 0U);
  if (s.self_check.recorded_death) {
    out << "the recorded program died of an out-of-memory error at event " << *s.self_check.recorded_death
        << " (no allocation follows it): the trace ends there, and a replay that grants that request gives no "
           "verdict\n";
  }
  if (caught > 0) {
    out << "the recorded program caught " << caught
        << " out-of-memory error(s) and went on: it changes its requests under pressure, so a replay under another "
           "capacity or setting may be wrong\n";
  }
  if (s.self_check.cache_releases > 0) {
    out << "the trace releases cached segments " << s.self_check.cache_releases
        << " time(s) of its own (emptyCache, or a release before a retry): replayed as emptyCache at the same "
           "points\n";
  }
}

ITERAGPU_INLINE void write_gpus_holding(std::ostream& out, byte_count need) {
  out << "  GPUs on record that hold it:";
  bool any = false;
  for (const auto& records : pricing::memory_on_record) {
    const auto memory = pricing::runtime_memory_of(records.gpu, records.nominal);
    if (memory && pricing::assess_fit(need, memory->band).verdict == pricing::fit_verdict::fits) {
      out << ' ' << records.gpu;
      any = true;
    }
  }
  out << (any ? "" : " none") << '\n';
}

ITERAGPU_INLINE void write_setting(std::ostream& out, const memory::setting_result& r, const replay_context& c) {
  out << '\n'
      << (r.request.alloc_conf.empty() ? std::string("recorded settings")
                                       : "PYTORCH_CUDA_ALLOC_CONF=" + escaped(r.request.alloc_conf))
      << (c.capacity ? ", capacity " + bytes_text(*c.capacity) : std::string()) << '\n';
  out << "  peak allocated " << bytes_text(r.outcome.peak_allocated) << " (event " << r.outcome.peak_allocated_event
      << "), peak reserved " << bytes_text(r.outcome.peak_reserved) << " (event " << r.outcome.peak_reserved_event
      << ")\n";
  if (r.outcome.oom) {
    out << "  OUT OF MEMORY at event " << r.outcome.oom->event << ": a request of " << bytes_text(r.outcome.oom->size)
        << " on stream " << r.outcome.oom->stream << ", after " << retries_text(r.outcome.alloc_retries) << '\n';
    if (r.outcome.oom->scratch) {
      out << "  (a scratch buffer, freed before the next allocation, as a library's workspace is: cuDNN and cuBLAS "
             "take a smaller one when theirs cannot be had, so the program may go on where the replay stops)\n";
    }
  }
  if (!r.outcome.oom && !r.outcome.past_recorded_death) {
    out << "  fits";
    if (c.capacity) {
      // A run that fits reserves at most the capacity; std::min keeps the subtraction safe all the same.
      const std::uint64_t reserved = std::min(r.outcome.peak_reserved.value, c.capacity->value);
      out << ": " << bytes_text(byte_count{c.capacity->value - reserved}) << " of headroom under the capacity, ";
    } else {
      out << " (no capacity asked), ";
    }
    out << retries_text(r.outcome.alloc_retries) << '\n';
  }
  if (r.outcome.past_recorded_death) {
    out << "  NO VERDICT: the replay granted the request the recorded program died of (event "
        << *r.outcome.recorded_death << "); the trace does not show what the program would have asked next\n";
  }
  if (r.smallest_capacity) {
    out << "  smallest capacity: " << bytes_text(*r.smallest_capacity);
    if (r.smallest_capacity_retries) {
      out << ", " << retries_text(*r.smallest_capacity_retries) << " at that capacity";
    }
    out << '\n';
  } else if (c.smallest_capacity && r.outcome.recorded_death) {
    out << "  smallest capacity: none can be shown: the trace ends where the recorded program died\n";
  } else if (c.smallest_capacity) {
    out << "  smallest capacity: none; the trace runs out of memory under every capacity (its bytes in use pass "
           "2^64)\n";
  }
  if (r.memory_need) {
    out << "  memory need: " << bytes_text(*r.memory_need) << " (with " << to_decimal_string(c.outside.value)
        << " bytes outside the allocator)\n";
    write_gpus_holding(out, *r.memory_need);
  }
}

}  // namespace iteragpu::report::detail::replay_text

namespace iteragpu::report {

ITERAGPU_INLINE void write_text(std::ostream& out, const memory::study& s, const replay_context& c) {
  namespace d = detail::replay_text;
  out << "replay of " << escaped(c.file) << ", device " << c.device << ": " << s.self_check.requests
      << " requests (a prediction)\n";
  std::string recorded = "not in the snapshot (before PyTorch 2.3): PyTorch's defaults assumed";
  if (c.settings_recorded) {
    recorded = c.recorded_alloc_conf.empty() ? std::string("PyTorch's defaults")
                                             : "PYTORCH_CUDA_ALLOC_CONF=" + escaped(c.recorded_alloc_conf);
  }
  out << "recorded settings: " << recorded << '\n';
  out << "in the trace: peak allocated " << d::bytes_text(s.recorded.peak_allocated) << ", peak reserved "
      << d::bytes_text(s.recorded.peak_reserved) << '\n';
  d::write_self_check(out, s);
  d::write_cautions(out, s);
  for (const auto& r : s.settings) {
    d::write_setting(out, r, c);
  }
  out << '\n' << replay_statement << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_REPLAY_IPP
