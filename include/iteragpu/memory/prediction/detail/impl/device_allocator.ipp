#ifndef ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ALLOCATOR_IPP
#define ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ALLOCATOR_IPP

#include <algorithm>
#include <bit>
#include <iterator>
#include <utility>

#include "iteragpu/checked.hpp"
#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/detail/device_allocator.hpp"

// The rules of PyTorch's CUDA caching allocator, simulated: each body below
// mirrors the function of c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch
// at 001074d25084fdb87a799823e395a50f5ec044d3, with the newer main branch's
// changes: get_free_block compares with max_non_split_rounding_size instead
// of kLargeBuffer, release_available_cached_blocks and
// garbage_collect_cached_blocks skip expandable blocks) that its comment
// names. Checked against PyTorch 2.11's own allocator by the oracle
// (docs/oracle.md).

namespace iteragpu::memory::prediction::detail {

// DeviceCachingAllocator::malloc: a request of 0 bytes touches nothing
// (NativeCachingAllocator::allocate) and one of 2^60 bytes or more is
// refused before any search; round_size and get_pool choose the block;
// then get_free_block, and short of a cached block: garbage collection (with
// a threshold and a capacity), alloc_block, then
// release_available_cached_blocks and alloc_block, then
// release_cached_blocks and alloc_block again (one num_alloc_retries), then
// out of memory (num_ooms). The figures of the failure are those of
// PyTorch's message.
[[nodiscard]] ITERAGPU_INLINE result<block_handle, allocation_error> device_allocator::malloc(byte_count request,
                                                                                              std::uint64_t stream) {
  const auto hint_lapses = [this] { placement_hint_.reset(); };
  if (request.value == 0) {
    hint_lapses();
    return block_handle{};
  }
  const auto rounded = block_size::for_request(request, settings_);
  if (!rounded.has_value()) {
    hint_lapses();
    return unexpected{failure(rounded.error(), request, byte_count{})};
  }
  if (settings_.expandable_segments && !device_memory_) {
    hint_lapses();
    return unexpected{failure(allocation_errc::device_memory_unknown, request, byte_count{})};
  }
  const block_size size = *rounded;
  auto chosen = get_free_block(size, stream);
  if (!chosen) {
    if (collects_garbage()) {
      garbage_collect_cached_blocks();
    }
    chosen = alloc_block(size, stream, false);
    if (!chosen && release_available_cached_blocks(size, stream)) {
      chosen = alloc_block(size, stream, false);
    }
    if (!chosen) {
      release_cached_blocks();
      chosen = alloc_block(size, stream, true);
    }
    if (!chosen) {
      ++counters_.ooms;
      hint_lapses();
      return unexpected{failure(allocation_errc::out_of_memory, request, size.segment_size())};
    }
  }
  alloc_found_block(*chosen, size);
  hint_lapses();
  return block_handle{*chosen};
}

// DeviceCachingAllocator::free and free_block: the block goes back to its
// pool, merged with its free neighbours (try_merge_blocks); the segment
// stays reserved. A free of a block not in use is refused ("invalid device
// pointer"); the empty handle frees nothing.
[[nodiscard]] ITERAGPU_INLINE result<void, free_errc> device_allocator::free(block_handle handle) {
  if (handle.address == 0) {
    return {};
  }
  auto it = blocks_.find(handle.address);
  if (it == blocks_.end() || !it->second.allocated) {
    return unexpected{free_errc::not_allocated};
  }
  it->second.allocated = false;
  allocated_ -= it->second.size;
  insert_free(merge_with_neighbours(it->first));
  return {};
}

// Whether malloc, at this point, would find no cached block
// (get_free_block's rules) and a new reservation (alloc_block) would pass
// the capacity: it would release the cache and try again. Changes nothing.
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::would_release_for(byte_count request, std::uint64_t stream) const {
  if (!capacity_ || request.value == 0) {
    return false;
  }
  const auto rounded = block_size::for_request(request, settings_);
  if (!rounded.has_value()) {
    return false;
  }
  const std::uint64_t wanted = rounded->bytes().value;
  const auto& cached = free_.at(index(rounded->pool()));
  const auto it = cached.lower_bound(free_key{.stream = stream, .size = wanted});
  if (it != cached.end() && it->stream == stream && !oversize_refused(wanted, it->size)) {
    return false;
  }
  const auto reserved = checked_add(reserved_, rounded->segment_size().value);
  return !reserved || *reserved > capacity_->value;
}

// No PyTorch function: a segment held where a recorded trace begins, taken
// over with its blocks in use; the rest becomes cached free blocks, as free
// neighbours always merge. It counts in reserved and allocated and makes
// no segment event.
[[nodiscard]] ITERAGPU_INLINE result<void, adopt_errc> device_allocator::adopt_segment(
    std::uint64_t address, byte_count size, std::uint64_t stream, pool_kind pool, std::span<const block_view> in_use) {
  const auto end = checked_add(address, size.value);
  if (address == 0 || size.value == 0 || !end) {
    return unexpected{adopt_errc::empty_segment};
  }
  if (!free_range(address, size.value)) {
    return unexpected{adopt_errc::overlaps};
  }
  std::uint64_t cursor = address;
  for (const block_view& b : in_use) {
    if (b.size.value == 0) {
      return unexpected{adopt_errc::empty_block};
    }
    const auto block_end = checked_add(b.address, b.size.value);
    if (b.address < cursor || !block_end || *block_end > *end) {
      return unexpected{adopt_errc::block_outside};
    }
    cursor = *block_end;
  }
  segments_.emplace(address, segment{.size = size.value, .pool = pool});
  addresses_.take(address, size.value);
  const auto add_block = [&](std::uint64_t at, std::uint64_t bytes, bool allocated) {
    blocks_.emplace(at,
                    block{.size = bytes, .segment = address, .stream = stream, .pool = pool, .allocated = allocated});
    if (allocated) {
      allocated_ += bytes;
    } else {
      insert_free(at);
    }
  };
  cursor = address;
  for (const block_view& b : in_use) {
    if (b.address > cursor) {
      add_block(cursor, b.address - cursor, false);
    }
    add_block(b.address, b.size.value, true);
    cursor = b.address + b.size.value;
  }
  if (cursor < *end) {
    add_block(cursor, *end - cursor, false);
  }
  grow_reserved(size.value);
  peak_allocated_ = allocated_ > peak_allocated_ ? allocated_ : peak_allocated_;
  return {};
}

// The device's statistics (getStats): allocated_bytes and reserved_bytes,
// current and peak.
[[nodiscard]] ITERAGPU_INLINE allocator_statistics device_allocator::statistics() const noexcept {
  return {byte_count{allocated_}, byte_count{reserved_}, byte_count{peak_allocated_}, byte_count{peak_reserved_}};
}

// resetPeakStats: each peak becomes its current value.
ITERAGPU_INLINE void device_allocator::reset_peaks() noexcept {
  peak_allocated_ = allocated_;
  peak_reserved_ = reserved_;
}

// snapshot: the segments in address order, an expandable segment as one
// segment per contiguous mapped range.
[[nodiscard]] ITERAGPU_INLINE std::vector<segment_view> device_allocator::segments() const {
  std::vector<segment_view> views;
  views.reserve(segments_.size());
  for (const auto& [address, s] : segments_) {
    std::optional<segment_view> open;
    for (auto it = blocks_.find(address); it != blocks_.end() && it->second.segment == address; ++it) {
      if (!it->second.mapped) {
        if (open) {
          views.push_back(std::move(*open));
          open.reset();
        }
        continue;
      }
      if (!open) {
        open = segment_view{.address = it->first, .size = byte_count{}, .pool = s.pool, .blocks = {}};
      }
      open->size.value += it->second.size;
      open->blocks.push_back(
          {.address = it->first, .size = byte_count{it->second.size}, .allocated = it->second.allocated});
    }
    if (open) {
      views.push_back(std::move(*open));
    }
  }
  return views;
}

// get_free_block's refusals of an oversize block: a cached block of
// max_split_size or more serves no request below it ("Do not return an
// oversized block for a large request"), and an oversize request only a
// block less than max_non_split_rounding_size larger ("Allow oversized block
// size to be rounded up but within a limit").
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::oversize_refused(std::uint64_t wanted,
                                                                      std::uint64_t found) const noexcept {
  return (wanted < max_split() && found >= max_split()) ||
         (wanted >= max_split() && found - wanted >= settings_.max_non_split_rounding.value);
}

// BlockPool::insert_into_blocks: cached, its age counted from now
// (gc_count_base = get_free_blocks_call_count).
ITERAGPU_INLINE void device_allocator::insert_free(std::uint64_t address) {
  block& b = blocks_.at(address);
  b.gc_count_base = gc_calls_.at(index(b.pool));
  free_.at(index(b.pool)).insert(free_key{.stream = b.stream, .size = b.size, .address = address});
}

ITERAGPU_INLINE void device_allocator::erase_free(std::uint64_t address, const block& b) {
  free_.at(index(b.pool)).erase(free_key{.stream = b.stream, .size = b.size, .address = address});
}

// Block::prev: the block before it in its segment, if any.
[[nodiscard]] ITERAGPU_INLINE device_allocator::block_map::iterator device_allocator::previous_in_segment(
    block_map::iterator it) {
  if (it == blocks_.begin()) {
    return blocks_.end();
  }
  const auto before = std::prev(it);
  return before->second.segment == it->second.segment ? before : blocks_.end();
}

// Block::next: the block after it in its segment, if any.
[[nodiscard]] ITERAGPU_INLINE device_allocator::block_map::iterator device_allocator::next_in_segment(
    block_map::iterator it) {
  const auto after = std::next(it);
  return after != blocks_.end() && after->second.segment == it->second.segment ? after : blocks_.end();
}

// Block::is_split: it has a neighbour in its segment.
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::is_split(block_map::iterator it) {
  return previous_in_segment(it) != blocks_.end() || next_in_segment(it) != blocks_.end();
}

// try_merge_blocks, with the block before, then the one after: a free
// neighbour in the same mapped state is absorbed and leaves the set it was
// in (blocks or unmapped). Returns the merged block's address.
ITERAGPU_INLINE std::uint64_t device_allocator::merge_with_neighbours(std::uint64_t address) {
  auto it = blocks_.find(address);
  const auto mergeable = [&](block_map::iterator n) {
    return n != blocks_.end() && !n->second.allocated && n->second.mapped == it->second.mapped;
  };
  const auto forget = [&](block_map::iterator n) {
    if (n->second.mapped) {
      erase_free(n->first, n->second);
    } else {
      unmapped_.at(index(n->second.pool)).erase(unmapped_key{.stream = n->second.stream, .address = n->first});
    }
  };
  if (const auto before = previous_in_segment(it); mergeable(before)) {
    forget(before);
    before->second.size += it->second.size;
    blocks_.erase(it);
    it = before;
  }
  if (const auto after = next_in_segment(it); mergeable(after)) {
    forget(after);
    it->second.size += after->second.size;
    blocks_.erase(after);
  }
  return it->first;
}

// increase_stat on reserved_bytes: the current value and its peak.
ITERAGPU_INLINE void device_allocator::grow_reserved(std::uint64_t bytes) noexcept {
  reserved_ += bytes;
  peak_reserved_ = reserved_ > peak_reserved_ ? reserved_ : peak_reserved_;
}

// alloc_found_block: the rest of the chosen block becomes a free block of
// its own when should_split says so (inserted into its pool); allocated
// bytes grow by the block's size, not the request's.
ITERAGPU_INLINE void device_allocator::alloc_found_block(std::uint64_t address, block_size size) {
  block& taken = blocks_.at(address);
  if (should_split(taken, size)) {
    block rest = taken;
    rest.size = taken.size - size.bytes().value;
    taken.size = size.bytes().value;
    const std::uint64_t rest_address = address + size.bytes().value;
    blocks_.emplace(rest_address, rest);
    insert_free(rest_address);
  }
  block& in_use = blocks_.at(address);
  in_use.allocated = true;
  allocated_ += in_use.size;
  peak_allocated_ = allocated_ > peak_allocated_ ? allocated_ : peak_allocated_;
}

// should_split: in the small pool, or any pool with expandable segments, a
// rest of at least kMinBlockSize (512 bytes); otherwise a request below
// max_split_size leaving a rest of more than kSmallSize (1 MiB).
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::should_split(const block& b, block_size size) const noexcept {
  const std::uint64_t remaining = b.size - size.bytes().value;
  if (size.pool() == pool_kind::small || settings_.expandable_segments) {
    return remaining >= minimum_block.value;
  }
  return size.bytes().value < max_split() && remaining > largest_small_block.value;
}

// get_free_block: pool.blocks.lower_bound of (stream, size): the smallest
// cached block of the request's stream and pool that is large enough, the
// lowest address among equal sizes (BlockComparatorSize). With a capacity
// and a threshold, the pool's get_free_blocks_call_count counts the call.
// In an expandable segment, "for the purposes of best fit" a block's size
// is what it can grow to (expandable_size): the next blocks are tried while
// they can grow less. Then the oversize refusals (oversize_refused).
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::get_free_block(block_size size,
                                                                                            std::uint64_t stream) {
  const std::size_t pool = index(size.pool());
  if (collects_garbage()) {
    ++gc_calls_.at(pool);
  }
  auto& cached = free_.at(pool);
  auto it = cached.lower_bound(free_key{.stream = stream, .size = size.bytes().value});
  if (it == cached.end() || it->stream != stream) {
    return std::nullopt;
  }
  if (blocks_.at(it->address).expandable) {
    auto next = std::next(it);
    while (next != cached.end() && next->stream == stream && blocks_.at(it->address).expandable &&
           expandable_size(next->address) < expandable_size(it->address)) {
      it = next++;
    }
  }
  if (oversize_refused(size.bytes().value, it->size)) {
    return std::nullopt;
  }
  const std::uint64_t address = it->address;
  cached.erase(it);
  return address;
}

// get_free_block's expandable_size: the block plus the unmapped range just after it.
[[nodiscard]] ITERAGPU_INLINE std::uint64_t device_allocator::expandable_size(std::uint64_t address) {
  const auto it = blocks_.find(address);
  const auto after = next_in_segment(it);
  return it->second.size + (after != blocks_.end() && !after->second.mapped ? after->second.size : 0);
}

// alloc_block: refused when set_fraction and the reserved bytes plus
// get_allocation_size (the segment the block asks for, also with expandable
// segments) pass allowed_memory_maximum (the capacity, which also stands for
// the memory cudaMalloc finds free); else a new segment holding one free
// block (cudaMalloc, a segment_alloc event), or pages mapped into an
// expandable segment (try_allocate_expandable_block). The retry after
// release_cached_blocks counts in num_alloc_retries.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::alloc_block(block_size size,
                                                                                         std::uint64_t stream,
                                                                                         bool retry) {
  if (retry) {
    ++counters_.alloc_retries;
  }
  const std::uint64_t bytes = size.segment_size().value;
  const auto reserved = checked_add(reserved_, bytes);
  if (!reserved || (capacity_ && *reserved > capacity_->value)) {
    return std::nullopt;
  }
  if (settings_.expandable_segments) {
    return try_allocate_expandable_block(size, stream);
  }
  const auto address = place(bytes);
  if (!address) {
    return std::nullopt;
  }
  segments_.emplace(*address, segment{.size = bytes, .pool = size.pool()});
  addresses_.take(*address, bytes);
  blocks_.emplace(*address, block{.size = bytes, .segment = *address, .stream = stream, .pool = size.pool()});
  grow_reserved(bytes);
  events_.push_back({segment_action::segment_alloc, *address, byte_count{bytes}, stream});
  return address;
}

