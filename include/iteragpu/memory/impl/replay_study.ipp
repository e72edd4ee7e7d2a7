#ifndef ITERAGPU_MEMORY_IMPL_REPLAY_STUDY_IPP
#define ITERAGPU_MEMORY_IMPL_REPLAY_STUDY_IPP

#include <bit>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/replay_study.hpp"

// The bodies of the functions that <iteragpu/memory/replay_study.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE prediction::allocator_settings settings_of(
    const std::optional<recorded_settings>& recorded) {
  prediction::allocator_settings s;
  if (!recorded) {
    return s;
  }
  if (recorded->max_split_size) {
    s.max_split_size = byte_count{*recorded->max_split_size};
  }
  s.garbage_collection_threshold = recorded->garbage_collection_threshold;
  s.expandable_segments = recorded->expandable_segments;
  // The snapshot names each bucket by its power of two in MiB (1 to 32768).
  for (const auto& [mib, divisions] : recorded->roundup_power2_divisions) {
    const auto bucket = static_cast<std::size_t>(std::bit_width(mib)) - 1U;
    if (std::has_single_bit(mib) && bucket < s.roundup_power2_divisions.size()) {
      s.roundup_power2_divisions.at(bucket) = divisions;
    }
  }
  return s;
}

namespace detail::studying {

// The smallest capacity of `options`' setting and the retries at it, put in
// `r`; returns that capacity (none where the search finds none, or where the
// trace ends where the recorded program died).
[[nodiscard]] ITERAGPU_INLINE result<std::optional<byte_count>, replay_error> fill_smallest_capacity(
    const device_trace& trace, const replay_options& options, setting_result& r) {
  auto smallest = smallest_capacity(trace, options);
  if (!smallest) {
    if (smallest.error().code == replay_errc::ends_where_program_died) {
      return std::optional<byte_count>{};
    }
    return unexpected{smallest.error()};
  }
  r.smallest_capacity = *smallest;
  if (*smallest) {
    auto at_smallest = options;
    at_smallest.capacity = *smallest;
    at_smallest.follow_recorded_addresses = false;  // as the search replays it
    const auto there = replay(trace, at_smallest);
    if (!there) {
      return unexpected{there.error()};
    }
    r.smallest_capacity_retries = there->alloc_retries;
  }
  return *smallest;
}

}  // namespace detail::studying

[[nodiscard]] ITERAGPU_INLINE result<study, replay_error> run_study(const device_trace& trace,
                                                                    const prediction::allocator_settings& recorded,
                                                                    const study_request& request) {
  study s;
  std::vector<held_segment> start;
  if (!check_beginning(trace.events) || unexplained_segment(trace)) {
    auto rebuilt = state_at_start(trace, recorded);
    if (!rebuilt) {
      return unexpected{rebuilt.error()};
    }
    start = std::move(*rebuilt);
  }
  s.recorded = peaks_in(trace.events, recorded, start);
  replay_options check{recorded, std::nullopt, request.device_memory, true, recorded};
  auto self = replay(trace, check);
  if (!self) {
    return unexpected{self.error()};
  }
  s.self_check = std::move(*self);
  for (const auto& asked : request.settings) {
    replay_options options{asked.settings, request.capacity, request.device_memory, false, recorded};
    auto outcome = replay(trace, options);
    if (!outcome) {
      return unexpected{outcome.error()};
    }
    setting_result r{asked, std::move(*outcome), std::nullopt, std::nullopt, std::nullopt};
    std::optional<byte_count> base;
    if (request.smallest_capacity) {
      auto smallest = detail::studying::fill_smallest_capacity(trace, options, r);
      if (!smallest) {
        return unexpected{smallest.error()};
      }
      base = *smallest;
    } else if (!r.outcome.oom && !r.outcome.past_recorded_death) {
      base = r.outcome.peak_reserved;
    }
    if (base) {
      if (const auto total = checked_add(base->value, request.outside.value)) {
        r.memory_need = byte_count{*total};
      }
    }
    s.settings.push_back(std::move(r));
  }
  return s;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_REPLAY_STUDY_IPP
