#ifndef ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP
#define ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/allocator_values.hpp"
#include "iteragpu/memory/prediction/detail/device_allocator.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// PyTorch's CUDA caching allocator for one device, simulated byte for byte:
/// what LibTorch's counters (allocated, reserved, and the peak of each) read
/// after any sequence of allocations and frees, under the settings of
/// PYTORCH_CUDA_ALLOC_CONF that shape reserved memory (allocator_settings.hpp),
/// on any number of streams, with or without a capacity; and the segment
/// events (segment_alloc, segment_free, segment_map, segment_unmap) that
/// PyTorch's memory history would record, so that a recorded trace can be
/// replayed under other settings and capacities and checked event by event.
///
/// Each rule of c10/cuda/CUDACachingAllocator.cpp (malloc, get_free_block,
/// should_split, alloc_block, release_available_cached_blocks,
/// release_cached_blocks, garbage_collect_cached_blocks, the expandable
/// segments' map_block and unmap_block, ...) is written once, its comment
/// naming the PyTorch function beside its body, in
/// detail/impl/device_allocator.ipp; the values it hands back are in
/// allocator_values.hpp. Where the CUDA driver puts a new segment, which
/// decides a tie between two free blocks of one size, is modelled from the
/// oracle's traces (detail/device_addresses.hpp). The simulation is checked
/// against PyTorch 2.11's own allocator making the same requests on the GPU
/// (docs/oracle.md), and can be on any GPU through the replay's on-GPU check.
///
/// Not modelled (see replay_not_modelled): events that delay a free
/// (record_stream, insert_events, process_events), CUDA graph private pools
/// and memory pools, the free memory callbacks (IPC), the device's own
/// memory apart from the capacity (without one, cudaMalloc never fails),
/// large_segment_size_mb, per_process_memory_fraction given in the text,
/// PYTORCH_NO_CUDA_MEMORY_CACHING and the cudaMallocAsync backend, and the
/// ranges the CUDA context used before the first segment.
///
/// **Example**
/// \code
/// caching_allocator a(parse_alloc_conf("expandable_segments:True").value(), byte_count{8ULL << 30U},
///                     h200_device_memory);
/// const auto block = a.allocate(byte_count{21ULL << 20U});   // maps two pages of 20 MiB
/// static_cast<void>(a.free(block.value()));
/// a.statistics().peak_reserved;                             // 40 MiB
/// \endcode
namespace iteragpu::memory::prediction {

/// What the synthetic prediction does not account for, as the outputs name
/// it wherever a prediction is printed (the prediction runs the allocator
/// with its default settings on one stream, without emptyCache): a run with
/// any of these set may read other bytes. The words are pinned by the
/// measurement files and their schema.
inline constexpr std::array<std::string_view, 8> not_modelled{
    "expandable_segments",
    "max_split_size_mb and max_non_split_rounding_mb",
    "roundup_power2_divisions",
    "garbage_collection_threshold",
    "several streams (record_stream)",
    "CUDA graph pools and memory pools",
    "emptyCache() called by the program",
    "PYTORCH_NO_CUDA_MEMORY_CACHING",
};

/// What a replay of a recorded trace through the simulation does not
/// account for (every setting of allocator_settings is modelled): a run that
/// depends on any of these may read other bytes than the replay.
inline constexpr std::array<std::string_view, 7> replay_not_modelled{
    "events that delay a free (record_stream on another stream)",
    "CUDA graph pools and memory pools",
    "the free memory callbacks (IPC)",
    "the device's own memory apart from the capacity",
    "large_segment_size_mb, per_process_memory_fraction and expandable_segments_reserve",
    "PYTORCH_NO_CUDA_MEMORY_CACHING",
    "backend:cudaMallocAsync",
};

/// An H200's totalGlobalMem (as PyTorch 2.11 reads it), the device_memory of a replay on that card.
inline constexpr byte_count h200_device_memory{150'109'880'320};

/// The simulated allocator of one device (see the file's description for what it models).
class caching_allocator {
 public:
  /// A device whose memory never runs out, with PyTorch's default settings.
  caching_allocator() = default;
  /// A device on which the segments reserved together may not pass
  /// `capacity` bytes (the memory left to the allocator: the card's memory
  /// less the CUDA context, the libraries' handles and other processes).
  explicit caching_allocator(byte_count capacity) : core_(allocator_settings{}, capacity, std::nullopt) {}
  /// The allocator under `settings`; `capacity`, when given, is the
  /// allowance of set_per_process_memory_fraction (allowed_memory_maximum),
  /// which also turns the garbage collection threshold on, as in PyTorch;
  /// `device_memory` (the card's totalGlobalMem) only sizes the address
  /// space of an expandable segment (9/8 of it): under expandable segments
  /// an allocator without it refuses every request (device_memory_unknown),
  /// for no card's size is assumed.
  caching_allocator(const allocator_settings& settings, std::optional<byte_count> capacity,
                    std::optional<byte_count> device_memory = std::nullopt)
      : core_(settings, capacity, device_memory) {}

  /// A block for `request` bytes on `stream`, found, split or reserved as
  /// PyTorch's allocator does (malloc); the failure carries the figures of
  /// PyTorch's out-of-memory message.
  [[nodiscard]] result<block_handle, allocation_error> allocate(byte_count request, std::uint64_t stream = 0) {
    return core_.malloc(request, stream);
  }

  /// Frees the block in use at that address (free, free_block); the empty handle frees nothing.
  [[nodiscard]] result<void, free_errc> free(block_handle handle) { return core_.free(handle); }

  /// Whether a request of `request` bytes on `stream` would find no cached
  /// block that serves it and a new reservation would pass the capacity: the
  /// allocator would release its cache and try again (or run out of memory).
  /// False without a capacity. Changes nothing.
  [[nodiscard]] bool would_release_for(byte_count request, std::uint64_t stream = 0) const {
    return core_.would_release_for(request, stream);
  }

  /// Gives every cached block that is a whole segment back to the device,
  /// and unmaps the free pages of expandable segments (emptyCache).
  void empty_cache() { core_.release_cached_blocks(); }

  /// Makes the segment the next allocate() call reserves, if it reserves
  /// one, start at `address` when the segment would overlap no other there
  /// (else the simulation places it as usual); the hint lasts for that one
  /// call. A replay passes the address a recorded trace shows, so that
  /// blocks of equal size are chosen by address as the recorded run chose.
  void place_next_segment_at(std::uint64_t address) noexcept { core_.place_next_segment_at(address); }

  /// Takes over a segment the allocator already held where a recorded trace
  /// begins (recording began late, or the ring buffer wrapped): `size`
  /// bytes at `address`, serving `stream` in `pool`, with the blocks in use
  /// listed (in address order, inside the segment); the rest of it becomes
  /// cached free blocks, as free neighbours always merge. The segment and
  /// its blocks count in reserved and allocated; no segment event is made.
  /// Refused, with nothing changed, when the segment is empty or overlaps one
  /// already held, or a block lies outside it, overlaps another or is empty.
  [[nodiscard]] result<void, adopt_errc> adopt_segment(std::uint64_t address, byte_count size, std::uint64_t stream,
                                                       pool_kind pool, std::span<const block_view> in_use) {
    return core_.adopt_segment(address, size, stream, pool, in_use);
  }

  /// The counters now.
  [[nodiscard]] allocator_statistics statistics() const noexcept { return core_.statistics(); }

  /// The retries and failures so far.
  [[nodiscard]] allocator_counters counters() const noexcept { return core_.counters(); }

  /// Every reservation and release since the start or the last clear, in order.
  [[nodiscard]] std::span<const segment_event> segment_events() const noexcept { return core_.segment_events(); }

  /// Forgets the segment events recorded so far.
  void clear_segment_events() noexcept { core_.clear_segment_events(); }

  /// Sets each peak to its current value (resetPeakStats).
  void reset_peaks() noexcept { core_.reset_peaks(); }

  /// Every reserved segment with its blocks, in address order; an expandable
  /// segment is listed as one segment per mapped range, as PyTorch's
  /// snapshot lists it.
  [[nodiscard]] std::vector<segment_view> segments() const { return core_.segments(); }

 private:
  detail::device_allocator core_;
};

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP
