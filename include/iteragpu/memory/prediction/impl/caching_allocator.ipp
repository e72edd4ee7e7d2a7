#ifndef ITERAGPU_MEMORY_PREDICTION_IMPL_CACHING_ALLOCATOR_IPP
#define ITERAGPU_MEMORY_PREDICTION_IMPL_CACHING_ALLOCATOR_IPP

#include <algorithm>
#include <bit>
#include <iterator>
#include <tuple>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"

// The bodies of the functions that <iteragpu/memory/prediction/caching_allocator.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::prediction {

[[nodiscard]] ITERAGPU_INLINE result<block_handle, allocation_error> caching_allocator::allocate(byte_count request,
                                                                                                 std::uint64_t stream) {
  auto taken = find_or_reserve(request, stream);
  placement_hint_.reset();
  return taken;
}

[[nodiscard]] ITERAGPU_INLINE result<void, free_errc> caching_allocator::free(block_handle handle) {
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

[[nodiscard]] ITERAGPU_INLINE bool caching_allocator::would_release_for(byte_count request,
                                                                        std::uint64_t stream) const {
  if (!capacity_ || request.value == 0) {
    return false;
  }
  const auto rounded = block_size::for_request(request, settings_);
  if (!rounded.has_value()) {
    return false;
  }
  const std::uint64_t wanted = rounded->bytes().value;
  const auto& cached = free_.at(index(rounded->pool()));
  const auto it = cached.lower_bound({stream, wanted, 0});
  if (it != cached.end() && std::get<0>(*it) == stream) {
    const std::uint64_t found = std::get<1>(*it);
    const bool oversize_refused = (wanted < max_split() && found >= max_split()) ||
                                  (wanted >= max_split() && found - wanted >= settings_.max_non_split_rounding.value);
    if (!oversize_refused) {
      return false;
    }
  }
  const auto reserved = checked_add(reserved_, rounded->segment_size().value);
  return !reserved || *reserved > capacity_->value;
}

[[nodiscard]] ITERAGPU_INLINE bool caching_allocator::adopt_segment(std::uint64_t address, byte_count size,
                                                                    std::uint64_t stream, pool_kind pool,
                                                                    std::span<const block_view> in_use) {
  const auto end = checked_add(address, size.value);
  if (address == 0 || size.value == 0 || !end || !free_range(address, size.value)) {
    return false;
  }
  std::uint64_t cursor = address;
  for (const block_view& b : in_use) {
    const auto block_end = checked_add(b.address, b.size.value);
    if (b.size.value == 0 || b.address < cursor || !block_end || *block_end > *end) {
      return false;
    }
    cursor = *block_end;
  }
  segments_.emplace(address, segment{size.value, pool});
  addresses_.take(address, size.value);
  const auto add_block = [&](std::uint64_t at, std::uint64_t bytes, bool allocated) {
    blocks_.emplace(at, block{bytes, address, stream, 0, pool, allocated, true, false});
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
  return true;
}

[[nodiscard]] ITERAGPU_INLINE allocator_statistics caching_allocator::statistics() const noexcept {
  return {byte_count{allocated_}, byte_count{reserved_}, byte_count{peak_allocated_}, byte_count{peak_reserved_}};
}

ITERAGPU_INLINE void caching_allocator::reset_peaks() noexcept {
  peak_allocated_ = allocated_;
  peak_reserved_ = reserved_;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<segment_view> caching_allocator::segments() const {
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
        open = segment_view{it->first, byte_count{}, s.pool, {}};
      }
      open->size.value += it->second.size;
      open->blocks.push_back({it->first, byte_count{it->second.size}, it->second.allocated});
    }
    if (open) {
      views.push_back(std::move(*open));
    }
  }
  return views;
}

ITERAGPU_INLINE void caching_allocator::insert_free(std::uint64_t address) {
  block& b = blocks_.at(address);
  b.gc_count_base = gc_calls_.at(index(b.pool));
  free_.at(index(b.pool)).insert(key_of(address, b));
}

[[nodiscard]] ITERAGPU_INLINE caching_allocator::block_map::iterator caching_allocator::previous_in_segment(
    block_map::iterator it) {
  if (it == blocks_.begin()) {
    return blocks_.end();
  }
  const auto before = std::prev(it);
  return before->second.segment == it->second.segment ? before : blocks_.end();
}

[[nodiscard]] ITERAGPU_INLINE caching_allocator::block_map::iterator caching_allocator::next_in_segment(
    block_map::iterator it) {
  const auto after = std::next(it);
  return after != blocks_.end() && after->second.segment == it->second.segment ? after : blocks_.end();
}

