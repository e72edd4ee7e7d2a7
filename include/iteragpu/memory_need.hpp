#ifndef ITERAGPU_MEMORY_NEED_HPP
#define ITERAGPU_MEMORY_NEED_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/units.hpp"

/// \file
/// The memory a run needs on one GPU, and where the figure comes from: the
/// shared vocabulary of the estimate, the plan and the measurement, which
/// the package search reads to find the packages that hold it. In JSON it is
/// `memory_need`: bytes, and GiB and GB as exact decimals (report/memory_need.hpp).
namespace iteragpu {

/// One GPU's need where the need was judged GPU by GPU (extrapolate --json
/// at one size): the replay of the trace under that GPU's capacity.
struct gpu_need {
  std::string gpu;                   ///< the catalog id
  byte_count capacity;               ///< the capacity it was judged under: its memory's low end less `outside`
  std::optional<byte_count> need{};  ///< the most peak reserved of the replay plus `outside`; none: it does not fit
  friend bool operator==(const gpu_need&, const gpu_need&) = default;
};

/// The memory a run needs on one GPU, and where the figure comes from.
struct memory_need {
  byte_count bytes;    ///< the need
  std::string source;  ///< which figure was taken, in words
  /// The need in GiB as the person gave it (--fits-gib), which `bytes`
  /// rounds up; shown in place of the GiB of `bytes`. Nothing for a need
  /// read from a file.
  std::optional<exact_decimal> stated_gib{};
  /// The setting the need was reached under and how to run with it, in
  /// words (a replay's least need among several settings); empty otherwise.
  std::string setting{};
  /// Judged GPU by GPU: the verdict of each GPU judged, which the search
  /// follows instead of `bytes` (a GPU not judged is not listed); empty
  /// for a need that is one figure.
  std::vector<gpu_need> per_gpu{};
  /// The memory outside the allocator the per-GPU needs count.
  byte_count outside{};
  friend bool operator==(const memory_need&, const memory_need&) = default;
};

/// The need to place in the band of GPU `gpu`, whose low end is `band_low`:
/// `need.bytes`, or where the need was judged GPU by GPU, that GPU's when it
/// was judged under the capacity this band gives (`band_low` less the memory
/// outside the allocator). None where the GPU was not judged, was judged
/// under another capacity (another catalog), or does not hold it.
[[nodiscard]] inline std::optional<byte_count> need_on(const memory_need& need, std::string_view gpu,
                                                       byte_count band_low) {
  if (need.per_gpu.empty()) {
    return need.bytes;
  }
  for (const auto& g : need.per_gpu) {
    if (g.gpu == gpu) {
      const bool same_capacity =
          band_low.value >= need.outside.value && band_low.value - need.outside.value == g.capacity.value;
      return same_capacity ? g.need : std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_NEED_HPP
