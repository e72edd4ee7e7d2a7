#ifndef ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_VALUES_HPP
#define ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_VALUES_HPP

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The values of the simulated caching allocator (caching_allocator.hpp):
/// how PyTorch's CUDA caching allocator rounds a request, which pool its
/// block lives in and which segment it reserves for it
/// (c10/cuda/CUDACachingAllocator.cpp: round_size, get_pool,
/// get_allocation_size, should_split), what it hands back (a block, its
/// counters, its segments and segment events as PyTorch's memory snapshot
/// names them) and why a call fails.
namespace iteragpu::memory::prediction {

/// 2^20 bytes.
inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20U;

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

/// Why a segment a recorded trace shows held where it begins could not be
/// taken over (caching_allocator::adopt_segment).
enum class adopt_errc {
  empty_segment,  ///< its address or its size is zero, or it passes 2^64
  overlaps,       ///< it overlaps a segment already held
  block_outside,  ///< a block in use lies outside it, or starts before the end of the one before
  empty_block,    ///< a block in use of zero bytes
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

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_VALUES_HPP
