#ifndef ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP
#define ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/detail/device_addresses.hpp"
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
/// Source: c10/cuda/CUDACachingAllocator.cpp of pytorch/pytorch at commit
/// 001074d25084fdb87a799823e395a50f5ec044d3 (the newest stored main-branch
/// snapshot at hand; the default-settings rules read the same at the older
/// snapshot eb42ad6eca0ce61e7c581212b4bf32f991425571), checked against the
/// newer main branch where the device allocator became a template shared by
/// backends (get_free_block compares with max_non_split_rounding_size instead
/// of kLargeBuffer; release_available_cached_blocks and
/// garbage_collect_cached_blocks skip expandable blocks; those are the rules
/// here). With the default settings (max_split_size = SIZE_MAX,
/// roundup_power2_divisions = 0, garbage_collection_threshold = 0,
/// expandable_segments = false) PyTorch 2.11.0+cu130 on an H200 reads the
/// bytes this model predicts in every row of every shape of the synthetic
/// network pinned in tests/unit/memory/prediction/synthetic_prediction_test.cpp; the other
/// settings' rules are checked against hand-worked cases
/// (tests/unit/memory/prediction/allocator_settings_test.cpp), not yet against a GPU.
///
/// Modelled, with the names of the functions they come from:
///   round_size            a request becomes a block of at least 512 bytes, a
///                         multiple of 512, or with roundup_power2_divisions
///                         the next division between powers of two
///                         (roundup_power2_next_division) above 512 x the
///                         divisions (block_size::for_request)
///   get_pool              blocks of at most 1 MiB live in the small pool, the
///                         others in the large pool (block_size::pool); the
///                         pools keep blocks per stream: a free block serves
///                         only its own stream (BlockComparatorSize orders
///                         by stream, size, address)
///   get_allocation_size   the segment reserved (cudaMalloc) when no cached
///                         block fits: 2 MiB for a small block, 20 MiB for a
///                         large one under 10 MiB, else the block rounded up
///                         to 2 MiB (block_size::segment_size)
///   get_free_block        best fit: the smallest cached free block of the
///                         stream and pool that is large enough, the lowest
///                         address among equal sizes; a cached block of
///                         max_split_size or more serves no request below
///                         it, and an oversize request only a block less
///                         than max_non_split_rounding larger; in expandable
///                         segments, the fit that can grow least
///   should_split          the rest of the chosen block becomes a free block
///                         of its own when it is at least 512 bytes (small
///                         pool, or any pool with expandable segments) or,
///                         for a request below max_split_size, more than
///                         1 MiB (large pool); otherwise the whole block is
///                         handed out and counted
///   alloc_found_block     allocated bytes grow by the block's size, not the
///                         request's
///   free_block, try_merge_blocks
///                         a freed block merges with its free neighbours of
///                         the same segment (and the same mapped state);
///                         segments stay reserved
///   malloc                short of a cached block: garbage collection (with
///                         a threshold and a capacity), alloc_block, then
///                         release_available_cached_blocks and alloc_block,
///                         then release_cached_blocks and alloc_block (one
///                         num_alloc_retries), then out of memory (num_ooms)
///   alloc_block           refused when the reserved bytes plus
///                         get_allocation_size would pass the capacity
///                         (set_per_process_memory_fraction's allowance,
///                         also standing for the memory cudaMalloc finds
///                         free), also with expandable segments
///   release_available_cached_blocks
///                         with a max_split_size: the smallest cached
///                         oversize block of at least max(request,
///                         max_split_size), else the largest ones of the
///                         stream until as many bytes are released
///   release_cached_blocks, release_blocks, release_block
///                         every cached block that is a whole segment is
///                         released, the large pool first (also emptyCache:
///                         empty_cache())
///   garbage_collect_cached_blocks, get_free_blocks_call_count
///                         above threshold x capacity reserved, whole cached
///                         large blocks at least as old as the mean (in
///                         get_free_block calls since cached) are released
///                         in the pool's order until the excess is reclaimed;
///                         only with a capacity, as PyTorch only with
///                         set_fraction
///   find_expandable_block, try_allocate_expandable_block, map_block
///                         expandable segments: one segment per stream and
///                         pool with an address space of 9/8 of the device's
///                         memory, grown at the lowest free range by pages of
///                         2 MiB (small) or 20 MiB (large); reserved counts
///                         the mapped bytes; the capacity bounds the
///                         reservation alloc_block asks (get_allocation_size),
///                         not the pages mapped, which may pass it
///   unmap_block, release_expandable_segment
///                         on release, the whole free pages are unmapped and
///                         a segment left with none mapped is dropped
///   record_trace          segment_alloc, segment_free, segment_map and
///                         segment_unmap with the segment's or the range's
///                         address and size, in PyTorch's order
///   NativeCachingAllocator::allocate
///                         a zero-byte request touches nothing; a request of
///                         2^60 bytes (1 EiB) or more fails at once
///   resetPeakStats        each peak becomes its current value
///
/// Not modelled (see replay_not_modelled): events that delay a free
/// (record_stream, insert_events, process_events), CUDA graph private pools
/// and memory pools, the free memory callbacks (IPC), the device's own
/// memory apart from the capacity (without one, cudaMalloc never fails),
/// large_segment_size_mb, per_process_memory_fraction given in the text,
/// PYTORCH_NO_CUDA_MEMORY_CACHING and the cudaMallocAsync backend. Device
/// addresses are simulated as the CUDA driver hands them out
/// (detail/device_addresses.hpp: chunks of whole 32 MiB handed out downward,
/// a segment in the unused part of a chunk where it fits, a range given back
/// taken again), unless place_next_segment_at names a free address, so that
/// a tie between two free blocks of the same size is decided as on the GPU.
/// The ranges the CUDA context used before the first segment are not known:
/// a segment the driver put there lands elsewhere in the simulation.
namespace iteragpu::memory::prediction {

/// 2^20 bytes.
inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20U;

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

inline constexpr byte_count minimum_block{512};                    ///< kMinBlockSize
inline constexpr byte_count largest_small_block{mebibyte};         ///< kSmallSize
inline constexpr byte_count small_segment{2 * mebibyte};           ///< kSmallBuffer
inline constexpr byte_count shared_large_segment{20 * mebibyte};   ///< kLargeBuffer
inline constexpr byte_count smallest_own_segment{10 * mebibyte};   ///< kMinLargeAlloc
inline constexpr byte_count large_segment_rounding{2 * mebibyte};  ///< kRoundLarge
/// NativeCachingAllocator::allocate refuses a request of 1 EiB or more.
inline constexpr byte_count first_refused_request{std::uint64_t{1} << 60U};

/// The allocator's two pools: blocks of at most 1 MiB, and the others.
enum class pool_kind { small, large };

/// Why an allocation failed.
enum class allocation_errc {
  request_too_large,  ///< 2^60 bytes or more, refused before any search
  out_of_memory,      ///< no cached block fits and no new segment fits in the capacity
  /// expandable segments, whose address space the device's memory sizes, on
  /// an allocator that was not told the device's memory: every request is refused
  device_memory_unknown,
};

/// A block size as the allocator rounds a request: at least 512 bytes, a
/// multiple of 512 (or of a power-of-two division step, itself a multiple
/// of 512), at most 2^60. Only for_request builds one, so the arithmetic on
/// it cannot overflow.
class block_size {
 public:
  /// The block a request of `request` bytes takes, or request_too_large from 2^60 bytes on.
  [[nodiscard]] static constexpr result<block_size, allocation_errc> for_request(byte_count request) noexcept {
    if (request >= first_refused_request) {
      return unexpected{allocation_errc::request_too_large};
    }
    if (request < minimum_block) {
      return block_size{minimum_block.value};
    }
    const std::uint64_t remainder = request.value % minimum_block.value;
    return block_size{remainder == 0 ? request.value : request.value - remainder + minimum_block.value};
  }

