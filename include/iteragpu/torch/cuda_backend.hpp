#ifndef ITERAGPU_TORCH_CUDA_BACKEND_HPP
#define ITERAGPU_TORCH_CUDA_BACKEND_HPP

/// \file
/// The CUDA backend and the CUDA caching allocator's counters: gpu_backend
/// and gpu_allocator_counter (iteragpu/torch/gpu_backend.hpp) over
/// cuda_traits. Only a CUDA build of LibTorch can provide them: CMake
/// defines ITERAGPU_TORCH_CUDA when it finds one. Elsewhere this header
/// declares nothing.
#if defined(ITERAGPU_TORCH_CUDA)

#include "iteragpu/nvml/session.hpp"
#include "iteragpu/torch/cuda_traits.hpp"
#include "iteragpu/torch/gpu_backend.hpp"

namespace iteragpu::torch_adapter {

/// LibTorch's CUDA runtime, with the NVML session the caller opened for the
/// GPU's state and the driver's facts:
/// `cuda_backend backend{nvml::session::open()};`.
using cuda_backend = gpu_backend<cuda_traits>;

/// The CUDA caching allocator's aggregate counters for one device.
using cuda_allocator_counter = gpu_allocator_counter<cuda_traits>;

static_assert(complete_gpu_runtime<cuda_traits>);

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_CUDA)
#endif  // ITERAGPU_TORCH_CUDA_BACKEND_HPP
