#ifndef ITERAGPU_MEMORY_REPLAY_HPP
#define ITERAGPU_MEMORY_REPLAY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "iteragpu/memory/trace.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A recorded allocator trace replayed through the simulated caching
/// allocator (prediction/caching_allocator.hpp) under any settings and
/// capacity: the peaks the same program would reach, whether it would run
/// out of memory and on which request.
///
/// The replay feeds the simulation the trace's requests in order: each
/// `alloc` (its requested size, on its stream) and each `free_completed`
/// (the block the matching alloc got). The trace's own segment events are
/// not requests: the simulation makes its own. A segment release the
/// simulation did not make (the program called `torch.cuda.empty_cache()`,
/// or its allocator released its cache to retry a request) is replayed as
/// an emptyCache at that point, counted in `cache_releases`.
///
/// With `follow_recorded_addresses` (the self-check, under the recorded
/// settings) each new segment is placed at the address the trace gave it,
/// and the segment events the simulation makes are compared with the
/// recorded ones between two requests; the first difference is returned.
///
/// What a replay cannot know: a program that changes its requests under
/// pressure (cuDNN picks its workspace from what it can get; a cache sized
/// from free memory) issues other requests under another capacity. The
/// trace shows such a program by its `oom` events (out-of-memory errors it
/// caught and went on), counted in `recorded_ooms`.
namespace iteragpu::memory {

/// How to replay: the allocator's settings, its capacity, the device.
struct replay_options {
  prediction::allocator_settings settings{};    ///< the settings replayed
  std::optional<byte_count> capacity{};         ///< bytes the allocator may reserve; none: unlimited
  byte_count device_memory{prediction::h200_device_memory};  ///< the device's memory (sizes expandable segments)
  bool follow_recorded_addresses{false};        ///< the self-check: recorded addresses, segment events compared
  /// The settings the trace was recorded under, which round the blocks of a
  /// late trace's rebuilt start; none: `settings`.
  std::optional<prediction::allocator_settings> recorded_settings{};
  /// Equal when every member is equal.
  friend bool operator==(const replay_options&, const replay_options&) = default;
};

/// The request the allocator could not satisfy.
struct failed_request {
  std::uint64_t event{0};    ///< its index in the device's events
  byte_count size;           ///< bytes asked for
  std::uint64_t stream{0};   ///< its stream
  /// The recorded program freed that block before its next allocation: a
  /// scratch buffer, as a library's workspace is (cuDNN and cuBLAS take a
  /// smaller workspace, or another algorithm, when theirs cannot be had), so
  /// the real program may well go on where the replay stops.
  bool scratch{false};
  /// Equal when every member is equal.
  friend bool operator==(const failed_request&, const failed_request&) = default;
};

/// Where the replay's segment events first differ from the recorded ones.
struct segment_divergence {
  std::uint64_t event{0};                  ///< the index of the request after which they differ
  std::vector<trace_event> recorded;       ///< the recorded segment events before that request
  std::vector<trace_event> replayed;       ///< the simulation's
  /// Equal when every member is equal.
  friend bool operator==(const segment_divergence&, const segment_divergence&) = default;
};

/// What a replay found.
struct replay_outcome {
  byte_count peak_allocated;              ///< the largest allocated bytes
  std::uint64_t peak_allocated_event{0};  ///< the event at which it was first reached
  byte_count peak_reserved;               ///< the largest reserved bytes
  std::uint64_t peak_reserved_event{0};   ///< the event at which it was first reached
  std::uint64_t alloc_retries{0};         ///< allocations that released the cache and tried again
  std::optional<failed_request> oom{};    ///< the first request that ran out of memory; the replay stops there
  std::uint64_t cache_releases{0};        ///< segment releases of the program's own (emptyCache) replayed
  std::uint64_t recorded_ooms{0};         ///< out-of-memory errors the recorded program caught
  std::uint64_t requests{0};              ///< allocations and frees replayed
  std::uint64_t adopted_segments{0};      ///< segments held where a late trace starts, rebuilt from the snapshot
  std::optional<segment_divergence> divergence{};  ///< with follow_recorded_addresses: the first difference
  /// Equal when every member is equal.
  friend bool operator==(const replay_outcome&, const replay_outcome&) = default;
};

/// Why a trace cannot be replayed.
enum class replay_errc {
  starts_late,         ///< it frees a block or segment no earlier event made: the beginning is missing
  address_reused,      ///< an alloc at the address of a block still in use
  request_too_large,   ///< a request of 2^60 bytes or more, which PyTorch refuses before any search
  cannot_rebuild,      ///< it starts late, and the state where it starts cannot be rebuilt from the snapshot
  expandable_start,    ///< it starts late with expandable segments, whose state is not rebuilt
};

/// Why a trace cannot be replayed, and where.
struct replay_error {
  replay_errc code{replay_errc::starts_late};  ///< what is wrong
  std::uint64_t event{0};                      ///< the event at fault
  std::uint64_t address{0};                    ///< its address
  /// Equal when every member is equal.
  friend bool operator==(const replay_error&, const replay_error&) = default;
};

/// The peaks a trace shows by itself, without the simulation: reserved
/// bytes from the segment events, allocated bytes from the requests, each
/// rounded to a block as `settings` round (a block handed out whole, with a
/// remainder too small to split, counts more in PyTorch's own counter; the
/// replay counts it).
struct recorded_peaks {
  byte_count peak_allocated;  ///< the largest sum of the blocks in use
  byte_count peak_reserved;   ///< the largest sum of the segments held
  /// Equal when every member is equal.
  friend bool operator==(const recorded_peaks&, const recorded_peaks&) = default;
};

/// Whether the trace starts at the process's first allocation: the first
/// event that frees a block, or releases a segment, that no earlier event
/// made; nothing when every one was made before it.
[[nodiscard]] inline std::optional<replay_error> missing_beginning(std::span<const trace_event> events) {
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
          return replay_error{replay_errc::starts_late, i, e.address};
        }
        break;
      case trace_action::free_requested:
        if (!blocks.contains(e.address)) {
          return replay_error{replay_errc::starts_late, i, e.address};
        }
        break;
      case trace_action::segment_alloc:
        segments.insert(e.address);
        break;
      case trace_action::segment_free:
        if (segments.erase(e.address) == 0) {
          return replay_error{replay_errc::starts_late, i, e.address};
        }
        break;
      case trace_action::segment_map:
        mapped += e.size;
        break;
      case trace_action::segment_unmap:
        if (e.size > mapped) {
          return replay_error{replay_errc::starts_late, i, e.address};
        }
        mapped -= e.size;
        break;
      case trace_action::oom:
      case trace_action::snapshot:
      case trace_action::other:
        break;
    }
  }
  return std::nullopt;
}