  /// The block a request takes under `settings` (round_size): below 512
  /// bytes, 512; when the request's bucket has n > 1 divisions and the
  /// request is above 512 x n bytes, the next of n equal steps between the
  /// powers of two around it (roundup_power2_next_division; a power of two
  /// stays); else a multiple of 512. request_too_large from 2^60 bytes on.
  [[nodiscard]] static constexpr result<block_size, allocation_errc> for_request(
      byte_count request, const allocator_settings& settings) noexcept {
    auto plain = for_request(request);
    if (!plain.has_value() || request < minimum_block) {
      return plain;
    }
    const std::uint64_t divisions = settings.divisions_for(request.value);
    // divisions <= (request - 1) / 512 is 512 x divisions < request, without overflow.
    if (divisions <= 1 || divisions > (request.value - 1) / minimum_block.value || std::has_single_bit(request.value)) {
      return plain;
    }
    // The power of two below the request is at least 512 x divisions, so a
    // step is at least 512 bytes (PyTorch's zero-step case cannot arise).
    const std::uint64_t floor = std::bit_floor(request.value);
    const std::uint64_t step = floor >> (static_cast<unsigned>(std::bit_width(divisions)) - 1U);
    const std::uint64_t below = request.value & ~(step - 1);
    return block_size{below == request.value ? below : below + step};
  }

