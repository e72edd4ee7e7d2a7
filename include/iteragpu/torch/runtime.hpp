#ifndef ITERAGPU_TORCH_RUNTIME_HPP
#define ITERAGPU_TORCH_RUNTIME_HPP

#include <exception>
#include <optional>
#include <string>

#include <torch/version.h>

#include "iteragpu/environment.hpp"
#include "iteragpu/gpu_runtime.hpp"
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

// A LibTorch without a GPU runtime (Debian's CPU-only build): it describes
// the environment, LibTorch's version included, and measures nothing.
struct probe_only_runtime {
  [[nodiscard]] static environment_report environment(device_index d) {
    unavailable_backend backend{libtorch_without_gpu_runtime};
    return probe_environment(backend, d, libtorch_version());
  }
};

#if defined(ITERAGPU_TORCH_CUDA) || defined(ITERAGPU_TORCH_HIP)
template <class Backend, class Counter>
  requires measuring_backend<Backend> && memory_counter<Counter> && device_inventory<Backend> &&
           requires { Backend::initialise(); }
struct gpu_measuring_runtime {
  [[no_unique_address]] Backend backend;
  [[no_unique_address]] Counter counter;

  [[nodiscard]] environment_report environment(device_index d) {
    return probe_environment(backend, d, libtorch_version());
  }

  // The measured device is made current for the whole run: events, streams
  // and allocations all belong to it.
  [[nodiscard]] result<measurement, measure_error> measure_synthetic(const synthetic_run& run) {
    try {
      Backend::initialise();
    } catch (const std::exception& e) {
      return unexpected{measure_error{phase_kind::model_load, detail::first_line(e.what())}};
    }
    return with_dtype(run.dtype, [&]<dtype_policy D>() {
      const torch::Device device(torch::kCUDA, to_c10(run.device));
      const c10::DeviceGuard guard(device);
      synthetic_workload<D> work(device, run.shape);
      return iteragpu::measure(backend, counter, work, run.device, run.plan);
    });
  }
};
#endif

#if defined(ITERAGPU_TORCH_CUDA)
using libtorch_runtime = gpu_measuring_runtime<cuda_backend, cuda_allocator_counter>;
#elif defined(ITERAGPU_TORCH_HIP)
using libtorch_runtime = gpu_measuring_runtime<hip_backend, hip_allocator_counter>;
#else
using libtorch_runtime = probe_only_runtime;
#endif

static_assert(environment_runtime<libtorch_runtime>);

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_RUNTIME_HPP