/// Whether a device's trace explains every segment the snapshot still held
/// when it was taken: the first held segment no event reserved, or nothing.
/// A trace that starts late but frees nothing it did not make shows it here.
[[nodiscard]] inline std::optional<std::uint64_t> unexplained_segment(const device_trace& trace) {
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

/// A segment the allocator held where a trace begins, with its blocks in use.
struct held_segment {
  std::uint64_t address{0};                           ///< its address
  std::uint64_t size{0};                              ///< its size
  std::uint64_t stream{0};                            ///< the stream it serves
  bool small_pool{false};                             ///< a segment of the small pool (2 MiB)
  std::vector<prediction::block_view> in_use;         ///< its blocks in use, in address order
  /// Equal when every member is equal.
  friend bool operator==(const held_segment&, const held_segment&) = default;
};

namespace detail::rewind {

// The state being rewound: segments held and blocks in use, by address.
struct rewound {
  struct held {
    std::uint64_t size{0};
    std::uint64_t stream{0};
    bool small_pool{false};
  };
  std::map<std::uint64_t, held> segments;
  std::map<std::uint64_t, std::uint64_t> live;  // block address -> block size

  // Undoes event `e`: true when the state allows it.
  [[nodiscard]] bool undo(const trace_event& e, const prediction::allocator_settings& settings) {
    switch (e.action) {
      case trace_action::alloc:
        return live.erase(e.address) == 1;
      case trace_action::free_completed: {
        const auto rounded = prediction::block_size::for_request(byte_count{e.size}, settings);
        return rounded.has_value() && live.emplace(e.address, rounded->bytes().value).second;
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

  // The segments with their blocks in use; false when a block lies in none.
  [[nodiscard]] bool collect(std::vector<held_segment>& start) const {
    start.reserve(segments.size());
    for (const auto& [address, s] : segments) {
      start.push_back(held_segment{address, s.size, s.stream, s.small_pool, {}});
    }
    for (const auto& [address, size] : live) {
      // The segment holding the block: the last one starting at or below it.
      const auto above = std::upper_bound(start.begin(), start.end(), address,
                                          [](std::uint64_t a, const held_segment& h) { return a < h.address; });
      if (above == start.begin() || address + size > std::prev(above)->address + std::prev(above)->size) {
        return false;
      }
      std::prev(above)->in_use.push_back(prediction::block_view{address, byte_count{size}, true});
    }
    return true;
  }
};

}  // namespace detail::rewind

/// The allocator's state where a trace begins: nothing for a trace recorded
/// from the process's first allocation; for one that starts late (recording
/// began late, or the ring buffer wrapped), the segments and blocks in use
/// rebuilt by rewinding the trace from the segments the snapshot held at
/// its end, as PyTorch's _memory_viz rewinds it. A block in use at the start
/// and freed in the trace is known by its requested size only: its block is
/// that size rounded as `settings` round it. Refused where it cannot be
/// done: expandable segments, or a trace that does not fit the snapshot.
[[nodiscard]] inline result<std::vector<held_segment>, replay_error> state_at_start(
    const device_trace& trace, const prediction::allocator_settings& settings) {
  detail::rewind::rewound state;
  for (const recorded_segment& s : trace.segments) {
    if (s.expandable) {
      return unexpected{replay_error{replay_errc::expandable_start, 0, s.address}};
    }
    state.segments[s.address] = {s.total_size, s.stream, s.small_pool};
    for (const recorded_block& b : s.blocks) {
      if (b.state != block_state::inactive) {
        state.live[b.address] = b.size;
      }
    }
  }
  for (std::size_t n = trace.events.size(); n > 0; --n) {
    const trace_event& e = trace.events[n - 1];
    if (e.action == trace_action::segment_map || e.action == trace_action::segment_unmap) {
      return unexpected{replay_error{replay_errc::expandable_start, n - 1, e.address}};
    }
    if (!state.undo(e, settings)) {
      return unexpected{replay_error{replay_errc::cannot_rebuild, n - 1, e.address}};
    }
  }
  std::vector<held_segment> start;
  if (!state.collect(start)) {
    return unexpected{replay_error{replay_errc::cannot_rebuild, 0, 0}};
  }
  return start;
}

/// The peaks the trace shows by itself (see recorded_peaks).
/// A late trace counts from the state where it starts (state_at_start).
[[nodiscard]] inline recorded_peaks peaks_in(std::span<const trace_event> events,
                                             const prediction::allocator_settings& settings,
                                             std::span<const held_segment> start = {}) {
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

namespace detail::replaying {

[[nodiscard]] inline bool is_segment_event(trace_action a) noexcept {
  return a == trace_action::segment_alloc || a == trace_action::segment_free || a == trace_action::segment_map ||
         a == trace_action::segment_unmap;
}

[[nodiscard]] inline trace_action action_of(prediction::segment_action a) noexcept {
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

// Segment events compared as sets: the order of the releases of one
// emptyCache follows the cache's own order, which changes nothing.
[[nodiscard]] inline bool same_segment_events(std::vector<trace_event> recorded, std::vector<trace_event> replayed) {
  const auto key = [](const trace_event& e) { return std::tuple(e.action, e.address, e.size); };
  const auto less = [&key](const trace_event& a, const trace_event& b) { return key(a) < key(b); };
  std::sort(recorded.begin(), recorded.end(), less);
  std::sort(replayed.begin(), replayed.end(), less);
  return std::equal(recorded.begin(), recorded.end(), replayed.begin(), replayed.end(),
                    [&key](const trace_event& a, const trace_event& b) { return key(a) == key(b); });
}

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
  }

  // The state where a late trace starts, taken over.
  [[nodiscard]] std::optional<replay_error> adopt(std::span<const held_segment> start) {
    for (const held_segment& s : start) {
      const auto pool = s.small_pool ? prediction::pool_kind::small : prediction::pool_kind::large;
      if (!allocator_.adopt_segment(s.address, byte_count{s.size}, s.stream, pool, s.in_use)) {
        return replay_error{replay_errc::cannot_rebuild, 0, s.address};
      }
      for (const auto& b : s.in_use) {
        live_.emplace(b.address, prediction::block_handle{b.address});
      }
      ++outcome_.adopted_segments;
    }
    return std::nullopt;
  }

  // One event; an error ends the replay, an out of memory too (done()).
  [[nodiscard]] std::optional<replay_error> step(std::uint64_t index, const trace_event& e) {
    if (is_segment_event(e.action)) {
      pending_.push_back(e);
      return std::nullopt;
    }
    if (e.action == trace_action::oom) {
      ++outcome_.recorded_ooms;
      return std::nullopt;
    }
    if (e.action != trace_action::alloc && e.action != trace_action::free_completed) {
      return std::nullopt;
    }
    release_if_recorded();
    ++outcome_.requests;
    if (e.action == trace_action::alloc) {
      if (auto failed = allocate(index, e)) {
        return failed;
      }
      if (outcome_.oom) {
        return std::nullopt;
      }
    } else if (const auto it = live_.find(e.address); it != live_.end()) {
      // A free of a block no event made was refused before the replay.
      static_cast<void>(allocator_.free(it->second));
      live_.erase(it);
    }
    compare(index);
    note_peaks(index);
    return std::nullopt;
  }

  [[nodiscard]] bool done() const noexcept { return outcome_.oom.has_value(); }

  // The outcome once every event was replayed.
  [[nodiscard]] replay_outcome finish(std::uint64_t events) {
    if (!done()) {
      release_if_recorded();
      compare(events);
    }
    outcome_.alloc_retries = allocator_.counters().alloc_retries;
    return std::move(outcome_);
  }

 private:
  [[nodiscard]] std::optional<replay_error> allocate(std::uint64_t index, const trace_event& e) {
    if (options_.follow_recorded_addresses) {
      const auto placed = std::find_if(pending_.begin(), pending_.end(), [](const trace_event& p) {
        return p.action == trace_action::segment_alloc || p.action == trace_action::segment_map;
      });
      if (placed != pending_.end()) {
        allocator_.place_next_segment_at(placed->address);
      }
    }
    auto block = allocator_.allocate(byte_count{e.size}, e.stream);
    if (!block) {
      if (block.error().error == prediction::allocation_error::request_too_large) {
        return replay_error{replay_errc::request_too_large, index, e.address};
      }
      outcome_.oom = failed_request{index, byte_count{e.size}, e.stream, freed_before_next_alloc(index, e.address)};
      note_peaks(index);
      return std::nullopt;
    }
    if (!live_.emplace(e.address, *block).second) {
      return replay_error{replay_errc::address_reused, index, e.address};
    }
    return std::nullopt;
  }

  // Whether the recorded program freed the block of event `index` before
  // its next allocation.
  [[nodiscard]] bool freed_before_next_alloc(std::uint64_t index, std::uint64_t address) const {
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

  // Before a request: a recorded release the simulation has not made is the
  // program's own emptyCache (or its allocator's release before a retry).
  void release_if_recorded() {
    const bool released = std::any_of(pending_.begin(), pending_.end(), [](const trace_event& e) {
      return e.action == trace_action::segment_free || e.action == trace_action::segment_unmap;
    });
    if (released) {
      allocator_.empty_cache();
      ++outcome_.cache_releases;
    }
  }

  void compare(std::uint64_t index) {
    made_.clear();
    for (const auto& s : allocator_.segment_events()) {
      made_.push_back({action_of(s.action), s.address, s.size.value, s.stream});
    }
    allocator_.clear_segment_events();
    if (options_.follow_recorded_addresses && !outcome_.divergence && !same_segment_events(pending_, made_)) {
      outcome_.divergence = segment_divergence{index, pending_, made_};
    }
    pending_.clear();
  }

  void note_peaks(std::uint64_t index) {
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

  const replay_options& options_;
  std::span<const trace_event> events_;
  prediction::caching_allocator allocator_;
  std::unordered_map<std::uint64_t, prediction::block_handle> live_;
  std::vector<trace_event> pending_;  // recorded segment events since the last request
  std::vector<trace_event> made_;     // the simulation's, for the comparison
  replay_outcome outcome_;
};

}  // namespace detail::replaying

/// Replays one device's trace under `options` (see the file's description).
/// A trace that starts late starts from the state rewound from the
/// snapshot (state_at_start). Fails when that state cannot be rebuilt or the
/// trace is inconsistent; running out of memory is an outcome, not a failure.
[[nodiscard]] inline result<replay_outcome, replay_error> replay(const device_trace& trace,
                                                                 const replay_options& options) {
  detail::replaying::replayer r(options, trace.events);
  if (missing_beginning(trace.events) || unexplained_segment(trace)) {
    auto start = state_at_start(trace, options.recorded_settings.value_or(options.settings));
    if (!start) {
      return unexpected{start.error()};
    }
    if (auto failed = r.adopt(*start)) {
      return unexpected{*failed};
    }
  }
  for (std::size_t i = 0; i < trace.events.size() && !r.done(); ++i) {
    if (auto failed = r.step(i, trace.events[i])) {
      return unexpected{*failed};
    }
  }
  return r.finish(trace.events.size());
}

/// The smallest capacity under which the trace runs without running out of
/// memory, searched between its peak allocated bytes (a lower bound: the
/// segments hold every block in use) and its peak reserved bytes with no
/// capacity (enough: nothing is ever refused). Segments are whole multiples
/// of 2 MiB, so the search runs over those; a capacity between two of them
/// fits as the lower one does. Nothing when the trace cannot be replayed.
[[nodiscard]] inline result<byte_count, replay_error> smallest_capacity(const device_trace& trace,
                                                                       replay_options options) {
  options.capacity = std::nullopt;
  options.follow_recorded_addresses = false;
  const auto unlimited = replay(trace, options);
  if (!unlimited) {
    return unexpected{unlimited.error()};
  }
  constexpr std::uint64_t step = 2 * prediction::mebibyte;
  std::uint64_t high = (unlimited->peak_reserved.value + step - 1) / step;  // fits, in steps
  std::uint64_t low = unlimited->peak_allocated.value / step;               // lower bound, in steps
  low = low == 0 ? 0 : low - 1;                                              // does not fit (or zero)
  while (high - low > 1) {
    const std::uint64_t middle = low + (high - low) / 2;
    options.capacity = byte_count{middle * step};
    const auto tried = replay(trace, options);
    if (!tried) {
      return unexpected{tried.error()};
    }
    (tried->oom ? low : high) = middle;
  }
  return byte_count{high * step};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_REPLAY_HPP
