#ifndef ITERAGPU_MEMORY_NEED_HPP
#define ITERAGPU_MEMORY_NEED_HPP

#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/units.hpp"

/// \file
/// The memory a run needs on one GPU, and where the figure comes from: the
/// shared vocabulary of the estimate, the plan and the measurement, which
/// the package search reads to find the packages that hold it. In JSON it is
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
  /// The setting the need was reached under and how to run with it, in
  /// words (a replay's least need among several settings); empty otherwise.
  std::string setting{};
  /// Equal when every member is equal.
  friend bool operator==(const memory_need&, const memory_need&) = default;
};

}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_NEED_HPP