// cudaMalloc's address: the hint (a recorded trace's) when it overlaps no
// segment, else where the driver would put it (device_address_space), else
// just below the lowest segment held (above the highest when no room is left
// below); nothing when the address space is full.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::place(std::uint64_t bytes) {
  const auto hint = std::exchange(placement_hint_, std::nullopt);
  if (hint && *hint != 0 && free_range(*hint, bytes)) {
    return hint;
  }
  if (const auto driver = addresses_.place(bytes); driver && *driver != 0 && free_range(*driver, bytes)) {
    return driver;
  }
  const std::uint64_t lowest = segments_.empty() ? device_address_space::top : segments_.begin()->first;
  if (lowest >= device_address_space::lowest && lowest - device_address_space::lowest >= bytes) {
    return lowest - bytes;
  }
  const auto above = segments_.empty() ? std::optional<std::uint64_t>{device_address_space::lowest}
                                       : checked_add(segments_.rbegin()->first, segments_.rbegin()->second.size);
  if (!above || !checked_add(*above, bytes)) {
    return std::nullopt;
  }
  return above;
}

// Whether [address, address + bytes) overlaps no segment held.
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::free_range(std::uint64_t address, std::uint64_t bytes) const {
  const auto end = checked_add(address, bytes);
  if (!end) {
    return false;
  }
  const auto above = segments_.lower_bound(address);
  if (above != segments_.end() && above->first < *end) {
    return false;
  }
  if (above == segments_.begin()) {
    return true;
  }
  const auto below = std::prev(above);
  return below->first + below->second.size <= address;
}