  /// The rounded size.
  [[nodiscard]] constexpr byte_count bytes() const noexcept { return byte_count{bytes_}; }

  /// The pool a block of this size lives in.
  [[nodiscard]] constexpr pool_kind pool() const noexcept {
    return bytes_ <= largest_small_block.value ? pool_kind::small : pool_kind::large;
  }

  /// The segment reserved for this block when no cached block fits.
  [[nodiscard]] constexpr byte_count segment_size() const noexcept {
    if (pool() == pool_kind::small) {
      return small_segment;
    }
    if (bytes_ < smallest_own_segment.value) {
      return shared_large_segment;
    }
    const std::uint64_t remainder = bytes_ % large_segment_rounding.value;
    return byte_count{remainder == 0 ? bytes_ : bytes_ - remainder + large_segment_rounding.value};
  }

  /// Whether a free block of `chosen` bytes (at least this size) is split,
  /// the rest staying cached as a free block; written as sums so that a
  /// block smaller than this size reads "no split" instead of wrapping.
  [[nodiscard]] constexpr bool splits(byte_count chosen) const noexcept {
    if (pool() == pool_kind::small) {
      return chosen.value >= bytes_ + minimum_block.value;
    }
    return chosen.value > bytes_ + largest_small_block.value;
  }

  /// Equal when every member is equal.
  friend constexpr bool operator==(block_size, block_size) = default;

 private:
  constexpr explicit block_size(std::uint64_t bytes) noexcept : bytes_(bytes) {}

  std::uint64_t bytes_;
};

/// A block handed out, named by its simulated device address. Address 0 is
/// the empty allocation of a zero-byte request, as PyTorch's null pointer.
struct block_handle {
  std::uint64_t address{0};  ///< 0 for the empty allocation
  /// Equal when every member is equal.
  friend constexpr bool operator==(block_handle, block_handle) = default;
};

/// The allocator's counters as LibTorch's DeviceStats aggregate them.
struct allocator_statistics {
  byte_count allocated;       ///< bytes of the blocks in use
  byte_count reserved;        ///< bytes of the reserved segments
  byte_count peak_allocated;  ///< the largest allocated since the last reset
  byte_count peak_reserved;   ///< the largest reserved since the last reset
  /// Equal when every member is equal.
  friend constexpr bool operator==(const allocator_statistics&, const allocator_statistics&) = default;
};

/// Why an allocation failed, with the figures PyTorch's message carries.
struct allocation_error {
  /// Out of memory, a request of 2^60 bytes or more, or no device memory to size an expandable segment.
  allocation_errc code{allocation_errc::out_of_memory};
  byte_count requested;                  ///< as asked, before rounding
  byte_count segment;                    ///< the reservation that did not fit (0 for request_too_large)
  byte_count allocated;                  ///< after the cached segments were released
  byte_count reserved;                   ///< the reserved bytes at the failure
  std::optional<byte_count> capacity{};  ///< the allocator's capacity, when it has one
  /// Equal when every member is equal.
  friend bool operator==(const allocation_error&, const allocation_error&) = default;
};

/// Why a free was refused.
enum class free_errc {
  not_allocated,  ///< no block in use starts at that address (PyTorch: "invalid device pointer")
};

/// One block of a segment, as PyTorch's memory snapshot lists it.
struct block_view {
  std::uint64_t address{0};  ///< its simulated device address
  byte_count size;           ///< its size
  bool allocated{false};     ///< in use, or free and cached
  /// Equal when every member is equal.
  friend bool operator==(const block_view&, const block_view&) = default;
};

/// One reserved segment, as PyTorch's memory snapshot lists it.
struct segment_view {
  std::uint64_t address{0};          ///< its simulated device address
  byte_count size;                   ///< its size
  pool_kind pool{pool_kind::small};  ///< the pool it serves
  std::vector<block_view> blocks;    ///< in address order, covering the segment
  /// Equal when every member is equal.
  friend bool operator==(const segment_view&, const segment_view&) = default;
};

/// What a segment event did to the device memory, as PyTorch's trace names it.
enum class segment_action {
  segment_alloc,  ///< a segment reserved with cudaMalloc (alloc_block)
  segment_free,   ///< a segment given back with cudaFree (release_block)
  segment_map,    ///< pages mapped into an expandable segment (map_block)
  segment_unmap,  ///< pages of an expandable segment unmapped (unmap_block)
};

/// One reservation or release, with the fields PyTorch's record_trace gives
/// it: the address and size of the segment or of the mapped range.
struct segment_event {
  segment_action action{segment_action::segment_alloc};  ///< what happened
  std::uint64_t address{0};                              ///< the segment's or the range's simulated address
  byte_count size;                                       ///< its size
  std::uint64_t stream{0};                               ///< the stream the segment serves
  /// Equal when every member is equal.
  friend bool operator==(const segment_event&, const segment_event&) = default;
};

/// The allocator's event counts, as DeviceStats keeps them.
struct allocator_counters {
  std::uint64_t alloc_retries{0};  ///< num_alloc_retries: reservations tried again after release_cached_blocks
  std::uint64_t ooms{0};           ///< num_ooms: allocations that failed for lack of memory
  /// Equal when every member is equal.
  friend bool operator==(const allocator_counters&, const allocator_counters&) = default;
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
  explicit caching_allocator(byte_count capacity) : capacity_(capacity) {}
  /// The allocator under `settings`; `capacity`, when given, is the
  /// allowance of set_per_process_memory_fraction (allowed_memory_maximum),
  /// which also turns the garbage collection threshold on, as in PyTorch;
  /// `device_memory` (the card's totalGlobalMem) only sizes the address
  /// space of an expandable segment (9/8 of it): under expandable segments
  /// an allocator without it refuses every request (device_memory_unknown),
  /// for no card's size is assumed.
  caching_allocator(const allocator_settings& settings, std::optional<byte_count> capacity,
                    std::optional<byte_count> device_memory = std::nullopt)
      : settings_(settings), capacity_(capacity), device_memory_(device_memory) {}

