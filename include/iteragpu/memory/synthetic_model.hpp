#ifndef ITERAGPU_MEMORY_SYNTHETIC_MODEL_HPP
#define ITERAGPU_MEMORY_SYNTHETIC_MODEL_HPP

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/policies/dtype.hpp"

/// \file
/// The synthetic network Linear(width -> 4*width) -> GELU -> Linear(4*width
/// -> width) on an input [batch, context, width], described without LibTorch.
/// `context` is a number of positions: there is no attention and no KV cache.
namespace iteragpu::memory {

/// The input's shape [batch, context, width], which fixes the network's.
struct synthetic_shape {
  std::uint64_t batch{1};    ///< inputs in a pass
  std::uint64_t context{1};  ///< positions per input
  std::uint64_t width{1};    ///< features per position; the hidden layer has hidden_multiplier times more
  friend constexpr bool operator==(const synthetic_shape&, const synthetic_shape&) = default;
};

/// The hidden layer's width over the input's.
inline constexpr std::uint64_t hidden_multiplier = 4;
/// Fixed seeds, so that two runs build the same weights and inputs.
inline constexpr std::uint64_t model_seed = 0;
inline constexpr std::uint64_t input_seed = 1;  ///< see model_seed

/// The network as the reports describe it.
struct synthetic_model_summary {
  std::uint64_t width{0};                     ///< as the shape's
  std::uint64_t hidden{0};                    ///< width x hidden_multiplier
  std::uint64_t parameters{0};                ///< 2 weight matrices + 2 bias vectors
  std::uint64_t parameter_bytes{0};           ///< parameters x bytes per element
  std::uint64_t input_elements{0};            ///< batch x context x width
  element_type dtype{element_type::float32};  ///< the element type of weights and inputs
  std::array<std::string, 3> layers;          ///< "Linear(64 -> 256)", "GELU", "Linear(256 -> 64)"
};

/// nullopt when a count passes what LibTorch can index (int64 sizes).
[[nodiscard]] std::optional<synthetic_model_summary> summarize_model(const synthetic_shape& shape, element_type dtype);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/synthetic_model.ipp"
#endif

#endif  // ITERAGPU_MEMORY_SYNTHETIC_MODEL_HPP