// try_allocate_expandable_block: the range find_expandable_block gives,
// mapped where needed (map_block), first the range itself when unmapped,
// then the unmapped range after the block while it is short; a mapping that
// fails leaves the pages mapped before it. The block leaves its pool.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::try_allocate_expandable_block(
    block_size size, std::uint64_t stream) {
  const std::uint64_t wanted = size.bytes().value;
  auto candidate = find_expandable_block(size.pool(), stream, wanted);
  if (!candidate) {
    return std::nullopt;
  }
  if (!blocks_.at(*candidate).mapped) {
    candidate = map_block(*candidate, std::min(blocks_.at(*candidate).size, wanted));
    if (!candidate) {
      return std::nullopt;
    }
  }
  while (blocks_.at(*candidate).size < wanted) {
    const auto after = next_in_segment(blocks_.find(*candidate));
    if (after == blocks_.end() || after->second.mapped) {
      return std::nullopt;  // cannot happen: find_expandable_block counted only free and unmapped room
    }
    const std::uint64_t remaining = wanted - blocks_.at(*candidate).size;
    candidate = map_block(after->first, std::min(remaining, after->second.size));
    if (!candidate) {
      return std::nullopt;
    }
  }
  erase_free(*candidate, blocks_.at(*candidate));
  return candidate;
}