  /// A block for `request` bytes on `stream`, found, split or reserved as
  /// PyTorch's allocator does (malloc); the failure carries the figures of
  /// PyTorch's out-of-memory message.
  [[nodiscard]] result<block_handle, allocation_error> allocate(byte_count request, std::uint64_t stream = 0);

  /// Frees the block in use at that address (free, free_block); the empty handle frees nothing.
  [[nodiscard]] result<void, free_errc> free(block_handle handle);

  /// Whether a request of `request` bytes on `stream` would find no cached
  /// block that serves it and a new reservation would pass the capacity: the
  /// allocator would release its cache and try again (or run out of memory).
  /// False without a capacity. Changes nothing.
  [[nodiscard]] bool would_release_for(byte_count request, std::uint64_t stream = 0) const;

  /// Gives every cached block that is a whole segment back to the device,
  /// and unmaps the free pages of expandable segments (emptyCache).
  void empty_cache() { release_cached_blocks(); }

  /// Makes the segment the next allocate() call reserves, if it reserves
  /// one, start at `address` when the segment would overlap no other there
  /// (else the simulation places it as usual); the hint lasts for that one
  /// call. A replay passes the address a recorded trace shows, so that
  /// blocks of equal size are chosen by address as the recorded run chose.
  void place_next_segment_at(std::uint64_t address) noexcept { placement_hint_ = address; }

  /// Takes over a segment the allocator already held where a recorded trace
  /// begins (recording began late, or the ring buffer wrapped): `size`
  /// bytes at `address`, serving `stream` in `pool`, with the blocks in use
  /// listed (in address order, inside the segment); the rest of it becomes
  /// cached free blocks, as free neighbours always merge. The segment and
  /// its blocks count in reserved and allocated; no segment event is made.
  /// Refused, with nothing changed, when it overlaps a segment already held,
  /// is empty, or a block lies outside it, overlaps another or is empty.
  [[nodiscard]] bool adopt_segment(std::uint64_t address, byte_count size, std::uint64_t stream, pool_kind pool,
                                   std::span<const block_view> in_use);

  /// The counters now.
  [[nodiscard]] allocator_statistics statistics() const noexcept;

  /// The retries and failures so far.
  [[nodiscard]] allocator_counters counters() const noexcept { return counters_; }

  /// Every reservation and release since the start or the last clear, in order.
  [[nodiscard]] std::span<const segment_event> segment_events() const noexcept { return events_; }

