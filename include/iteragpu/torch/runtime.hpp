#ifndef ITERAGPU_TORCH_RUNTIME_HPP
#define ITERAGPU_TORCH_RUNTIME_HPP

#include <optional>
#include <string>
#include <vector>

#include <torch/version.h>

#include "iteragpu/environment.hpp"
#include "iteragpu/policies/backend.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/synthetic_model.hpp"
#include "iteragpu/torch/cuda_backend.hpp"
#include "iteragpu/torch/hip_backend.hpp"
#include "iteragpu/torch/synthetic_workload.hpp"

// The GPU runtime of a LibTorch build, for the `environment` and `measure`
// commands: CUDA or HIP where LibTorch has them, otherwise a runtime that
// reports that this LibTorch has no GPU runtime.
namespace iteragpu::torch_adapter {

[[nodiscard]] inline std::string libtorch_version() { return TORCH_VERSION; }

template <backend_policy Backend>
struct probe_only_runtime {
  [[nodiscard]] static environment_report environment(device_index d) {
    return probe_environment<Backend>(d, libtorch_version());
  }
};

#if defined(ITERAGPU_TORCH_CUDA) || defined(ITERAGPU_TORCH_HIP)
template <measuring_backend Backend, memory_counter Counter>
  requires requires { Backend::initialise(); }
struct gpu_measuring_runtime {
  [[nodiscard]] static environment_report environment(device_index d) {
    return probe_environment<Backend>(d, libtorch_version());
  }

  // The measured device is made current for the whole run: events, streams
  // and allocations all belong to it.
  [[nodiscard]] static std::vector<phase_row> measure(element_type e, device_index d, const synthetic_shape& shape,
                                                      const protocol_plan& plan) {
    Backend::initialise();
    return with_dtype(e, [&]<dtype_policy D>() {
      const c10::DeviceGuard guard(torch::Device(torch::kCUDA, to_c10(d)));
      synthetic_workload<D> work(torch::Device(torch::kCUDA, to_c10(d)), shape);
      return phase_protocol<D, Backend, Counter>(d).run(work, plan);
    });
  }
};
#endif

#if defined(ITERAGPU_TORCH_CUDA)
using libtorch_runtime = gpu_measuring_runtime<cuda_backend, cuda_allocator_counter>;
#elif defined(ITERAGPU_TORCH_HIP)
using libtorch_runtime = gpu_measuring_runtime<hip_backend, hip_allocator_counter>;
#else
using libtorch_runtime = probe_only_runtime<unavailable_backend<libtorch_without_gpu_runtime>>;
#endif

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_RUNTIME_HPP
