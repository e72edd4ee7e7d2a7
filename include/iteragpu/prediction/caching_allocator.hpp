#ifndef ITERAGPU_PREDICTION_CACHING_ALLOCATOR_HPP
#define ITERAGPU_PREDICTION_CACHING_ALLOCATOR_HPP

#include <array>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

// PyTorch's CUDA caching allocator for one device and one stream, with its
// default settings, simulated byte for byte: what LibTorch's counters
// (allocated, reserved, and the peak of each) read after any sequence of
// allocations and frees.
//
// Source: c10/cuda/CUDACachingAllocator.cpp of pytorch/pytorch at commit
// 001074d25084fdb87a799823e395a50f5ec044d3 (the newest stored main-branch
// snapshot at hand; the rules below read the same at the older snapshot
// eb42ad6eca0ce61e7c581212b4bf32f991425571), and the defaults of
// CUDAAllocatorConfig (c10/cuda/CUDAAllocatorConfig.{h,cpp}): max_split_size
// = SIZE_MAX, roundup_power2_divisions = 0, garbage_collection_threshold =
// 0, expandable_segments = false. PyTorch 2.11.0+cu130 on an H200 reads the
// bytes this model predicts in every row of every shape of the synthetic
// network pinned in tests/unit/synthetic_prediction_test.cpp.
//
// Modelled, with the names of the functions they come from:
//   round_size            a request becomes a block of at least 512 bytes, a
//                         multiple of 512 (block_size::for_request)
//   get_pool              blocks of at most 1 MiB live in the small pool, the
//                         others in the large pool (block_size::pool)
//   get_allocation_size   the segment reserved (cudaMalloc) when no cached
//                         block fits: 2 MiB for a small block, 20 MiB for a
//                         large one under 10 MiB, else the block rounded up
//                         to 2 MiB (block_size::segment_size)
//   get_free_block        best fit: the smallest cached free block of the
//                         pool that is large enough, the lowest address
//                         among equal sizes
//   should_split          the rest of the chosen block becomes a free block
//                         of its own when it is at least 512 bytes (small
//                         pool) or more than 1 MiB (large pool); otherwise
//                         the whole block is handed out and counted
//   alloc_found_block     allocated bytes grow by the block's size, not the
//                         request's
//   free_block, try_merge_blocks
//                         a freed block merges with its free neighbours of
//                         the same segment; segments stay reserved
//   malloc's out-of-memory path
//                         when a new segment would take the reserved bytes
//                         past the capacity, every cached segment with no
//                         block in use is released (release_cached_blocks)
//                         and the reservation tried once more; then the
//                         request fails (release_available_cached_blocks
//                         frees nothing with the default max_split_size).
//                         The capacity is checked as alloc_block checks
//                         set_per_process_memory_fraction's allowance; it
//                         also stands for the memory cudaMalloc finds free.
//   NativeCachingAllocator::allocate
//                         a zero-byte request touches nothing; a request of
//                         2^60 bytes (1 EiB) or more fails at once
//   resetPeakStats        each peak becomes its current value
//
// Not modelled (a run with any of these set may read other bytes):
//   expandable segments (expandable_segments:True), max_split_size_mb and
//   max_non_split_rounding_mb (oversize blocks, release_available_cached_
//   blocks), roundup_power2_divisions, the garbage collection threshold
//   (garbage_collect_cached_blocks), several streams (record_stream, events
//   that delay a free), CUDA graph private pools and memory pools, the free
//   memory callbacks (IPC), emptyCache() called by the program, and
//   PYTORCH_NO_CUDA_MEMORY_CACHING. Device addresses are simulated: a new
//   segment is placed above every earlier one, so a tie between two free
//   blocks of the same size goes to the older segment, where cudaMalloc may
//   order them otherwise.
namespace iteragpu::prediction {

inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20U;

// The allocator settings the simulation does not model, as the outputs name
// them wherever a prediction is printed: a run with any of them set may read
// other bytes.
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

inline constexpr byte_count minimum_block{512};                  // kMinBlockSize
inline constexpr byte_count largest_small_block{mebibyte};       // kSmallSize
inline constexpr byte_count small_segment{2 * mebibyte};         // kSmallBuffer
inline constexpr byte_count shared_large_segment{20 * mebibyte}; // kLargeBuffer
inline constexpr byte_count smallest_own_segment{10 * mebibyte}; // kMinLargeAlloc
inline constexpr byte_count large_segment_rounding{2 * mebibyte}; // kRoundLarge
// NativeCachingAllocator::allocate refuses a request of 1 EiB or more.
inline constexpr byte_count first_refused_request{std::uint64_t{1} << 60U};

enum class pool_kind { small, large };

enum class allocation_error {
  request_too_large,  // 2^60 bytes or more, refused before any search
  out_of_memory,      // no cached block fits and no new segment fits in the capacity
};

// A block size as the allocator rounds a request: at least 512 bytes, a
// multiple of 512, below 2^60 + 512. Only for_request builds one, so the
// arithmetic on it cannot overflow.
class block_size {
 public:
  [[nodiscard]] static constexpr result<block_size, allocation_error> for_request(byte_count request) noexcept {
    if (request >= first_refused_request) {
      return unexpected{allocation_error::request_too_large};
    }
    if (request < minimum_block) {
      return block_size{minimum_block.value};
    }
    const std::uint64_t remainder = request.value % minimum_block.value;
    return block_size{remainder == 0 ? request.value : request.value - remainder + minimum_block.value};
  }

