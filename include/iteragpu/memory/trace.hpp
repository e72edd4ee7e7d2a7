#ifndef ITERAGPU_MEMORY_TRACE_HPP
#define ITERAGPU_MEMORY_TRACE_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/units.hpp"

/// \file
/// What a PyTorch program did to its caching allocator, as
/// `torch.cuda.memory._record_memory_history()` records it and
/// `torch.cuda.memory._snapshot()` returns it: per device, the events in
/// the order they happened, and the segments the allocator held when the
/// snapshot was taken. Plain values; memory/files/snapshot.hpp reads them
/// from the pickle or JSON file, memory/replay.hpp runs them through the
/// simulated allocator.
///
/// Writers in PyTorch (c10/cuda/CUDACachingAllocator.cpp, record_trace):
/// `alloc` (the block's address and the size asked for, before rounding),
/// `free_requested` and `free_completed` (the block and its requested size:
/// a free is completed at once unless the block was used on another stream,
/// whose events delay it), `segment_alloc` / `segment_free` (cudaMalloc and
/// cudaFree of a whole segment), `segment_map` / `segment_unmap` (pages of
/// an expandable segment), `oom` (an allocation that failed; its address
/// field holds the device's free bytes), `snapshot` (a snapshot was taken).
namespace iteragpu::memory {

/// The kind of a trace event, as `action` names it.
enum class trace_action {
  alloc,           ///< a block handed out
  free_requested,  ///< the program freed a block
  free_completed,  ///< the block went back to the cache
  segment_alloc,   ///< a segment reserved (cudaMalloc)
  segment_free,    ///< a segment released (cudaFree)
  segment_map,     ///< pages mapped into an expandable segment
  segment_unmap,   ///< pages unmapped from an expandable segment
  oom,             ///< an allocation that failed (the program may have caught it)
  snapshot,        ///< a snapshot taken
  other,           ///< an action this reader does not act on (`user_defined`: an annotation)
};

/// One event of a device's trace.
struct trace_event {
  trace_action action{trace_action::other};  ///< what happened
  std::uint64_t address{0};                  ///< the block's or range's address (device free bytes for oom)
  std::uint64_t size{0};                     ///< bytes: asked for (alloc, frees), reserved or mapped (segments)
  std::uint64_t stream{0};                   ///< the stream it belongs to
  friend bool operator==(const trace_event&, const trace_event&) = default;
};

/// The state of a block of a recorded segment, as the snapshot names it.
enum class block_state {
  active_allocated,     ///< in use
  active_pending_free,  ///< freed by the program, waiting for another stream
  inactive,             ///< free and cached
};

/// A block of a segment held when the snapshot was taken.
struct recorded_block {
  std::uint64_t address{0};                  ///< its address
  std::uint64_t size{0};                     ///< its size (rounded)
  std::uint64_t requested_size{0};           ///< the size asked for (0 for a free block)
  block_state state{block_state::inactive};  ///< in use or not
  friend bool operator==(const recorded_block&, const recorded_block&) = default;
};

/// A segment held when the snapshot was taken.
struct recorded_segment {
  std::uint64_t address{0};            ///< its address
  std::uint64_t total_size{0};         ///< bytes reserved (mapped, for an expandable segment)
  std::uint64_t stream{0};             ///< the stream it serves
  bool small_pool{false};              ///< `segment_type` "small"
  bool expandable{false};              ///< `is_expandable`
  std::vector<recorded_block> blocks;  ///< in address order
  friend bool operator==(const recorded_segment&, const recorded_segment&) = default;
};

/// One device's part of a snapshot.
struct device_trace {
  std::vector<trace_event> events;         ///< in the order they happened
  std::vector<recorded_segment> segments;  ///< held when the snapshot was taken
  friend bool operator==(const device_trace&, const device_trace&) = default;
};

/// The allocator settings a snapshot records (PyTorch 2.3 and later).
struct recorded_settings {
  std::string alloc_conf;                       ///< PYTORCH_CUDA_ALLOC_CONF as the process saw it
  std::optional<std::uint64_t> max_split_size;  ///< bytes; none when unlimited (-1 in the file)
  double garbage_collection_threshold{0.0};     ///< 0 when off
  bool expandable_segments{false};              ///< expandable_segments:True
  /// roundup_power2_divisions per power-of-two size (the key, in MiB as the
  /// snapshot writes it, and its divisions), in the file's order.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> roundup_power2_divisions;
  friend bool operator==(const recorded_settings&, const recorded_settings&) = default;
};

/// A whole snapshot: one trace per device, and the settings when recorded.
struct snapshot {
  std::vector<device_trace> devices;            ///< by device index
  std::optional<recorded_settings> settings{};  ///< absent before PyTorch 2.3
  friend bool operator==(const snapshot&, const snapshot&) = default;
};

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_TRACE_HPP