  /// Forgets the segment events recorded so far.
  void clear_segment_events() noexcept { events_.clear(); }

  /// Sets each peak to its current value (resetPeakStats).
  void reset_peaks() noexcept;

  /// Every reserved segment with its blocks, in address order; an expandable
  /// segment is listed as one segment per mapped range, as PyTorch's
  /// snapshot lists it.
  [[nodiscard]] std::vector<segment_view> segments() const;

 private:
  struct block {
    std::uint64_t size{0};
    std::uint64_t segment{0};  // the address of the segment it belongs to
    std::uint64_t stream{0};
    std::uint64_t gc_count_base{0};  // the pool's get_free_blocks_call_count when cached
    pool_kind pool{pool_kind::small};
    bool allocated{false};
    bool mapped{true};       // false for the unmapped address space of an expandable segment
    bool expandable{false};  // part of an expandable segment
  };
  struct segment {
    std::uint64_t size{0};  // an expandable segment's: its whole address space
    pool_kind pool{pool_kind::small};
  };
  using block_map = std::map<std::uint64_t, block>;
  // Cached free blocks ordered as BlockComparatorSize: stream, size, address.
  using free_key = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;
  // Unmapped ranges ordered as BlockComparatorAddress: stream, address.
  using unmapped_key = std::pair<std::uint64_t, std::uint64_t>;
  static constexpr std::size_t pool_count = 2;

  // Segments lie between 2 MiB (no block sits at address 0) and 2^47, where
  // the first one ends; each new one goes below the lowest held.
  static constexpr std::uint64_t first_segment_address = 2 * mebibyte;
  static constexpr std::uint64_t top_segment_address = std::uint64_t{1} << 47U;

  [[nodiscard]] static constexpr std::size_t index(pool_kind pool) noexcept { return pool == pool_kind::small ? 0 : 1; }
  // ExpandableSegment's segment_size_: 2 MiB pages for the small pool, 20 MiB for the large one.
  [[nodiscard]] static constexpr std::uint64_t page_size(pool_kind pool) noexcept {
    return pool == pool_kind::small ? small_segment.value : shared_large_segment.value;
  }
  [[nodiscard]] std::uint64_t max_split() const noexcept {
    return settings_.max_split_size ? settings_.max_split_size->value : UINT64_MAX;
  }
  [[nodiscard]] bool collects_garbage() const noexcept {
    return capacity_.has_value() && settings_.garbage_collection_threshold > 0.0;
  }
  [[nodiscard]] static free_key key_of(std::uint64_t address, const block& b) noexcept {
    return {b.stream, b.size, address};
  }

  // pool.insert_into_blocks: cached, its age counted from now.
  void insert_free(std::uint64_t address);
  void erase_free(std::uint64_t address, const block& b) { free_.at(index(b.pool)).erase(key_of(address, b)); }

  [[nodiscard]] block_map::iterator previous_in_segment(block_map::iterator it);
  [[nodiscard]] block_map::iterator next_in_segment(block_map::iterator it);
  // Block::is_split: it has a neighbour in its segment.
  [[nodiscard]] bool is_split(block_map::iterator it) {
    return previous_in_segment(it) != blocks_.end() || next_in_segment(it) != blocks_.end();
  }

  // try_merge_blocks with the block before, then the one after: a free
  // neighbour in the same mapped state is absorbed. The neighbours leave the
  // sets they were in; returns the merged block's address.
  std::uint64_t merge_with_neighbours(std::uint64_t address);

  void grow_reserved(std::uint64_t bytes) noexcept;

  // malloc: a cached block, else a new reservation, else out of memory.
  [[nodiscard]] result<block_handle, allocation_error> find_or_reserve(byte_count request, std::uint64_t stream);

  // alloc_found_block: the rest of the chosen block stays cached when
  // should_split says so; allocated bytes grow by the block's size.
  void alloc_found_block(std::uint64_t address, block_size size);

  // should_split: with expandable segments, or in the small pool, a rest of
  // 512 bytes or more; otherwise a request below max_split_size leaving a
  // rest of more than 1 MiB.
  [[nodiscard]] bool should_split(const block& b, block_size size) const noexcept;

  // get_free_block: the smallest cached block of the request's stream and
  // pool that is large enough (the lowest address among equal sizes); in an
  // expandable segment, the block that can grow least among those; an
  // oversize block serves no request below max_split_size, and an oversize
  // request only a block less than max_non_split_rounding larger.
  [[nodiscard]] std::optional<std::uint64_t> get_free_block(block_size size, std::uint64_t stream);

