#ifndef ITERAGPU_MEMORY_IMPL_REPLAY_IPP
#define ITERAGPU_MEMORY_IMPL_REPLAY_IPP

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/replay.hpp"

// The bodies of the functions that <iteragpu/memory/replay.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

// The machinery behind the replay, private to these bodies: the rewinding
// of a late trace and the replayer.
namespace detail::rewind {

// The state being rewound: segments held and blocks in use, by address.
struct rewound {
  struct held {
    std::uint64_t size{0};
    std::uint64_t stream{0};
    bool small_pool{false};
  };
  // A block in use: its size, and the event whose undoing made it (a free),
  // or the number of events for a block the snapshot holds.
  struct block {
    std::uint64_t size{0};
    std::uint64_t event{0};
  };
  std::map<std::uint64_t, held> segments;
  std::map<std::uint64_t, block> live;  // by address

  // Undoes event `e`, the event at `index`: true when the state allows it.
  [[nodiscard]] bool undo(const trace_event& e, std::uint64_t index, const prediction::allocator_settings& settings);

  // The segments with their blocks in use; the first block that lies in
  // none, by address, when there is one.
  [[nodiscard]] std::optional<std::pair<std::uint64_t, block>> collect(std::vector<held_segment>& start) const;
};

}  // namespace detail::rewind

namespace detail::replaying {

[[nodiscard]] bool is_segment_event(trace_action a) noexcept;

[[nodiscard]] trace_action action_of(prediction::segment_action a) noexcept;

// Segment events compared as sets: the order of the releases of one
// emptyCache follows the cache's own order, which changes nothing.
[[nodiscard]] bool same_segment_events(std::vector<trace_event> recorded, std::vector<trace_event> replayed);

}  // namespace detail::replaying

namespace detail::replaying {

// One replay's state: the simulated allocator, the blocks the trace's
// addresses stand for, the recorded segment events since the last request
// and the outcome so far.
class replayer {
 public:
  replayer(const replay_options& options, std::span<const trace_event> events)
      : options_(options), events_(events), allocator_(options.settings, options.capacity, options.device_memory) {
    live_.reserve(1024);
    outcome_.recorded_death = last_refusal_survived_by_nothing(events);
  }

  // The last `oom` event when no allocation follows it.
  [[nodiscard]] static std::optional<std::uint64_t> last_refusal_survived_by_nothing(
      std::span<const trace_event> events) noexcept;

  // The state where a late trace starts, taken over.
  [[nodiscard]] result<void, replay_error> adopt(std::span<const held_segment> start);

  // One event; an error ends the replay, an out of memory too (done()).
  [[nodiscard]] result<void, replay_error> step(std::uint64_t index, const trace_event& e);

  [[nodiscard]] bool done() const noexcept { return outcome_.oom.has_value(); }

  // The outcome once every event was replayed.
  [[nodiscard]] replay_outcome finish(std::uint64_t events);

 private:
  [[nodiscard]] result<void, replay_error> allocate(std::uint64_t index, const trace_event& e);

  // Whether the recorded program freed the block of event `index` before
  // its next allocation.
  [[nodiscard]] bool freed_before_next_alloc(std::uint64_t index, std::uint64_t address) const;

  // Before a request: a recorded release is the program's own emptyCache
  // (unless releases_before_retry).
  void release_if_recorded(const trace_event& e);

  // An `oom` event outside the self-check: the refused request tried again.
  void refused_request(std::uint64_t index, const trace_event& e);

  // Whether the recorded releases pending before event `e` are the recorded
  // allocator's own, before a retry (only told apart under a capacity).
  [[nodiscard]] bool releases_before_retry(const trace_event& e) const;

  void compare(std::uint64_t index);

  void note_peaks(std::uint64_t index);

  // The simulation's segment events have differed from the recorded ones.
  bool diverged_{false};

  const replay_options& options_;
  std::span<const trace_event> events_;
  prediction::caching_allocator allocator_;
  std::unordered_map<std::uint64_t, prediction::block_handle> live_;
  std::vector<trace_event> pending_;  // recorded segment events since the last request
  std::vector<trace_event> made_;     // the simulation's, for the comparison
  replay_outcome outcome_;
};

}  // namespace detail::replaying