// find_expandable_block: the lowest unmapped range of the stream and pool
// (pool->unmapped, by address), with the free block just before it, that
// with the free and unmapped blocks after it holds `wanted` bytes; else a
// new expandable segment whose address space is 9/8 of the device's memory
// (totalGlobalMem + totalGlobalMem / 8), in whole pages, reserved
// (cuMemAddressReserve) just below the lowest segment.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::find_expandable_block(
    pool_kind pool, std::uint64_t stream, std::uint64_t wanted) {
  const auto& unmapped = unmapped_.at(index(pool));
  for (auto u = unmapped.lower_bound(unmapped_key{.stream = stream}); u != unmapped.end() && u->stream == stream; ++u) {
    auto start = blocks_.find(u->address);
    if (const auto before = previous_in_segment(start); before != blocks_.end() && !before->second.allocated) {
      start = before;
    }
    std::uint64_t room = 0;
    for (auto it = start; room < wanted && it != blocks_.end() && !it->second.allocated; it = next_in_segment(it)) {
      room += it->second.size;
    }
    if (room >= wanted) {
      return start->first;
    }
  }
  const std::uint64_t page = page_size(pool);
  // malloc refuses every request under expandable segments without it.
  const std::uint64_t device_memory = device_memory_.value_or(byte_count{0}).value;
  const auto space = checked_add(device_memory, device_memory / 8);
  if (!space) {
    return std::nullopt;
  }
  const std::uint64_t pages = *space / page + (*space % page == 0 ? 0 : 1);
  const auto bytes = checked_mul(pages, page);
  if (!bytes) {
    return std::nullopt;
  }
  const auto hint = std::exchange(placement_hint_, std::nullopt);
  auto address = hint && *hint != 0 && free_range(*hint, *bytes) ? hint : addresses_.place_reservation(*bytes);
  if (address && !free_range(*address, *bytes)) {
    address = place(*bytes);
  }
  if (!address) {
    return std::nullopt;
  }
  segments_.emplace(*address, segment{.size = *bytes, .pool = pool});
  addresses_.take(*address, *bytes, false);
  blocks_.emplace(
      *address,
      block{.size = *bytes, .segment = *address, .stream = stream, .pool = pool, .mapped = false, .expandable = true});
  unmapped_.at(index(pool)).insert(unmapped_key{.stream = stream, .address = *address});
  return address;
}

