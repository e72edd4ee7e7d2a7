#ifndef ITERAGPU_TORCH_DEVICE_HPP
#define ITERAGPU_TORCH_DEVICE_HPP

#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/torch/narrow.hpp"

/// \file
/// The library's device index as LibTorch's, and LibTorch's lazy GPU
/// initialization, for the CUDA and the HIP adapters alike.
namespace iteragpu::torch_adapter {

/// The index as LibTorch's c10::DeviceIndex, checked (narrow()).
[[nodiscard]] inline c10::DeviceIndex to_c10(device_index d) { return narrow_or_throw<c10::DeviceIndex>(d.value); }

/// LibTorch initializes its GPU state (the caching allocator's per-device
/// tables above all) lazily, on the first tensor operation; the counters
/// cannot be read before. The call was renamed after 2.4, hence the probe.
/// LibTorch's HIP build keeps the CUDA names (its devices report type CUDA).
template <class Context>
void initialize_gpu_state(Context& context) {
  if constexpr (requires { context.lazyInitDevice(c10::DeviceType::CUDA); }) {
    context.lazyInitDevice(c10::DeviceType::CUDA);
  } else {
    context.lazyInitCUDA();
  }
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_DEVICE_HPP
