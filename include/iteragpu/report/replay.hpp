#ifndef ITERAGPU_REPORT_REPLAY_HPP
#define ITERAGPU_REPORT_REPLAY_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A replay study (memory/replay_study.hpp) in words and as JSON
/// (data/schema/replay.schema.json), and the words for the errors of the
/// snapshot reader and of the replay.
namespace iteragpu::report {

/// What the replay is and is not, printed with every result.
inline constexpr std::string_view replay_statement =
    "A replay is a prediction: the recorded requests run through PyTorch 2.11's caching allocator, simulated. "
    "A program that changes its requests under pressure (cuDNN's workspace choice, a cache sized from free "
    "memory) may ask for other bytes under another capacity or setting.";

/// The name of a trace action, as the snapshot writes it.
[[nodiscard]] constexpr std::string_view action_name(memory::trace_action a) noexcept {
  switch (a) {
    case memory::trace_action::alloc:
      return "alloc";
    case memory::trace_action::free_requested:
      return "free_requested";
    case memory::trace_action::free_completed:
      return "free_completed";
    case memory::trace_action::segment_alloc:
      return "segment_alloc";
    case memory::trace_action::segment_free:
      return "segment_free";
    case memory::trace_action::segment_map:
      return "segment_map";
    case memory::trace_action::segment_unmap:
      return "segment_unmap";
    case memory::trace_action::oom:
      return "oom";
    case memory::trace_action::snapshot:
      return "snapshot";
    case memory::trace_action::other:
      return "other";
  }
  return "other";
}

/// Why a dict is not a snapshot, in words.
[[nodiscard]] std::string describe(const memory::snapshot_error& e);

/// Why a trace cannot be replayed, in words.
[[nodiscard]] std::string describe(const memory::replay_error& e);

namespace detail::replay_text {

[[nodiscard]] boost::json::value event_json(const memory::trace_event& e);

[[nodiscard]] boost::json::value events_json(const std::vector<memory::trace_event>& events);

[[nodiscard]] std::optional<memory_need> need_of(const memory::setting_result& r, bool smallest);

// The smallest need of every setting, the one a replay's JSON gives as its memory need.
[[nodiscard]] std::optional<memory_need> least_need(const memory::study& s, bool smallest);

// Bytes, and their size for reading (size_text()).
[[nodiscard]] inline std::string bytes_text(byte_count b) { return bytes_and_size_text(b.value); }

// "N allocation retries", singular for one.
[[nodiscard]] inline std::string retries_text(std::uint64_t n) {
  return to_decimal_string(n) + (n == 1U ? " allocation retry" : " allocation retries");
}

}  // namespace detail::replay_text

/// How the study was asked, for the reports.
struct replay_context {
  std::string file;                      ///< the snapshot's name, as given
  std::size_t device{0};                 ///< the device index replayed
  bool settings_recorded{false};         ///< whether the snapshot records its settings
  std::string recorded_alloc_conf;       ///< PYTORCH_CUDA_ALLOC_CONF as recorded
  bool smallest_capacity{false};         ///< whether the smallest capacities were searched
  std::optional<byte_count> capacity{};  ///< the capacity asked
  byte_count outside;                    ///< the memory outside the allocator counted in a need
};

/// Whether the self-check passed: the replay under the recorded settings
/// made the recorded segment events.
[[nodiscard]] inline bool self_check_passed(const memory::study& s) noexcept { return !s.self_check.divergence; }

/// The study as one JSON object (data/schema/replay.schema.json).
[[nodiscard]] boost::json::value to_json(const memory::study& s, const replay_context& c);

namespace detail::replay_text {

void write_events(std::ostream& out, const std::vector<memory::trace_event>& events);

void write_self_check(std::ostream& out, const memory::study& s);

void write_cautions(std::ostream& out, const memory::study& s);

// The GPUs on record whose memory holds `need`, by the memory rule.
void write_gpus_holding(std::ostream& out, byte_count need);

void write_setting(std::ostream& out, const memory::setting_result& r, const replay_context& c);

}  // namespace detail::replay_text

/// The study in words: the self-check, then one paragraph per setting with
/// the GPUs on record whose memory holds its need.
void write_text(std::ostream& out, const memory::study& s, const replay_context& c);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/replay.ipp"
#endif

#endif  // ITERAGPU_REPORT_REPLAY_HPP
