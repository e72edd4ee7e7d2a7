#ifndef ITERAGPU_MEMORY_REPLAY_STUDY_HPP
#define ITERAGPU_MEMORY_REPLAY_STUDY_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// One trace replayed under several allocator settings, as a replay
/// reports it: the self-check under the recorded settings first,
/// then each setting asked, with its smallest capacity and the memory need
/// that follows (the capacity plus the memory outside the allocator).
namespace iteragpu::memory {

/// One setting to replay: its text as PyTorch reads PYTORCH_CUDA_ALLOC_CONF
/// ("" for the recorded settings) and the settings it gives.
struct setting_request {
  std::string alloc_conf;                   ///< as given; "" for the recorded settings
  prediction::allocator_settings settings;  ///< what the text sets (the rest PyTorch's defaults)
  /// Equal when every member is equal.
  friend bool operator==(const setting_request&, const setting_request&) = default;
};

/// What the study asks.
struct study_request {
  std::vector<setting_request> settings;      ///< in the order given
  std::optional<byte_count> capacity{};       ///< the capacity of every replay; none: unlimited
  bool smallest_capacity{false};              ///< search the smallest capacity of each setting
  byte_count outside{};                       ///< memory outside the allocator (the card's); none unless given
  std::optional<byte_count> device_memory{};  ///< the device's memory (replay_options::device_memory)
};

/// One setting's result.
struct setting_result {
  setting_request request;  ///< the setting
  replay_outcome outcome;   ///< under the capacity asked
  /// With study_request::smallest_capacity: the smallest capacity, none
  /// when the trace runs out of memory under every capacity.
  std::optional<byte_count> smallest_capacity{};
  /// The allocation retries under the smallest capacity, when there is one.
  std::optional<std::uint64_t> smallest_capacity_retries{};
  /// The memory a GPU needs for this setting: the smallest capacity (or,
  /// without the search, the peak reserved with no capacity) plus the memory
  /// outside the allocator; none when it runs out of memory or passes 64 bits.
  std::optional<byte_count> memory_need{};
  /// Equal when every member is equal.
  friend bool operator==(const setting_result&, const setting_result&) = default;
};

/// The whole study.
struct study {
  recorded_peaks recorded;               ///< the peaks the trace shows by itself
  replay_outcome self_check;             ///< the recorded settings, recorded addresses, no capacity
  std::vector<setting_result> settings;  ///< one per setting asked
  /// Equal when every member is equal.
  friend bool operator==(const study&, const study&) = default;
};

/// The settings a snapshot recorded, as the simulation takes them; PyTorch's
/// defaults when it recorded none (before PyTorch 2.3).
[[nodiscard]] prediction::allocator_settings settings_of(const std::optional<recorded_settings>& recorded);

/// Replays `trace` as `request` asks (see the file's description).
[[nodiscard]] result<study, replay_error> run_study(const device_trace& trace,
                                                    const prediction::allocator_settings& recorded,
                                                    const study_request& request);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/replay_study.ipp"
#endif

#endif  // ITERAGPU_MEMORY_REPLAY_STUDY_HPP
