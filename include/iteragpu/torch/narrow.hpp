#ifndef ITERAGPU_TORCH_NARROW_HPP
#define ITERAGPU_TORCH_NARROW_HPP

#include <concepts>
#include <stdexcept>

#include "iteragpu/checked.hpp"

/// \file
/// narrow() for the LibTorch adapters, the one place besides the command line
/// where the library throws: a value that LibTorch hands over, or that the
/// adapters hand to it, and that does not fit, ends the operation as
/// LibTorch's own errors do.
namespace iteragpu::torch_adapter {

/// `value` as a `To`; std::range_error when `To` cannot hold it (iteragpu::narrow()).
template <std::integral To, std::integral From>
[[nodiscard]] constexpr To narrow_or_throw(From value) {
  const auto narrowed = narrow<To>(value);
  if (!narrowed) {
    throw std::range_error("iteragpu::narrow: value out of range");
  }
  return *narrowed;
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_NARROW_HPP