[[nodiscard]] ITERAGPU_INLINE result<void, replay_error> check_beginning(std::span<const trace_event> events) {
  std::unordered_set<std::uint64_t> blocks;
  std::unordered_set<std::uint64_t> segments;
  std::uint64_t mapped = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const trace_event& e = events[i];
    switch (e.action) {
      case trace_action::alloc:
        blocks.insert(e.address);
        break;
      case trace_action::free_completed:
        if (blocks.erase(e.address) == 0) {
          return unexpected{replay_error{replay_errc::starts_late, i, e.address}};
        }
        break;
      case trace_action::free_requested:
        if (!blocks.contains(e.address)) {
          return unexpected{replay_error{replay_errc::starts_late, i, e.address}};
        }
        break;
      case trace_action::segment_alloc:
        segments.insert(e.address);
        break;
      case trace_action::segment_free:
        if (segments.erase(e.address) == 0) {
          return unexpected{replay_error{replay_errc::starts_late, i, e.address}};
        }
        break;
      case trace_action::segment_map:
        mapped += e.size;
        break;
      case trace_action::segment_unmap:
        if (e.size > mapped) {
          return unexpected{replay_error{replay_errc::starts_late, i, e.address}};
        }
        mapped -= e.size;
        break;
      case trace_action::oom:
      case trace_action::snapshot:
      case trace_action::other:
        break;
    }
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> unexplained_segment(const device_trace& trace) {
  std::unordered_set<std::uint64_t> reserved;
  std::uint64_t mapped = 0;
  for (const trace_event& e : trace.events) {
    if (e.action == trace_action::segment_alloc) {
      reserved.insert(e.address);
    } else if (e.action == trace_action::segment_free) {
      reserved.erase(e.address);
    } else if (e.action == trace_action::segment_map) {
      mapped += e.size;
    } else if (e.action == trace_action::segment_unmap) {
      mapped = e.size > mapped ? 0 : mapped - e.size;
    }
  }
  std::uint64_t expandable_held = 0;
  for (const recorded_segment& s : trace.segments) {
    if (s.expandable) {
      expandable_held += s.total_size;
    } else if (!reserved.contains(s.address)) {
      return s.address;
    }
  }
  if (expandable_held > mapped) {
    return trace.segments.front().address;
  }
  return std::nullopt;
}

}  // namespace iteragpu::memory