  [[nodiscard]] constexpr byte_count bytes() const noexcept { return byte_count{bytes_}; }

  [[nodiscard]] constexpr pool_kind pool() const noexcept {
    return bytes_ <= largest_small_block.value ? pool_kind::small : pool_kind::large;
  }

  // The segment reserved for this block when no cached block fits.
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

  // Whether a free block of `chosen` bytes (at least this size) is split,
  // the rest staying cached as a free block; written as sums so that a
  // block smaller than this size reads "no split" instead of wrapping.
  [[nodiscard]] constexpr bool splits(byte_count chosen) const noexcept {
    if (pool() == pool_kind::small) {
      return chosen.value >= bytes_ + minimum_block.value;
    }
    return chosen.value > bytes_ + largest_small_block.value;
  }

  friend constexpr bool operator==(block_size, block_size) = default;

 private:
  constexpr explicit block_size(std::uint64_t bytes) noexcept : bytes_(bytes) {}

  std::uint64_t bytes_;
};

// A block handed out, named by its simulated device address. Address 0 is
// the empty allocation of a zero-byte request, as PyTorch's null pointer.
struct block_handle {
  std::uint64_t address{0};
  friend constexpr bool operator==(block_handle, block_handle) = default;
};

// The allocator's counters as LibTorch's DeviceStats aggregate them.
struct allocator_statistics {
  byte_count allocated;
  byte_count reserved;
  byte_count peak_allocated;
  byte_count peak_reserved;
  friend constexpr bool operator==(const allocator_statistics&, const allocator_statistics&) = default;
};

// Why an allocation failed, with the figures PyTorch's message carries.
struct allocation_failure {
  allocation_error error{allocation_error::out_of_memory};
  byte_count requested;  // as asked, before rounding
  byte_count segment;    // the reservation that did not fit (0 for request_too_large)
  byte_count allocated;  // after the cached segments were released
  byte_count reserved;
  std::optional<byte_count> capacity{};
  friend bool operator==(const allocation_failure&, const allocation_failure&) = default;
};

enum class free_error {
  not_allocated,  // no block in use starts at that address (PyTorch: "invalid device pointer")
};

// One block of a segment, as PyTorch's memory snapshot lists it.
struct block_view {
  std::uint64_t address{0};
  byte_count size;
  bool allocated{false};
  friend bool operator==(const block_view&, const block_view&) = default;
};

struct segment_view {
  std::uint64_t address{0};
  byte_count size;
  pool_kind pool{pool_kind::small};
  std::vector<block_view> blocks;  // in address order, covering the segment
  friend bool operator==(const segment_view&, const segment_view&) = default;
};

class caching_allocator {
 public:
  // A device whose memory never runs out.
  caching_allocator() = default;
  // A device on which the segments reserved together may not pass
  // `capacity` bytes (the memory left to the allocator: the card's memory
  // less the CUDA context, the libraries' handles and other processes).
  explicit caching_allocator(byte_count capacity) : capacity_(capacity) {}