  // get_free_block's expandable_size: the block plus the unmapped range after it.
  [[nodiscard]] std::uint64_t expandable_size(std::uint64_t address);

  // alloc_block: refused when the reservation (get_allocation_size, also
  // with expandable segments) would pass the capacity; else a new segment
  // holding one block, or pages mapped into an expandable segment. The
  // retry after release_cached_blocks counts in num_alloc_retries.
  [[nodiscard]] std::optional<std::uint64_t> alloc_block(block_size size, std::uint64_t stream, bool retry);

  // Where a new segment of `bytes` starts: the hint when it overlaps no
  // segment, else where the driver would put it (addresses_), else just below
  // the lowest segment held (above the highest when no room is left below);
  // nothing when the address space is full.
  [[nodiscard]] std::optional<std::uint64_t> place(std::uint64_t bytes);

  [[nodiscard]] bool free_range(std::uint64_t address, std::uint64_t bytes) const;

  // try_allocate_expandable_block: the lowest range of the stream's
  // expandable segments with room for the block, mapped page by page where
  // needed; a mapping that fails leaves the pages mapped before it.
  [[nodiscard]] std::optional<std::uint64_t> try_allocate_expandable_block(block_size size, std::uint64_t stream);

  // find_expandable_block: the lowest unmapped range of the stream and pool
  // (with the free block just before it) that, with the free blocks after
  // it, holds `wanted` bytes; else a new expandable segment whose address
  // space is 9/8 of the device's memory, in whole pages.
  [[nodiscard]] std::optional<std::uint64_t> find_expandable_block(pool_kind pool, std::uint64_t stream,
                                                                   std::uint64_t wanted);

  // map_block: the first `bytes` of an unmapped range, rounded up to whole
  // pages, become a free block merged with its free neighbours.
  [[nodiscard]] std::optional<std::uint64_t> map_block(std::uint64_t address, std::uint64_t bytes);

  // unmap_block: the whole pages inside a free block of an expandable
  // segment are unmapped; the parts before and after them stay cached.
  // Returns the address of the unmapped range after merging, if any.
  std::optional<std::uint64_t> unmap_block(std::uint64_t address);

  // release_block: a cached block that is a whole segment goes back to the device.
  void release_block(std::uint64_t address);

  // release_cached_blocks (release_blocks on the large pool, then the small
  // one): every whole-segment cached block is released, then the free pages
  // of expandable segments are unmapped, and an expandable segment left
  // with no page mapped is dropped (release_expandable_segment).
  void release_cached_blocks();

  // release_available_cached_blocks: with a max_split_size, the smallest
  // cached oversize block of at least max(request, max_split_size) is
  // released; failing one, the largest oversize blocks of the stream until
  // as many bytes are released (expandable ones skipped).
  [[nodiscard]] bool release_available_cached_blocks(block_size size, std::uint64_t stream);

  // garbage_collect_cached_blocks: above threshold x capacity reserved,
  // whole cached blocks of the large pool whose age (get_free_block calls
  // since they were cached) is at least the mean age are released, in the
  // pool's order, the mean taken again after each pass, until the excess is
  // reclaimed or no block goes.
  void garbage_collect_cached_blocks();

  [[nodiscard]] allocation_error failure(allocation_errc error, byte_count requested, byte_count segment_bytes) const {
    return {error, requested, segment_bytes, byte_count{allocated_}, byte_count{reserved_}, capacity_};
  }

  allocator_settings settings_{};
  std::optional<byte_count> capacity_{};
  std::optional<byte_count> device_memory_{};
  block_map blocks_;  // every block, by address
  std::map<std::uint64_t, segment> segments_;
  detail::device_address_space addresses_;  // where the driver puts the next segment
  std::array<std::set<free_key>, pool_count> free_{};
  std::array<std::set<unmapped_key>, pool_count> unmapped_{};
  std::array<std::uint64_t, pool_count> gc_calls_{};  // get_free_blocks_call_count of each pool
  std::vector<segment_event> events_;
  std::optional<std::uint64_t> placement_hint_{};
  allocator_counters counters_{};
  std::uint64_t allocated_{0};
  std::uint64_t reserved_{0};
  std::uint64_t peak_allocated_{0};
  std::uint64_t peak_reserved_{0};
};

}  // namespace iteragpu::memory::prediction

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/impl/caching_allocator.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_CACHING_ALLOCATOR_HPP
