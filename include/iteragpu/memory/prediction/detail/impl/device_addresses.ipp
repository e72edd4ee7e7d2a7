#ifndef ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ADDRESSES_IPP
#define ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ADDRESSES_IPP

#include <algorithm>
#include <iterator>

#include "iteragpu/checked.hpp"
#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/detail/device_addresses.hpp"

// The bodies of <iteragpu/memory/prediction/detail/device_addresses.hpp>.

namespace iteragpu::memory::prediction::detail {

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_address_space::place(std::uint64_t bytes) const {
  // The newest chunk with room first; in it, the smallest gap that fits.
  const auto newest = std::find_if(by_age_.rbegin(), by_age_.rend(),
                                   [&](const auto& age) { return chunks_.at(age.second).largest_gap >= bytes; });
  if (newest != by_age_.rend()) {
    return gap_in(newest->second, chunks_.at(newest->second), bytes);
  }
  const auto whole = checked_add(bytes, chunk_granularity - 1);
  if (!whole) {
    return std::nullopt;
  }
  const std::uint64_t rounded = *whole / chunk_granularity * chunk_granularity;
  // A range given back is taken again, at its top, by a chunk smaller than
  // it (a chunk of exactly its size went below the lowest chunk instead).
  const auto range = std::find_if(given_back_.rbegin(), given_back_.rend(),
                                  [rounded](const auto& r) { return r.second - r.first > rounded; });
  if (range != given_back_.rend()) {
    return range->second - rounded;
  }
  return place_reservation(rounded);
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_address_space::place_reservation(
    std::uint64_t bytes) const {
  const std::uint64_t floor = chunks_.empty() ? top : chunks_.begin()->first;
  if (floor >= lowest && floor - lowest >= bytes) {
    return floor - bytes;
  }
  // No room below: above the highest chunk.
  const std::uint64_t above = chunks_.empty() ? lowest : chunks_.rbegin()->second.end;
  if (!checked_add(above, bytes)) {
    return std::nullopt;
  }
  return above;
}

ITERAGPU_INLINE void device_address_space::take(std::uint64_t address, std::uint64_t bytes, bool whole_chunk) {
  const auto end = checked_add(address, bytes);
  if (!end) {
    return;
  }
  if (const auto it = chunk_holding(address); it != chunks_.end()) {
    // Inside a chunk: in its unused part (or past its end, where the
    // recorded run shows more room than the chunk's size says).
    it->second.held.emplace(address, bytes);
    if (*end > it->second.end) {
      it->second.end = *end;
      reserve(address, *end);
    }
    measure(it->first, it->second);
    return;
  }
  // A new chunk, cut short where the next one starts.
  const auto whole = checked_add(bytes, chunk_granularity - 1);
  std::uint64_t chunk_end = *end;
  if (whole && whole_chunk) {
    if (const auto rounded = checked_add(address, *whole / chunk_granularity * chunk_granularity)) {
      chunk_end = *rounded;
    }
  }
  if (const auto next = chunks_.upper_bound(address); next != chunks_.end() && next->first < chunk_end) {
    chunk_end = next->first < *end ? *end : next->first;
  }
  chunk& made = chunks_[address];
  made = chunk{.end = chunk_end, .made = ++made_, .held = {{address, bytes}}};
  measure(address, made);
  by_age_.emplace(made.made, address);
  reserve(address, chunk_end);
}

ITERAGPU_INLINE void device_address_space::give_back(std::uint64_t address) {
  const auto it = chunk_holding(address);
  if (it == chunks_.end()) {
    return;
  }
  it->second.held.erase(address);
  if (!it->second.held.empty()) {
    measure(it->first, it->second);
    return;
  }
  std::uint64_t start = it->first;
  std::uint64_t end = it->second.end;
  by_age_.erase(it->second.made);
  chunks_.erase(it);
  // Merged with the ranges given back beside it.
  if (const auto after = given_back_.find(end); after != given_back_.end()) {
    end = after->second;
    given_back_.erase(after);
  }
  if (const auto before = given_back_.lower_bound(start); before != given_back_.begin()) {
    if (const auto previous = std::prev(before); previous->second == start) {
      start = previous->first;
      given_back_.erase(previous);
    }
  }
  given_back_.emplace(start, end);
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> device_address_space::gap_in(std::uint64_t start,
                                                                                        const chunk& c,
                                                                                        std::uint64_t bytes) {
  std::optional<std::uint64_t> best;
  std::uint64_t best_size = 0;
  std::uint64_t cursor = start;
  const auto consider = [&](std::uint64_t from, std::uint64_t to) {
    if (to > from && to - from >= bytes && (!best || to - from < best_size)) {
      best = from;
      best_size = to - from;
    }
  };
  for (const auto& [address, size] : c.held) {
    consider(cursor, address);
    const std::uint64_t after = address + size;
    cursor = after > cursor ? after : cursor;
  }
  consider(cursor, c.end);
  return best;
}

ITERAGPU_INLINE void device_address_space::measure(std::uint64_t start, chunk& c) {
  std::uint64_t largest = 0;
  std::uint64_t cursor = start;
  for (const auto& [address, size] : c.held) {
    largest = address > cursor && address - cursor > largest ? address - cursor : largest;
    const std::uint64_t after = address + size;
    cursor = after > cursor ? after : cursor;
  }
  c.largest_gap = c.end > cursor && c.end - cursor > largest ? c.end - cursor : largest;
}

[[nodiscard]] ITERAGPU_INLINE std::map<std::uint64_t, device_address_space::chunk>::iterator
device_address_space::chunk_holding(std::uint64_t address) {
  auto it = chunks_.upper_bound(address);
  if (it == chunks_.begin()) {
    return chunks_.end();
  }
  --it;
  return address < it->second.end ? it : chunks_.end();
}

ITERAGPU_INLINE void device_address_space::reserve(std::uint64_t start, std::uint64_t end) {
  auto it = given_back_.upper_bound(start);
  if (it != given_back_.begin()) {
    --it;
  }
  while (it != given_back_.end() && it->first < end) {
    const std::uint64_t from = it->first;
    const std::uint64_t to = it->second;
    if (to <= start) {
      ++it;
      continue;
    }
    it = given_back_.erase(it);
    if (from < start) {
      given_back_.emplace(from, start);
    }
    if (to > end) {
      given_back_.emplace(end, to);
    }
  }
}

}  // namespace iteragpu::memory::prediction::detail

#endif  // ITERAGPU_MEMORY_PREDICTION_DETAIL_IMPL_DEVICE_ADDRESSES_IPP
