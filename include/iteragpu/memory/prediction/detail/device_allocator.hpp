#ifndef ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ALLOCATOR_HPP
#define ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ALLOCATOR_HPP

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/allocator_values.hpp"
#include "iteragpu/memory/prediction/detail/device_addresses.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

// The state and the rules of the simulated caching allocator
// (caching_allocator.hpp is its public face): PyTorch's
// DeviceCachingAllocator of c10/cuda/CUDACachingAllocator.cpp, one rule per
// function. The bodies, each beside the comment that names the PyTorch
// function it mirrors and says what it does, are in
// impl/device_allocator.ipp.
namespace iteragpu::memory::prediction::detail {

// Block: a part of a segment, free or in use, mapped or not.
struct block {
  std::uint64_t size{0};
  std::uint64_t segment{0};  // the address of the segment it belongs to
  std::uint64_t stream{0};
  std::uint64_t gc_count_base{0};  // its pool's get_free_blocks_call_count when it was cached
  pool_kind pool{pool_kind::small};
  bool allocated{false};
  bool mapped{true};       // false for the unmapped address space of an expandable segment
  bool expandable{false};  // part of an expandable segment
};

// A reserved segment: cudaMalloc's, or an expandable segment's address space.
struct segment {
  std::uint64_t size{0};
  pool_kind pool{pool_kind::small};
};

// A cached free block's place in its pool (BlockPool::blocks), ordered as
// BlockComparatorSize: stream, size, address.
struct free_key {
  std::uint64_t stream{0};
  std::uint64_t size{0};
  std::uint64_t address{0};
  // NOLINTNEXTLINE(modernize-use-nullptr)
  friend constexpr auto operator<=>(const free_key&, const free_key&) = default;
};

// An unmapped range's place in its pool (BlockPool::unmapped), ordered as
// BlockComparatorAddress: stream, address.
struct unmapped_key {
  std::uint64_t stream{0};
  std::uint64_t address{0};
  // NOLINTNEXTLINE(modernize-use-nullptr)
  friend constexpr auto operator<=>(const unmapped_key&, const unmapped_key&) = default;
};

class device_allocator {
 public:
  device_allocator() = default;
  device_allocator(const allocator_settings& settings, std::optional<byte_count> capacity,
                   std::optional<byte_count> device_memory)
      : settings_(settings), capacity_(capacity), device_memory_(device_memory) {}

  [[nodiscard]] result<block_handle, allocation_error> malloc(byte_count request, std::uint64_t stream);
  [[nodiscard]] result<void, free_errc> free(block_handle handle);
  [[nodiscard]] bool would_release_for(byte_count request, std::uint64_t stream) const;
  void release_cached_blocks();
  void place_next_segment_at(std::uint64_t address) noexcept { placement_hint_ = address; }
  [[nodiscard]] result<void, adopt_errc> adopt_segment(std::uint64_t address, byte_count size, std::uint64_t stream,
                                                       pool_kind pool, std::span<const block_view> in_use);
  [[nodiscard]] allocator_statistics statistics() const noexcept;
  [[nodiscard]] allocator_counters counters() const noexcept { return counters_; }
  [[nodiscard]] std::span<const segment_event> segment_events() const noexcept { return events_; }
  void clear_segment_events() noexcept { events_.clear(); }
  void reset_peaks() noexcept;
  [[nodiscard]] std::vector<segment_view> segments() const;

 private:
  using block_map = std::map<std::uint64_t, block>;
  static constexpr std::size_t pool_count = 2;

  [[nodiscard]] static constexpr std::size_t index(pool_kind pool) noexcept { return pool == pool_kind::small ? 0 : 1; }
  // ExpandableSegment's segment_size_: 2 MiB pages for the small pool, 20 MiB for the large one.
  [[nodiscard]] static constexpr std::uint64_t page_size(pool_kind pool) noexcept {
    return pool == pool_kind::small ? small_segment.value : shared_large_segment.value;
  }
  // max_split_size(): SIZE_MAX when none is set.
  [[nodiscard]] std::uint64_t max_split() const noexcept {
    return settings_.max_split_size ? settings_.max_split_size->value : UINT64_MAX;
  }
  // set_fraction && garbage_collection_threshold() > 0.0
  [[nodiscard]] bool collects_garbage() const noexcept {
    return capacity_.has_value() && settings_.garbage_collection_threshold > 0.0;
  }
  [[nodiscard]] bool oversize_refused(std::uint64_t wanted, std::uint64_t found) const noexcept;

  void insert_free(std::uint64_t address);
  void erase_free(std::uint64_t address, const block& b);
  [[nodiscard]] block_map::iterator previous_in_segment(block_map::iterator it);
  [[nodiscard]] block_map::iterator next_in_segment(block_map::iterator it);
  [[nodiscard]] bool is_split(block_map::iterator it);
  std::uint64_t merge_with_neighbours(std::uint64_t address);
  void grow_reserved(std::uint64_t bytes) noexcept;

  void alloc_found_block(std::uint64_t address, block_size size);
  [[nodiscard]] bool should_split(const block& b, block_size size) const noexcept;
  [[nodiscard]] std::optional<std::uint64_t> get_free_block(block_size size, std::uint64_t stream);
  [[nodiscard]] std::uint64_t expandable_size(std::uint64_t address);
  [[nodiscard]] std::optional<std::uint64_t> alloc_block(block_size size, std::uint64_t stream, bool retry);
  [[nodiscard]] std::optional<std::uint64_t> place(std::uint64_t bytes);
  [[nodiscard]] bool free_range(std::uint64_t address, std::uint64_t bytes) const;
  [[nodiscard]] std::optional<std::uint64_t> try_allocate_expandable_block(block_size size, std::uint64_t stream);
  [[nodiscard]] std::optional<std::uint64_t> find_expandable_block(pool_kind pool, std::uint64_t stream,
                                                                   std::uint64_t wanted);
  [[nodiscard]] std::optional<std::uint64_t> map_block(std::uint64_t address, std::uint64_t bytes);
  std::optional<std::uint64_t> unmap_block(std::uint64_t address);
  void release_block(std::uint64_t address);
  [[nodiscard]] bool release_available_cached_blocks(block_size size, std::uint64_t stream);
  void garbage_collect_cached_blocks();
  [[nodiscard]] allocation_error failure(allocation_errc error, byte_count requested, byte_count segment_bytes) const;

  allocator_settings settings_{};
  std::optional<byte_count> capacity_{};
  std::optional<byte_count> device_memory_{};
  block_map blocks_;  // every block, by address
  std::map<std::uint64_t, segment> segments_;
  device_address_space addresses_;  // where the driver puts the next segment
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

}  // namespace iteragpu::memory::prediction::detail

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/detail/impl/device_allocator.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ALLOCATOR_HPP