  [[nodiscard]] result<block_handle, allocation_failure> allocate(byte_count request) {
    if (request.value == 0) {
      return block_handle{};
    }
    const auto rounded = block_size::for_request(request);
    if (!rounded.has_value()) {
      return unexpected{failure(rounded.error(), request, byte_count{})};
    }
    const block_size size = *rounded;
    auto chosen = take_best_fit(size);
    if (!chosen) {
      chosen = reserve_segment(size);
      if (!chosen) {
        release_cached_segments();
        chosen = reserve_segment(size);
      }
      if (!chosen) {
        return unexpected{failure(allocation_error::out_of_memory, request, size.segment_size())};
      }
    }
    const std::uint64_t address = *chosen;
    block& taken = blocks_.at(address);
    if (size.splits(byte_count{taken.size})) {
      const std::uint64_t rest_address = address + size.bytes().value;
      const block rest{taken.size - size.bytes().value, taken.segment, false};
      taken.size = size.bytes().value;
      blocks_.emplace(rest_address, rest);
      free_blocks(pool_of(rest)).emplace(rest.size, rest_address);
    }
    taken.allocated = true;
    allocated_ += taken.size;
    peak_allocated_ = allocated_ > peak_allocated_ ? allocated_ : peak_allocated_;
    return block_handle{address};
  }

  // Frees the block in use at that address; the empty handle frees nothing.
  [[nodiscard]] result<void, free_error> free(block_handle handle) {
    if (handle.address == 0) {
      return {};
    }
    auto it = blocks_.find(handle.address);
    if (it == blocks_.end() || !it->second.allocated) {
      return unexpected{free_error::not_allocated};
    }
    it->second.allocated = false;
    allocated_ -= it->second.size;
    if (it != blocks_.begin()) {
      const auto before = std::prev(it);
      if (mergeable(before->second, it->second)) {
        forget_free(before);
        before->second.size += it->second.size;
        blocks_.erase(it);
        it = before;
      }
    }
    const auto after = std::next(it);
    if (after != blocks_.end() && mergeable(after->second, it->second)) {
      forget_free(after);
      it->second.size += after->second.size;
      blocks_.erase(after);
    }
    free_blocks(pool_of(it->second)).emplace(it->second.size, it->first);
    return {};
  }

  [[nodiscard]] allocator_statistics statistics() const noexcept {
    return {byte_count{allocated_}, byte_count{reserved_}, byte_count{peak_allocated_}, byte_count{peak_reserved_}};
  }

  void reset_peaks() noexcept {
    peak_allocated_ = allocated_;
    peak_reserved_ = reserved_;
  }

  // Every reserved segment with its blocks, in address order.
  [[nodiscard]] std::vector<segment_view> segments() const {
    std::vector<segment_view> views;
    views.reserve(segments_.size());
    for (const auto& [address, s] : segments_) {
      segment_view view{address, byte_count{s.size}, s.pool, {}};
      for (auto it = blocks_.find(address); it != blocks_.end() && it->second.segment == address; ++it) {
        view.blocks.push_back({it->first, byte_count{it->second.size}, it->second.allocated});
      }
      views.push_back(std::move(view));
    }
    return views;
  }