namespace iteragpu::memory::detail::rewind {

[[nodiscard]] ITERAGPU_INLINE bool rewound::undo(const trace_event& e, std::uint64_t index,
                                                 const prediction::allocator_settings& settings) {
  switch (e.action) {
    case trace_action::alloc:
      return live.erase(e.address) == 1;
    case trace_action::free_completed: {
      const auto rounded = prediction::block_size::for_request(byte_count{e.size}, settings);
      return rounded.has_value() && live.emplace(e.address, block{rounded->bytes().value, index}).second;
    }
    case trace_action::segment_alloc:
      return segments.erase(e.address) == 1;
    case trace_action::segment_free:
      // Small-pool segments are 2 MiB; large-pool ones at least 10 MiB.
      return segments.emplace(e.address, held{e.size, e.stream, e.size == prediction::small_segment.value}).second;
    case trace_action::segment_map:
    case trace_action::segment_unmap:
    case trace_action::free_requested:
    case trace_action::oom:
    case trace_action::snapshot:
    case trace_action::other:
      return true;
  }
  return true;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::pair<std::uint64_t, rewound::block>> rewound::collect(
    std::vector<held_segment>& start) const {
  start.reserve(segments.size());
  for (const auto& [address, s] : segments) {
    start.push_back(held_segment{address, s.size, s.stream, s.small_pool, {}});
  }
  for (const auto& [address, b] : live) {
    // The segment holding the block: the last one starting at or below it.
    const auto above = std::upper_bound(start.begin(), start.end(), address,
                                        [](std::uint64_t a, const held_segment& h) { return a < h.address; });
    if (above == start.begin() || address + b.size > std::prev(above)->address + std::prev(above)->size) {
      return std::pair{address, b};
    }
    std::prev(above)->in_use.push_back(prediction::block_view{address, byte_count{b.size}, true});
  }
  return std::nullopt;
}

}  // namespace iteragpu::memory::detail::rewind

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<std::vector<held_segment>, replay_error> state_at_start(
    const device_trace& trace, const prediction::allocator_settings& settings) {
  detail::rewind::rewound state;
  for (const recorded_segment& s : trace.segments) {
    if (s.expandable) {
      return unexpected{replay_error{replay_errc::expandable_start, 0, s.address}};
    }
    state.segments[s.address] = {s.total_size, s.stream, s.small_pool};
    for (const recorded_block& b : s.blocks) {
      if (b.state != block_state::inactive) {
        state.live[b.address] = {b.size, trace.events.size()};
      }
    }
  }
  for (std::size_t n = trace.events.size(); n > 0; --n) {
    const trace_event& e = trace.events[n - 1];
    if (e.action == trace_action::segment_map || e.action == trace_action::segment_unmap) {
      return unexpected{replay_error{replay_errc::expandable_start, n - 1, e.address}};
    }
    if (!state.undo(e, n - 1, settings)) {
      return unexpected{replay_error{replay_errc::cannot_rebuild, n - 1, e.address}};
    }
  }
  std::vector<held_segment> start;
  if (const auto outside = state.collect(start)) {
    return unexpected{replay_error{replay_errc::cannot_rebuild, outside->second.event, outside->first}};
  }
  return start;
}

[[nodiscard]] ITERAGPU_INLINE recorded_peaks peaks_in(std::span<const trace_event> events,
                                                      const prediction::allocator_settings& settings,
                                                      std::span<const held_segment> start) {
  std::unordered_map<std::uint64_t, std::uint64_t> live;
  std::uint64_t allocated = 0;
  std::uint64_t reserved = 0;
  for (const held_segment& s : start) {
    reserved += s.size;
    for (const auto& b : s.in_use) {
      live[b.address] = b.size.value;
      allocated += b.size.value;
    }
  }
  recorded_peaks peaks{byte_count{allocated}, byte_count{reserved}};
  for (const trace_event& e : events) {
    switch (e.action) {
      case trace_action::alloc: {
        const auto rounded = prediction::block_size::for_request(byte_count{e.size}, settings);
        const std::uint64_t block = rounded.has_value() ? rounded->bytes().value : e.size;
        live[e.address] = block;
        allocated += block;
        peaks.peak_allocated.value = std::max(peaks.peak_allocated.value, allocated);
        break;
      }
      case trace_action::free_completed:
        if (const auto it = live.find(e.address); it != live.end()) {
          allocated -= it->second;
          live.erase(it);
        }
        break;
      case trace_action::segment_alloc:
      case trace_action::segment_map:
        reserved += e.size;
        peaks.peak_reserved.value = std::max(peaks.peak_reserved.value, reserved);
        break;
      case trace_action::segment_free:
      case trace_action::segment_unmap:
        reserved = e.size > reserved ? 0 : reserved - e.size;
        break;
      case trace_action::free_requested:
      case trace_action::oom:
      case trace_action::snapshot:
      case trace_action::other:
        break;
    }
  }
  return peaks;
}

}  // namespace iteragpu::memory