// map_block (ExpandableSegment::map): the first `bytes` of an unmapped
// range, rounded up to whole pages, become a free block merged with its
// free neighbours (a segment_map event); the rest stays unmapped.
// cuMemCreate fails only when the card itself runs out (not modelled);
// set_per_process_memory_fraction's allowance was checked by alloc_block
// against get_allocation_size, not against the pages mapped here, which may
// pass it.
[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::map_block(std::uint64_t address,
                                                                                       std::uint64_t bytes) {
  block& b = blocks_.at(address);
  const std::uint64_t page = page_size(b.pool);
  const std::uint64_t mapped = (bytes / page + (bytes % page == 0 ? 0 : 1)) * page;
  unmapped_.at(index(b.pool)).erase(unmapped_key{.stream = b.stream, .address = address});
  b.mapped = true;
  const std::uint64_t stream = b.stream;
  if (mapped < b.size) {
    block rest = b;
    rest.size = b.size - mapped;
    rest.mapped = false;
    b.size = mapped;
    blocks_.emplace(address + mapped, rest);
    unmapped_.at(index(rest.pool)).insert(unmapped_key{.stream = stream, .address = address + mapped});
  }
  const std::uint64_t merged = merge_with_neighbours(address);
  insert_free(merged);
  grow_reserved(mapped);
  events_.push_back({segment_action::segment_map, address, byte_count{mapped}, stream});
  return merged;
}

// unmap_block (ExpandableSegment::unmap): the whole pages inside a free
// block of an expandable segment are unmapped (a segment_unmap event); the
// parts before and after them stay cached. Returns the address of the
// unmapped range after merging, if any.
ITERAGPU_INLINE std::optional<std::uint64_t> device_allocator::unmap_block(std::uint64_t address) {
  const block b = blocks_.at(address);
  const std::uint64_t page = page_size(b.pool);
  const std::uint64_t offset = address - b.segment;
  const std::uint64_t begin = b.segment + (offset / page + (offset % page == 0 ? 0 : 1)) * page;
  const std::uint64_t end = b.segment + (offset + b.size) / page * page;
  if (begin >= end) {
    return std::nullopt;
  }
  erase_free(address, b);
  blocks_.erase(address);
  if (begin > address) {
    block before = b;
    before.size = begin - address;
    blocks_.emplace(address, before);
    insert_free(address);
  }
  if (address + b.size > end) {
    block after = b;
    after.size = address + b.size - end;
    blocks_.emplace(end, after);
    insert_free(end);
  }
  block gap = b;
  gap.size = end - begin;
  gap.mapped = false;
  blocks_.emplace(begin, gap);
  const std::uint64_t merged = merge_with_neighbours(begin);
  unmapped_.at(index(b.pool)).insert(unmapped_key{.stream = b.stream, .address = merged});
  reserved_ -= end - begin;
  events_.push_back({segment_action::segment_unmap, begin, byte_count{end - begin}, b.stream});
  return merged;
}

// release_block: a cached block that is a whole segment goes back to the
// device (cudaFree, a segment_free event); its range goes back to the driver.
ITERAGPU_INLINE void device_allocator::release_block(std::uint64_t address) {
  const auto it = blocks_.find(address);
  const block b = it->second;
  erase_free(address, b);
  blocks_.erase(it);
  segments_.erase(address);
  addresses_.give_back(address);
  reserved_ -= b.size;
  events_.push_back({segment_action::segment_free, address, byte_count{b.size}, b.stream});
}

// release_cached_blocks (also emptyCache): release_blocks on the large pool,
// then the small one: every cached block that is a whole segment is
// released in the pool's order, then the free pages of expandable segments
// are unmapped (unmap_block), and an expandable segment left with no page
// mapped is dropped (release_expandable_segment).
ITERAGPU_INLINE void device_allocator::release_cached_blocks() {
  for (const pool_kind pool : {pool_kind::large, pool_kind::small}) {
    std::vector<std::uint64_t> whole;
    std::vector<std::uint64_t> to_unmap;
    for (const free_key& key : free_.at(index(pool))) {
      const auto it = blocks_.find(key.address);
      if (it->second.expandable) {
        to_unmap.push_back(it->first);
      } else if (!is_split(it)) {
        whole.push_back(it->first);
      }
    }
    for (const std::uint64_t address : whole) {
      release_block(address);
    }
    for (const std::uint64_t address : to_unmap) {
      const auto unmapped = unmap_block(address);
      if (!unmapped) {
        continue;
      }
      const auto it = blocks_.find(*unmapped);
      if (!is_split(it)) {
        unmapped_.at(index(pool)).erase(unmapped_key{.stream = it->second.stream, .address = it->first});
        segments_.erase(it->first);
        addresses_.give_back(it->first);
        blocks_.erase(it);
      }
    }
  }
}

// release_available_cached_blocks: with a max_split_size only. The smallest
// cached block of the stream of at least max(request, max_split_size) is
// released, if it is not expandable; failing one, the oversize blocks of the
// stream go, largest first (expandable ones skipped), until as many bytes
// are released; true when enough were.
[[nodiscard]] ITERAGPU_INLINE bool device_allocator::release_available_cached_blocks(block_size size,
                                                                                     std::uint64_t stream) {
  if (!settings_.max_split_size) {
    return false;
  }
  const auto& cached = free_.at(index(size.pool()));
  const std::uint64_t target = size.bytes().value < max_split() ? max_split() : size.bytes().value;
  auto it = cached.lower_bound(free_key{.stream = stream, .size = target});
  if (it != cached.end() && it->stream == stream && !blocks_.at(it->address).expandable) {
    release_block(it->address);
    return true;
  }
  if (it == cached.begin()) {
    return false;
  }
  std::uint64_t released = 0;
  --it;
  while (released < target && it->size >= max_split() && it->stream == stream) {
    const auto current = it;
    const bool first = current == cached.begin();
    if (!first) {
      --it;
    }
    const std::uint64_t address = current->address;
    if (!blocks_.at(address).expandable) {
      released += current->size;
      release_block(address);
    }
    if (first) {
      break;
    }
  }
  return released >= target;
}

// garbage_collect_cached_blocks: above garbage_collection_threshold x
// allowed_memory_maximum reserved, the whole cached blocks of the large
// pool (not expandable) whose age (gc_count: get_free_block calls since they
// were cached) is at least the mean age are released, in the pool's order;
// the mean is taken again after each pass, until the excess is reclaimed
// or no block goes.
ITERAGPU_INLINE void device_allocator::garbage_collect_cached_blocks() {
  const auto limit = static_cast<std::uint64_t>(settings_.garbage_collection_threshold *
                                                static_cast<double>(capacity_.value_or(byte_count{}).value));
  if (reserved_ <= limit) {
    return;
  }
  const std::uint64_t target = reserved_ - limit;
  const std::size_t pool = index(pool_kind::large);
  auto& cached = free_.at(pool);
  const auto age = [&](std::uint64_t address) { return gc_calls_.at(pool) - blocks_.at(address).gc_count_base; };
  const auto freeable = [&](std::uint64_t address) {
    const auto it = blocks_.find(address);
    return !it->second.expandable && !is_split(it);
  };
  std::uint64_t total_age = 0;
  std::uint64_t count = 0;
  for (const free_key& key : cached) {
    if (freeable(key.address)) {
      total_age += age(key.address);
      ++count;
    }
  }
  std::uint64_t reclaimed = 0;
  bool freed = true;
  while (reclaimed < target && freed && count > 0) {
    const double threshold = static_cast<double>(total_age) / static_cast<double>(count);
    freed = false;
    for (auto it = cached.begin(); it != cached.end();) {
      const std::uint64_t address = (it++)->address;
      if (freeable(address) && static_cast<double>(age(address)) >= threshold) {
        freed = true;
        reclaimed += blocks_.at(address).size;
        total_age -= age(address);
        --count;
        release_block(address);
      }
    }
  }
}

// The figures of PyTorch's out-of-memory message.
[[nodiscard]] ITERAGPU_INLINE allocation_error device_allocator::failure(allocation_errc error, byte_count requested,
                                                                         byte_count segment_bytes) const {
  return {error, requested, segment_bytes, byte_count{allocated_}, byte_count{reserved_}, capacity_};
}

}  // namespace iteragpu::memory::prediction::detail

#endif  // ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ALLOCATOR_IPP
