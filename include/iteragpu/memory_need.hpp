#ifndef ITERAGPU_MEMORY_NEED_HPP
#define ITERAGPU_MEMORY_NEED_HPP

#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/memory/estimate.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The memory a run needs on one GPU, and where the figure comes from: the
/// shared vocabulary of the estimate, the plan and the measurement, which
/// calcul_forfaits reads to find the packages that hold it. In JSON it is
/// `memory_need`: bytes, and GiB and GB as exact decimals (report/memory_need.hpp).
namespace iteragpu {

/// The memory a run needs on one GPU, and where the figure comes from.
struct memory_need {
  byte_count bytes;    ///< the need
  std::string source;  ///< which figure was taken, in words
  /// The need in GiB as the person gave it (--fits-gib), which `bytes`
  /// rounds up; shown in place of the GiB of `bytes`. Nothing for a need
  /// read from a file.
  std::optional<exact_decimal> stated_gib{};
  /// Equal when every member is equal.
  friend bool operator==(const memory_need&, const memory_need&) = default;
};

/// The source of a need made from an estimate, as memory_need::source.
inline constexpr std::string_view estimate_need_source =
    "estimate: weights + reserve, rounded up to a whole byte (activations, KV cache and libraries not included)";

/// An estimate's total as a need; nothing when its bytes pass 64 bits.
[[nodiscard]] std::optional<memory_need> need_of(const memory_estimate& estimate);

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE)
#include "iteragpu/impl/memory_need.ipp"
#endif

#endif  // ITERAGPU_MEMORY_NEED_HPP
