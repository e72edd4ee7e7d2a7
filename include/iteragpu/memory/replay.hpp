#ifndef ITERAGPU_MEMORY_REPLAY_HPP
#define ITERAGPU_MEMORY_REPLAY_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/trace.hpp"
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
/// Outside the self-check the simulation also follows the recorded
/// addresses, as long as its own segment events equal the recorded ones:
/// until then it made the same reservations in the same order as the
/// recorded allocator, which got those addresses from the driver. From the
/// first difference on it places new segments itself. So a replay under the
/// recorded settings, with no capacity, gives the self-check's peaks
/// wherever the self-check passes.
///
/// An `oom` event is a request the recorded allocator refused (its size is
/// the rounded block). Outside the self-check it is replayed as a request:
/// refused by the simulation too, it is an out-of-memory error the program
/// caught and went on from (allocations follow it in the trace), or the one
/// it died of (none follows: the replay stops there, out of memory);
/// granted, a caught one is freed at once (the program would have used it
/// as a scratch buffer), and the one the program died of leaves the replay
/// without a verdict (`past_recorded_death`): the trace does not show what
/// the program would have asked next.
///
/// A recorded release of segments is the program's emptyCache, replayed as
/// one, except under a capacity where it directly precedes a refused
/// request, or the next request's own reservation where the simulation
/// would release its cache for that request too: there it is the recorded
/// allocator's release before its retry, which the simulation makes itself.
///
/// What a replay cannot know: a program that changes its requests under
/// pressure (cuDNN picks its workspace from what it can get; a cache sized
/// from free memory) issues other requests under another capacity. The
/// trace shows such a program by its `oom` events, counted in
/// `recorded_ooms`.
namespace iteragpu::memory {

/// How to replay: the allocator's settings, its capacity, the device.
struct replay_options {
  prediction::allocator_settings settings{};  ///< the settings replayed
  std::optional<byte_count> capacity{};       ///< bytes the allocator may reserve; none: unlimited
  /// The device's memory (totalGlobalMem), which sizes an expandable
  /// segment's address space; none: a replay under expandable segments is
  /// refused (device_memory_unknown), for no card's size is assumed.
  std::optional<byte_count> device_memory{};
  bool follow_recorded_addresses{false};  ///< the self-check: recorded addresses, segment events compared
  /// The settings the trace was recorded under, which round the blocks of a
  /// late trace's rebuilt start; none: `settings`.
  std::optional<prediction::allocator_settings> recorded_settings{};
  /// Equal when every member is equal.
  friend bool operator==(const replay_options&, const replay_options&) = default;
};

/// The request the allocator could not satisfy.
struct failed_request {
  std::uint64_t event{0};   ///< its index in the device's events
  byte_count size;          ///< bytes asked for
  std::uint64_t stream{0};  ///< its stream
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
  std::uint64_t event{0};             ///< the index of the request after which they differ
  std::vector<trace_event> recorded;  ///< the recorded segment events before that request
  std::vector<trace_event> replayed;  ///< the simulation's
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
  std::uint64_t recorded_ooms{0};         ///< out-of-memory errors of the recorded program (`oom` events)
  /// The `oom` event the recorded program did not survive: no allocation
  /// follows it, the trace ends there.
  std::optional<std::uint64_t> recorded_death{};
  /// The replay granted the request the recorded program died of: what the
  /// program would have asked next is not in the trace, so no verdict.
  bool past_recorded_death{false};
  std::uint64_t requests{0};          ///< allocations and frees replayed
  std::uint64_t adopted_segments{0};  ///< segments held where a late trace starts, rebuilt from the snapshot
  std::optional<segment_divergence> divergence{};  ///< with follow_recorded_addresses: the first difference
  /// Equal when every member is equal.
  friend bool operator==(const replay_outcome&, const replay_outcome&) = default;
};

/// Why a trace cannot be replayed.
enum class replay_errc {
  starts_late,        ///< it frees a block or segment no earlier event made: the beginning is missing
  address_reused,     ///< an alloc at the address of a block still in use
  request_too_large,  ///< a request of 2^60 bytes or more, which PyTorch refuses before any search
  cannot_rebuild,     ///< it starts late, and the state where it starts cannot be rebuilt from the snapshot
  expandable_start,   ///< it starts late with expandable segments, whose state is not rebuilt
  /// the smallest capacity of a trace whose program died of an out-of-memory
  /// error that the simulation grants: the trace does not show the rest
  ends_where_program_died,
  device_memory_unknown,  ///< expandable segments replayed without the device's memory, which sizes them
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

/// Whether the trace starts at the process's first allocation: a success
/// when every block or segment it frees or releases was made by an earlier
/// event, or else the first event that frees one no earlier event made
/// (replay_errc::starts_late).
[[nodiscard]] result<void, replay_error> check_beginning(std::span<const trace_event> events);

/// Whether a device's trace explains every segment the snapshot still held
/// when it was taken: the first held segment no event reserved, or nothing.
/// A trace that starts late but frees nothing it did not make shows it here.
[[nodiscard]] std::optional<std::uint64_t> unexplained_segment(const device_trace& trace);

/// A segment the allocator held where a trace begins, with its blocks in use.
struct held_segment {
  std::uint64_t address{0};                    ///< its address
  std::uint64_t size{0};                       ///< its size
  std::uint64_t stream{0};                     ///< the stream it serves
  bool small_pool{false};                      ///< a segment of the small pool (2 MiB)
  std::vector<prediction::block_view> in_use;  ///< its blocks in use, in address order
  /// Equal when every member is equal.
  friend bool operator==(const held_segment&, const held_segment&) = default;
};

/// The allocator's state where a trace begins: nothing for a trace recorded
/// from the process's first allocation; for one that starts late (recording
/// began late, or the ring buffer wrapped), the segments and blocks in use
/// rebuilt by rewinding the trace from the segments the snapshot held at
/// its end, as PyTorch's _memory_viz rewinds it. A block in use at the start
/// and freed in the trace is known by its requested size only: its block is
/// that size rounded as `settings` round it. Refused where it cannot be
/// done: expandable segments, or a trace that does not fit the snapshot.
[[nodiscard]] result<std::vector<held_segment>, replay_error> state_at_start(
    const device_trace& trace, const prediction::allocator_settings& settings);

/// The peaks the trace shows by itself (see recorded_peaks).
/// A late trace counts from the state where it starts (state_at_start).
[[nodiscard]] recorded_peaks peaks_in(std::span<const trace_event> events,
                                      const prediction::allocator_settings& settings,
                                      std::span<const held_segment> start = {});

/// Replays one device's trace under `options` (see the file's description).
/// A trace that starts late starts from the state rewound from the
/// snapshot (state_at_start). Fails when that state cannot be rebuilt or the
/// trace is inconsistent; running out of memory is an outcome, not a failure.
[[nodiscard]] result<replay_outcome, replay_error> replay(const device_trace& trace, const replay_options& options);

/// The smallest capacity under which the trace runs without running out of
/// memory, searched between its peak allocated bytes (a lower bound: the
/// segments hold every block in use) and its peak reserved bytes with no
/// capacity (enough: nothing is ever refused). Segments are whole multiples
/// of 2 MiB, so the search runs over those; a capacity between two of them
/// fits as the lower one does. Nothing when the trace runs out of memory
/// with no capacity at all (its bytes in use pass 2^64): it fits none. An
/// error when the trace cannot be replayed, or (ends_where_program_died)
/// when the recorded program died of an out-of-memory error that the
/// simulation grants with no capacity: the trace does not show the rest.
[[nodiscard]] result<std::optional<byte_count>, replay_error> smallest_capacity(const device_trace& trace,
                                                                                replay_options options);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/replay.ipp"
#endif

#endif  // ITERAGPU_MEMORY_REPLAY_HPP