namespace iteragpu::memory::detail::replaying {

[[nodiscard]] ITERAGPU_INLINE bool is_segment_event(trace_action a) noexcept {
  return a == trace_action::segment_alloc || a == trace_action::segment_free || a == trace_action::segment_map ||
         a == trace_action::segment_unmap;
}

[[nodiscard]] ITERAGPU_INLINE trace_action action_of(prediction::segment_action a) noexcept {
  switch (a) {
    case prediction::segment_action::segment_alloc:
      return trace_action::segment_alloc;
    case prediction::segment_action::segment_free:
      return trace_action::segment_free;
    case prediction::segment_action::segment_map:
      return trace_action::segment_map;
    case prediction::segment_action::segment_unmap:
      return trace_action::segment_unmap;
  }
  return trace_action::other;
}

[[nodiscard]] ITERAGPU_INLINE bool same_segment_events(std::vector<trace_event> recorded,
                                                       std::vector<trace_event> replayed) {
  const auto key = [](const trace_event& e) { return std::tuple(e.action, e.address, e.size); };
  const auto less = [&key](const trace_event& a, const trace_event& b) { return key(a) < key(b); };
  std::sort(recorded.begin(), recorded.end(), less);
  std::sort(replayed.begin(), replayed.end(), less);
  return std::equal(recorded.begin(), recorded.end(), replayed.begin(), replayed.end(),
                    [&key](const trace_event& a, const trace_event& b) { return key(a) == key(b); });
}

[[nodiscard]] ITERAGPU_INLINE result<void, replay_error> replayer::adopt(std::span<const held_segment> start) {
  for (const held_segment& s : start) {
    const auto pool = s.small_pool ? prediction::pool_kind::small : prediction::pool_kind::large;
    if (!allocator_.adopt_segment(s.address, byte_count{s.size}, s.stream, pool, s.in_use).has_value()) {
      return unexpected{replay_error{replay_errc::cannot_rebuild, 0, s.address}};
    }
    for (const auto& b : s.in_use) {
      live_.emplace(b.address, prediction::block_handle{b.address});
    }
    ++outcome_.adopted_segments;
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> replayer::last_refusal_survived_by_nothing(
    std::span<const trace_event> events) noexcept {
  for (std::size_t n = events.size(); n > 0; --n) {
    if (events[n - 1].action == trace_action::alloc) {
      return std::nullopt;
    }
    if (events[n - 1].action == trace_action::oom) {
      return n - 1;
    }
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE result<void, replay_error> replayer::step(std::uint64_t index, const trace_event& e) {
  if (is_segment_event(e.action)) {
    pending_.push_back(e);
    return {};
  }
  if (e.action == trace_action::oom) {
    ++outcome_.recorded_ooms;
    if (!options_.follow_recorded_addresses) {
      refused_request(index, e);
    }
    return {};
  }
  if (e.action != trace_action::alloc && e.action != trace_action::free_completed) {
    return {};
  }
  release_if_recorded(e);
  ++outcome_.requests;
  if (e.action == trace_action::alloc) {
    if (auto allocated = allocate(index, e); !allocated) {
      return allocated;
    }
    if (outcome_.oom) {
      return {};
    }
  } else if (const auto it = live_.find(e.address); it != live_.end()) {
    // A free of a block no event made was refused before the replay.
    static_cast<void>(allocator_.free(it->second));
    live_.erase(it);
  }
  compare(index);
  note_peaks(index);
  return {};
}

ITERAGPU_INLINE void replayer::refused_request(std::uint64_t index, const trace_event& e) {
  release_if_recorded(e);
  const bool death = outcome_.recorded_death == index;
  auto block = allocator_.allocate(byte_count{e.size}, e.stream);
  if (!block) {
    if (death) {
      outcome_.oom = failed_request{index, byte_count{e.size}, e.stream, false};
      note_peaks(index);
    } else {
      compare(index);
      note_peaks(index);
    }
    return;
  }
  note_peaks(index);
  if (death) {
    outcome_.past_recorded_death = true;
  } else {
    static_cast<void>(allocator_.free(*block));
  }
  compare(index);
}

[[nodiscard]] ITERAGPU_INLINE replay_outcome replayer::finish(std::uint64_t events) {
  if (!done()) {
    release_if_recorded(trace_event{});
    compare(events);
  }
  outcome_.alloc_retries = allocator_.counters().alloc_retries;
  return std::move(outcome_);
}

[[nodiscard]] ITERAGPU_INLINE result<void, replay_error> replayer::allocate(std::uint64_t index, const trace_event& e) {
  if (options_.follow_recorded_addresses || !diverged_) {
    const auto placed = std::find_if(pending_.begin(), pending_.end(), [](const trace_event& p) {
      return p.action == trace_action::segment_alloc || p.action == trace_action::segment_map;
    });
    if (placed != pending_.end()) {
      allocator_.place_next_segment_at(placed->address);
    }
  }
  auto block = allocator_.allocate(byte_count{e.size}, e.stream);
  if (!block) {
    switch (block.error().code) {
      case prediction::allocation_errc::request_too_large:
        return unexpected{replay_error{replay_errc::request_too_large, index, e.address}};
      case prediction::allocation_errc::device_memory_unknown:  // replay refuses these settings first
        return unexpected{replay_error{replay_errc::device_memory_unknown, index, e.address}};
      case prediction::allocation_errc::out_of_memory:
        break;
    }
    outcome_.oom = failed_request{index, byte_count{e.size}, e.stream, freed_before_next_alloc(index, e.address)};
    note_peaks(index);
    return {};
  }
  if (!live_.emplace(e.address, *block).second) {
    return unexpected{replay_error{replay_errc::address_reused, index, e.address}};
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE bool replayer::freed_before_next_alloc(std::uint64_t index, std::uint64_t address) const {
  for (std::size_t i = static_cast<std::size_t>(index) + 1; i < events_.size(); ++i) {
    const trace_event& e = events_[i];
    if (e.action == trace_action::alloc) {
      return false;
    }
    if ((e.action == trace_action::free_requested || e.action == trace_action::free_completed) &&
        e.address == address) {
      return true;
    }
  }
  return false;
}

[[nodiscard]] ITERAGPU_INLINE bool replayer::releases_before_retry(const trace_event& e) const {
  if (!options_.capacity || options_.follow_recorded_addresses) {
    return false;
  }
  if (e.action == trace_action::oom) {
    return true;
  }
  const auto last_release = std::find_if(pending_.rbegin(), pending_.rend(), [](const trace_event& p) {
    return p.action == trace_action::segment_free || p.action == trace_action::segment_unmap;
  });
  const bool reserved_after = std::any_of(pending_.rbegin(), last_release, [](const trace_event& p) {
    return p.action == trace_action::segment_alloc || p.action == trace_action::segment_map;
  });
  // A program's emptyCache just before a request that reserves looks the
  // same: the release is the allocator's own only where the simulation, at
  // this point, would release too.
  return reserved_after && e.action == trace_action::alloc &&
         allocator_.would_release_for(byte_count{e.size}, e.stream);
}

ITERAGPU_INLINE void replayer::release_if_recorded(const trace_event& e) {
  const bool released = std::any_of(pending_.begin(), pending_.end(), [](const trace_event& p) {
    return p.action == trace_action::segment_free || p.action == trace_action::segment_unmap;
  });
  if (released && !releases_before_retry(e)) {
    allocator_.empty_cache();
    ++outcome_.cache_releases;
  }
}

ITERAGPU_INLINE void replayer::compare(std::uint64_t index) {
  made_.clear();
  for (const auto& s : allocator_.segment_events()) {
    made_.push_back({action_of(s.action), s.address, s.size.value, s.stream});
  }
  allocator_.clear_segment_events();
  if (!diverged_ && !same_segment_events(pending_, made_)) {
    diverged_ = true;
    if (options_.follow_recorded_addresses) {
      outcome_.divergence = segment_divergence{index, pending_, made_};
    }
  }
  pending_.clear();
}

ITERAGPU_INLINE void replayer::note_peaks(std::uint64_t index) {
  const auto stats = allocator_.statistics();
  if (stats.peak_allocated > outcome_.peak_allocated) {
    outcome_.peak_allocated = stats.peak_allocated;
    outcome_.peak_allocated_event = index;
  }
  if (stats.peak_reserved > outcome_.peak_reserved) {
    outcome_.peak_reserved = stats.peak_reserved;
    outcome_.peak_reserved_event = index;
  }
}

}  // namespace iteragpu::memory::detail::replaying

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<replay_outcome, replay_error> replay(const device_trace& trace,
                                                                          const replay_options& options) {
  if (options.settings.expandable_segments && !options.device_memory) {
    return unexpected{replay_error{replay_errc::device_memory_unknown, 0, 0}};
  }
  detail::replaying::replayer r(options, trace.events);
  if (!check_beginning(trace.events) || unexplained_segment(trace)) {
    auto start = state_at_start(trace, options.recorded_settings.value_or(options.settings));
    if (!start) {
      return unexpected{start.error()};
    }
    if (auto adopted = r.adopt(*start); !adopted) {
      return unexpected{adopted.error()};
    }
  }
  for (std::size_t i = 0; i < trace.events.size() && !r.done(); ++i) {
    if (auto stepped = r.step(i, trace.events[i]); !stepped) {
      return unexpected{stepped.error()};
    }
  }
  return r.finish(trace.events.size());
}

[[nodiscard]] ITERAGPU_INLINE result<std::optional<byte_count>, replay_error> smallest_capacity(
    const device_trace& trace, replay_options options) {
  options.capacity = std::nullopt;
  options.follow_recorded_addresses = false;
  const auto unlimited = replay(trace, options);
  if (!unlimited) {
    return unexpected{unlimited.error()};
  }
  if (unlimited->past_recorded_death) {
    return unexpected{replay_error{replay_errc::ends_where_program_died, *unlimited->recorded_death, 0}};
  }
  if (unlimited->oom) {
    return std::optional<byte_count>{};
  }
  constexpr std::uint64_t step = 2 * prediction::mebibyte;
  std::uint64_t high = (unlimited->peak_reserved.value + step - 1) / step;  // fits, in steps
  std::uint64_t low = unlimited->peak_allocated.value / step;               // lower bound, in steps
  low = low == 0 ? 0 : low - 1;                                             // does not fit (or zero)
  while (high - low > 1) {
    const std::uint64_t middle = low + (high - low) / 2;
    options.capacity = byte_count{middle * step};
    const auto tried = replay(trace, options);
    if (!tried) {
      return unexpected{tried.error()};
    }
    (tried->oom || tried->past_recorded_death ? low : high) = middle;
  }
  return std::optional<byte_count>{byte_count{high * step}};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_REPLAY_IPP
