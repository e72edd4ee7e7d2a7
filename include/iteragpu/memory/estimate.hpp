#ifndef ITERAGPU_MEMORY_ESTIMATE_HPP
#define ITERAGPU_MEMORY_ESTIMATE_HPP

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The memory of a model's weights from its parameter count and storage width, exactly, with no
/// GPU; a reserve chosen by the user may be added.
namespace iteragpu::memory {

/// A number of model parameters (weights).
struct parameter_count {
  std::uint64_t value{0};  ///< parameters
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(parameter_count, parameter_count) = default;
};

/// The width of one stored parameter, in bits (16 for bfloat16, 4 for int4).
struct storage_bits {
  std::uint64_t value{0};  ///< bits
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(storage_bits, storage_bits) = default;
};

/// Why an estimate cannot be made.
enum class estimate_errc {
  zero_parameters,
  zero_bits,
  weight_bytes_overflow,  ///< parameters x bytes per parameter past 64 bits
  total_overflow,         ///< weight GiB + reserve GiB past 64 bits of whole GiB
};

/// The failure in a sentence, as messages print it.
[[nodiscard]] constexpr std::string_view describe(estimate_errc error) noexcept {
  switch (error) {
    case estimate_errc::zero_parameters:
      return "the parameter count must be a positive integer";
    case estimate_errc::zero_bits:
      return "the storage width must be a positive number of bits";
    case estimate_errc::weight_bytes_overflow:
      return "parameters x bytes per parameter does not fit in 64 bits";
    case estimate_errc::total_overflow:
      return "weight GiB + reserve GiB does not fit in 64 bits";
  }
  return "unknown estimate error";
}

/// What the estimate leaves out, in the words the reports print.
inline constexpr std::array<std::string_view, 6> not_included_in_estimate{
    "activations", "KV cache",         "quantisation metadata",
    "gradients",   "optimiser states", "libraries (CUDA context, framework workspaces)",
};

/// Storage is whole bytes: 4 bits -> 1 byte, 12 -> 2, 65 -> 9. Packed
/// sub-byte formats (two int4 values per byte) are not modelled.
[[nodiscard]] constexpr std::uint64_t bytes_per_parameter(storage_bits bits) noexcept {
  return bits.value / 8U + (bits.value % 8U != 0U ? 1U : 0U);
}

/// The memory the weights of a model take: parameters x whole bytes per parameter.
struct weight_estimate {
  parameter_count parameters;            ///< as asked
  storage_bits bits;                     ///< as asked
  std::uint64_t bytes_per_parameter{0};  ///< bytes_per_parameter(bits)
  byte_count weight_bytes;               ///< parameters x bytes per parameter

  /// The weights in GiB (2^30 bytes), exactly.
  [[nodiscard]] constexpr exact_decimal weight_gib() const noexcept { return to_gib(weight_bytes); }
  /// The weights in GB (10^9 bytes), exactly.
  [[nodiscard]] constexpr exact_decimal weight_gb() const noexcept { return to_gb(weight_bytes); }
  friend constexpr bool operator==(const weight_estimate&, const weight_estimate&) = default;
};

/// The memory of the weights, or why it cannot be estimated. In a constant
/// expression, `*estimate_weights(...)` of a failure fails to compile.
[[nodiscard]] constexpr result<weight_estimate, estimate_errc> estimate_weights(parameter_count parameters,
                                                                                storage_bits bits) noexcept {
  if (parameters.value == 0) {
    return unexpected{estimate_errc::zero_parameters};
  }
  if (bits.value == 0) {
    return unexpected{estimate_errc::zero_bits};
  }
  const std::uint64_t per_parameter = bytes_per_parameter(bits);
  const auto bytes = checked_mul(parameters.value, per_parameter);
  if (!bytes) {
    return unexpected{estimate_errc::weight_bytes_overflow};
  }
  return weight_estimate{parameters, bits, per_parameter, byte_count{*bytes}};
}

/// The weights plus a reserve the user chooses (an assumption, not a
/// measurement), in GiB.
struct memory_estimate {
  weight_estimate weights;    ///< the weights
  exact_decimal reserve_gib;  ///< the reserve, as asked
  exact_decimal total_gib;    ///< weights + reserve, exactly
  friend constexpr bool operator==(const memory_estimate&, const memory_estimate&) = default;
};

/// The weights plus `reserve_gib`, or why they cannot be estimated (as estimate_weights()).
[[nodiscard]] constexpr result<memory_estimate, estimate_errc> estimate_memory(
    parameter_count parameters, storage_bits bits, const exact_decimal& reserve_gib) noexcept {
  const auto weights = estimate_weights(parameters, bits);
  if (!weights) {
    return unexpected{weights.error()};
  }
  const auto total = checked_add(weights->weight_gib(), reserve_gib);
  if (!total) {
    return unexpected{estimate_errc::total_overflow};
  }
  return memory_estimate{*weights, reserve_gib, *total};
}

/// The source of a need made from an estimate, as memory_need::source.
inline constexpr std::string_view estimate_need_source =
    "estimate: weights + reserve, rounded up to a whole byte (activations, KV cache and libraries not included)";

/// An estimate's total as a need; nothing when its bytes pass 64 bits.
[[nodiscard]] std::optional<memory_need> need_of(const memory_estimate& estimate);

}  // namespace iteragpu::memory

// Measurement as a library call (README) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::parameter_count;
using memory::storage_bits;
using memory::estimate_weights;
using memory::estimate_memory;
using memory::weight_estimate;
using memory::memory_estimate;
using memory::estimate_errc;
}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/estimate.ipp"
#endif

#endif  // ITERAGPU_MEMORY_ESTIMATE_HPP
