#ifndef ITERAGPU_TORCH_HIP_BACKEND_HPP
#define ITERAGPU_TORCH_HIP_BACKEND_HPP

/// \file
/// The ROCm/HIP backend and the HIP caching allocator's counters: the same
/// gpu_backend and gpu_allocator_counter as CUDA's
/// (iteragpu/torch/gpu_backend.hpp), over hip_traits. NEVER COMPILED OR RUN:
/// no ROCm LibTorch exists on any machine where this project is built and
/// tested (see iteragpu/torch/hip_traits.hpp). It is enabled only when
/// ITERAGPU_TORCH_HIP is defined. No GPU state is read on ROCm (no ROCm SMI
/// reader is written): clocks, power, temperature and the driver's facts
/// are reported as not available.
#if defined(ITERAGPU_TORCH_HIP)

#include "iteragpu/torch/gpu_backend.hpp"
#include "iteragpu/torch/hip_traits.hpp"

namespace iteragpu::torch_adapter {

/// LibTorch's HIP runtime: `hip_backend backend{hip_traits::no_state_reader()};`.
using hip_backend = gpu_backend<hip_traits>;

/// The HIP caching allocator's aggregate counters for one device.
using hip_allocator_counter = gpu_allocator_counter<hip_traits>;

static_assert(complete_gpu_runtime<hip_traits>);

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_HIP)
#endif  // ITERAGPU_TORCH_HIP_BACKEND_HPP