ITERAGPU_INLINE std::uint64_t caching_allocator::merge_with_neighbours(std::uint64_t address) {
  auto it = blocks_.find(address);
  const auto mergeable = [&](block_map::iterator n) {
    return n != blocks_.end() && !n->second.allocated && n->second.mapped == it->second.mapped;
  };
  const auto forget = [&](block_map::iterator n) {
    if (n->second.mapped) {
      erase_free(n->first, n->second);
    } else {
      unmapped_.at(index(n->second.pool)).erase({n->second.stream, n->first});
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

ITERAGPU_INLINE void caching_allocator::grow_reserved(std::uint64_t bytes) noexcept {
  reserved_ += bytes;
  peak_reserved_ = reserved_ > peak_reserved_ ? reserved_ : peak_reserved_;
}

[[nodiscard]] ITERAGPU_INLINE result<block_handle, allocation_error> caching_allocator::find_or_reserve(
    byte_count request, std::uint64_t stream) {
  if (request.value == 0) {
    return block_handle{};
  }
  const auto rounded = block_size::for_request(request, settings_);
  if (!rounded.has_value()) {
    return unexpected{failure(rounded.error(), request, byte_count{})};
  }
  if (settings_.expandable_segments && !device_memory_) {
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
      return unexpected{failure(allocation_errc::out_of_memory, request, size.segment_size())};
    }
  }
  alloc_found_block(*chosen, size);
  return block_handle{*chosen};
}

ITERAGPU_INLINE void caching_allocator::alloc_found_block(std::uint64_t address, block_size size) {
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

[[nodiscard]] ITERAGPU_INLINE bool caching_allocator::should_split(const block& b, block_size size) const noexcept {
  const std::uint64_t remaining = b.size - size.bytes().value;
  if (size.pool() == pool_kind::small || settings_.expandable_segments) {
    return remaining >= minimum_block.value;
  }
  return size.bytes().value < max_split() && remaining > largest_small_block.value;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::get_free_block(block_size size,
                                                                                             std::uint64_t stream) {
  const std::size_t pool = index(size.pool());
  if (collects_garbage()) {
    ++gc_calls_.at(pool);
  }
  auto& cached = free_.at(pool);
  auto it = cached.lower_bound({stream, size.bytes().value, 0});
  if (it == cached.end() || std::get<0>(*it) != stream) {
    return std::nullopt;
  }
  if (blocks_.at(std::get<2>(*it)).expandable) {
    auto next = std::next(it);
    while (next != cached.end() && std::get<0>(*next) == stream && blocks_.at(std::get<2>(*it)).expandable &&
           expandable_size(std::get<2>(*next)) < expandable_size(std::get<2>(*it))) {
      it = next++;
    }
  }
  const std::uint64_t found = std::get<1>(*it);
  const std::uint64_t wanted = size.bytes().value;
  if (wanted < max_split() && found >= max_split()) {
    return std::nullopt;
  }
  if (wanted >= max_split() && found - wanted >= settings_.max_non_split_rounding.value) {
    return std::nullopt;
  }
  const std::uint64_t address = std::get<2>(*it);
  cached.erase(it);
  return address;
}

[[nodiscard]] ITERAGPU_INLINE std::uint64_t caching_allocator::expandable_size(std::uint64_t address) {
  const auto it = blocks_.find(address);
  const auto after = next_in_segment(it);
  return it->second.size + (after != blocks_.end() && !after->second.mapped ? after->second.size : 0);
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::alloc_block(block_size size,
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
  segments_.emplace(*address, segment{bytes, size.pool()});
  addresses_.take(*address, bytes);
  blocks_.emplace(*address, block{bytes, *address, stream, 0, size.pool(), false, true, false});
  grow_reserved(bytes);
  events_.push_back({segment_action::segment_alloc, *address, byte_count{bytes}, stream});
  return address;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::place(std::uint64_t bytes) {
  const auto hint = std::exchange(placement_hint_, std::nullopt);
  if (hint && *hint != 0 && free_range(*hint, bytes)) {
    return hint;
  }
  // Where the driver would put it (detail/device_addresses.hpp), where that
  // overlaps no segment; else just below the lowest segment held, and above
  // the highest one when no room is left below.
  if (const auto driver = addresses_.place(bytes); driver && *driver != 0 && free_range(*driver, bytes)) {
    return driver;
  }
  const std::uint64_t lowest = segments_.empty() ? top_segment_address : segments_.begin()->first;
  if (lowest >= first_segment_address && lowest - first_segment_address >= bytes) {
    return lowest - bytes;
  }
  const auto above = segments_.empty() ? std::optional<std::uint64_t>{first_segment_address}
                                       : checked_add(segments_.rbegin()->first, segments_.rbegin()->second.size);
  if (!above || !checked_add(*above, bytes)) {
    return std::nullopt;
  }
  return above;
}

[[nodiscard]] ITERAGPU_INLINE bool caching_allocator::free_range(std::uint64_t address, std::uint64_t bytes) const {
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

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::try_allocate_expandable_block(
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

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::find_expandable_block(
    pool_kind pool, std::uint64_t stream, std::uint64_t wanted) {
  const auto& unmapped = unmapped_.at(index(pool));
  for (auto u = unmapped.lower_bound({stream, 0}); u != unmapped.end() && u->first == stream; ++u) {
    auto start = blocks_.find(u->second);
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
  // find_or_reserve refuses every request under expandable segments without it.
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
  // cuMemAddressReserve: just below the lowest segment held (the hint of a
  // recorded trace aside).
  const auto hint = std::exchange(placement_hint_, std::nullopt);
  auto address = hint && *hint != 0 && free_range(*hint, *bytes) ? hint : addresses_.place_reservation(*bytes);
  if (address && !free_range(*address, *bytes)) {
    address = place(*bytes);
  }
  if (!address) {
    return std::nullopt;
  }
  segments_.emplace(*address, segment{*bytes, pool});
  addresses_.take(*address, *bytes, false);
  blocks_.emplace(*address, block{*bytes, *address, stream, 0, pool, false, false, true});
  unmapped_.at(index(pool)).insert({stream, *address});
  return address;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::map_block(std::uint64_t address,
                                                                                        std::uint64_t bytes) {
  block& b = blocks_.at(address);
  const std::uint64_t page = page_size(b.pool);
  const std::uint64_t mapped = (bytes / page + (bytes % page == 0 ? 0 : 1)) * page;
  // ExpandableSegment::map: cuMemCreate fails only when the card itself
  // runs out (not modelled); set_per_process_memory_fraction's allowance was
  // checked by alloc_block against get_allocation_size, not against the
  // pages mapped here, which may pass it.
  unmapped_.at(index(b.pool)).erase({b.stream, address});
  b.mapped = true;
  const std::uint64_t stream = b.stream;
  if (mapped < b.size) {
    block rest = b;
    rest.size = b.size - mapped;
    rest.mapped = false;
    b.size = mapped;
    blocks_.emplace(address + mapped, rest);
    unmapped_.at(index(rest.pool)).insert({stream, address + mapped});
  }
  const std::uint64_t merged = merge_with_neighbours(address);
  insert_free(merged);
  grow_reserved(mapped);
  events_.push_back({segment_action::segment_map, address, byte_count{mapped}, stream});
  return merged;
}

ITERAGPU_INLINE std::optional<std::uint64_t> caching_allocator::unmap_block(std::uint64_t address) {
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
  unmapped_.at(index(b.pool)).insert({b.stream, merged});
  reserved_ -= end - begin;
  events_.push_back({segment_action::segment_unmap, begin, byte_count{end - begin}, b.stream});
  return merged;
}

ITERAGPU_INLINE void caching_allocator::release_block(std::uint64_t address) {
  const auto it = blocks_.find(address);
  const block b = it->second;
  erase_free(address, b);
  blocks_.erase(it);
  segments_.erase(address);
  addresses_.give_back(address);
  reserved_ -= b.size;
  events_.push_back({segment_action::segment_free, address, byte_count{b.size}, b.stream});
}

ITERAGPU_INLINE void caching_allocator::release_cached_blocks() {
  for (const pool_kind pool : {pool_kind::large, pool_kind::small}) {
    std::vector<std::uint64_t> whole;
    std::vector<std::uint64_t> to_unmap;
    for (const auto& key : free_.at(index(pool))) {
      const auto it = blocks_.find(std::get<2>(key));
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
        unmapped_.at(index(pool)).erase({it->second.stream, it->first});
        segments_.erase(it->first);
        addresses_.give_back(it->first);
        blocks_.erase(it);
      }
    }
  }
}

[[nodiscard]] ITERAGPU_INLINE bool caching_allocator::release_available_cached_blocks(block_size size,
                                                                                      std::uint64_t stream) {
  if (!settings_.max_split_size) {
    return false;
  }
  const auto& cached = free_.at(index(size.pool()));
  const std::uint64_t target = size.bytes().value < max_split() ? max_split() : size.bytes().value;
  auto it = cached.lower_bound({stream, target, 0});
  if (it != cached.end() && std::get<0>(*it) == stream && !blocks_.at(std::get<2>(*it)).expandable) {
    release_block(std::get<2>(*it));
    return true;
  }
  if (it == cached.begin()) {
    return false;
  }
  std::uint64_t released = 0;
  --it;
  while (released < target && std::get<1>(*it) >= max_split() && std::get<0>(*it) == stream) {
    const auto current = it;
    const bool first = current == cached.begin();
    if (!first) {
      --it;
    }
    const std::uint64_t address = std::get<2>(*current);
    if (!blocks_.at(address).expandable) {
      released += std::get<1>(*current);
      release_block(address);
    }
    if (first) {
      break;
    }
  }
  return released >= target;
}

ITERAGPU_INLINE void caching_allocator::garbage_collect_cached_blocks() {
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
  for (const auto& key : cached) {
    if (freeable(std::get<2>(key))) {
      total_age += age(std::get<2>(key));
      ++count;
    }
  }
  std::uint64_t reclaimed = 0;
  bool freed = true;
  while (reclaimed < target && freed && count > 0) {
    const double threshold = static_cast<double>(total_age) / static_cast<double>(count);
    freed = false;
    for (auto it = cached.begin(); it != cached.end();) {
      const std::uint64_t address = std::get<2>(*it++);
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

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_IMPL_CACHING_ALLOCATOR_IPP
