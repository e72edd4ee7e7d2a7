#ifndef ITERAGPU_TORCH_DTYPE_HPP
#define ITERAGPU_TORCH_DTYPE_HPP

#include <c10/core/ScalarType.h>

#include "iteragpu/memory/policies/dtype.hpp"

/// \file
/// LibTorch's scalar type for each dtype policy.
namespace iteragpu::torch_adapter {

/// Half, BFloat16 or Float, for float16, bfloat16 and float32.
template <memory::dtype_policy D>
[[nodiscard]] constexpr c10::ScalarType scalar_type() noexcept {
  if constexpr (D::element == memory::element_type::float16) {
    return c10::ScalarType::Half;
  } else if constexpr (D::element == memory::element_type::bfloat16) {
    return c10::ScalarType::BFloat16;
  } else {
    static_assert(D::element == memory::element_type::float32, "every element_type needs a LibTorch scalar type");
    return c10::ScalarType::Float;
  }
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_DTYPE_HPP