 private:
  struct block {
    std::uint64_t size{0};
    std::uint64_t segment{0};  // the address of the segment it belongs to
    bool allocated{false};
  };
  struct segment {
    std::uint64_t size{0};
    pool_kind pool{pool_kind::small};
  };
  // Free blocks ordered as PyTorch's BlockComparatorSize: size, then address.
  using free_set = std::set<std::pair<std::uint64_t, std::uint64_t>>;

  // Segments are placed from 2 MiB up, so that no block sits at address 0.
  static constexpr std::uint64_t first_segment_address = 2 * mebibyte;

  [[nodiscard]] free_set& free_blocks(pool_kind pool) noexcept {
    return pool == pool_kind::small ? small_free_ : large_free_;
  }
  [[nodiscard]] pool_kind pool_of(const block& b) const { return segments_.at(b.segment).pool; }

  [[nodiscard]] static bool mergeable(const block& neighbour, const block& freed) noexcept {
    return neighbour.segment == freed.segment && !neighbour.allocated;
  }

  void forget_free(std::map<std::uint64_t, block>::const_iterator it) {
    free_blocks(pool_of(it->second)).erase({it->second.size, it->first});
  }

  // get_free_block: the smallest cached block that fits, removed from the
  // pool's free set.
  [[nodiscard]] std::optional<std::uint64_t> take_best_fit(block_size size) {
    free_set& pool = free_blocks(size.pool());
    const auto it = pool.lower_bound({size.bytes().value, 0});
    if (it == pool.end()) {
      return std::nullopt;
    }
    const std::uint64_t address = it->second;
    pool.erase(it);
    return address;
  }

  // alloc_block: a new segment holding one block, or nothing when it does
  // not fit in the capacity (or the simulated address space).
  [[nodiscard]] std::optional<std::uint64_t> reserve_segment(block_size size) {
    const std::uint64_t bytes = size.segment_size().value;
    const auto reserved = checked_add(reserved_, bytes);
    const auto end = checked_add(next_segment_address_, bytes);
    if (!reserved || !end || (capacity_ && *reserved > capacity_->value)) {
      return std::nullopt;
    }
    const std::uint64_t address = next_segment_address_;
    next_segment_address_ = *end;
    segments_.emplace(address, segment{bytes, size.pool()});
    blocks_.emplace(address, block{bytes, address, false});
    reserved_ = *reserved;
    peak_reserved_ = reserved_ > peak_reserved_ ? reserved_ : peak_reserved_;
    return address;
  }

  // release_cached_blocks: every free block that is a whole segment goes
  // back to the device, the large pool first.
  void release_cached_segments() {
    for (free_set* pool : {&large_free_, &small_free_}) {
      for (auto it = pool->begin(); it != pool->end();) {
        const auto [size, address] = *it;
        const auto whole = segments_.find(address);
        if (whole != segments_.end() && whole->second.size == size) {
          segments_.erase(whole);
          blocks_.erase(address);
          reserved_ -= size;
          it = pool->erase(it);
        } else {
          ++it;
        }
      }
    }
  }

  [[nodiscard]] allocation_failure failure(allocation_error error, byte_count requested, byte_count segment_bytes) const {
    return {error, requested, segment_bytes, byte_count{allocated_}, byte_count{reserved_}, capacity_};
  }

  std::optional<byte_count> capacity_{};
  std::map<std::uint64_t, block> blocks_;  // every block, by address
  std::map<std::uint64_t, segment> segments_;
  free_set small_free_;
  free_set large_free_;
  std::uint64_t next_segment_address_{first_segment_address};
  std::uint64_t allocated_{0};
  std::uint64_t reserved_{0};
  std::uint64_t peak_allocated_{0};
  std::uint64_t peak_reserved_{0};
};

}  // namespace iteragpu::prediction

#endif  // ITERAGPU_PREDICTION_CACHING_ALLOCATOR_HPP
