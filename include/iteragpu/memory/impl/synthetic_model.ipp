#ifndef ITERAGPU_MEMORY_IMPL_SYNTHETIC_MODEL_IPP
#define ITERAGPU_MEMORY_IMPL_SYNTHETIC_MODEL_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/synthetic_model.hpp"

// The bodies of the functions that <iteragpu/memory/synthetic_model.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::optional<synthetic_model_summary> summarize_model(const synthetic_shape& shape,
                                                                                     element_type dtype) {
  constexpr auto int64_limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const auto hidden = checked_mul(shape.width, hidden_multiplier);
  if (!hidden) {
    return std::nullopt;
  }
  const auto matrix = checked_mul(shape.width, *hidden);  // each weight matrix
  const auto matrices = matrix ? checked_mul(*matrix, std::uint64_t{2}) : std::nullopt;
  const auto biases = checked_add(*hidden, shape.width);
  const auto parameters = matrices && biases ? checked_add(*matrices, *biases) : std::nullopt;
  const auto bytes = parameters ? checked_mul(*parameters, std::uint64_t{bytes_per_element(dtype)}) : std::nullopt;
  const auto rows = checked_mul(shape.batch, shape.context);
  const auto inputs = rows ? checked_mul(*rows, shape.width) : std::nullopt;
  // The widest activation, [batch, context, hidden], must be indexable too.
  const auto activations = rows ? checked_mul(*rows, *hidden) : std::nullopt;
  if (!bytes || !inputs || !activations || *bytes > int64_limit || *activations > int64_limit) {
    return std::nullopt;
  }
  const auto w = std::to_string(shape.width);
  const auto h = std::to_string(*hidden);
  return synthetic_model_summary{shape.width,
                                 *hidden,
                                 *parameters,
                                 *bytes,
                                 *inputs,
                                 dtype,
                                 {"Linear(" + w + " -> " + h + ")", "GELU", "Linear(" + h + " -> " + w + ")"}};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_SYNTHETIC_MODEL_IPP
