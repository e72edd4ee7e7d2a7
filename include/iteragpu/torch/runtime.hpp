#ifndef ITERAGPU_TORCH_RUNTIME_HPP
#define ITERAGPU_TORCH_RUNTIME_HPP

#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torch/version.h>
#if defined(ITERAGPU_TORCH_CUDA)
#include <ATen/cuda/CUDAContext.h>
#if __has_include(<c10/cuda/CUDAAllocatorConfig.h>)
#include <c10/cuda/CUDAAllocatorConfig.h>
#define ITERAGPU_TORCH_ALLOCATOR_CONFIG 1
#endif
// From ~2.9 the device-independent settings moved to AllocatorConfig.h (the
// CUDA getters of them are deprecated).
#if __has_include(<c10/core/AllocatorConfig.h>)
#include <c10/core/AllocatorConfig.h>
#define ITERAGPU_TORCH_ACCELERATOR_ALLOCATOR_CONFIG 1
#endif
// The C++ side of PyTorch's memory snapshot exists from LibTorch 2.1 on.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
#include <torch/csrc/cuda/memory_snapshot.h>
#define ITERAGPU_TORCH_MEMORY_SNAPSHOT 1
#endif
#endif

#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/torch/aoti_workload.hpp"
#include "iteragpu/torch/cuda_backend.hpp"
#include "iteragpu/torch/device.hpp"
#include "iteragpu/torch/hip_backend.hpp"
#include "iteragpu/torch/synthetic_workload.hpp"
#include "iteragpu/torch/torchscript_workload.hpp"

/// \file
/// The GPU runtime of a LibTorch build, for the `environment` and `measure`
/// commands: CUDA or HIP where LibTorch has them, otherwise a runtime that
/// reports that this LibTorch has no GPU runtime.
namespace iteragpu::torch_adapter {

/// The version of the LibTorch the program was built with (TORCH_VERSION).
[[nodiscard]] inline std::string libtorch_version() { return TORCH_VERSION; }

/// A LibTorch without a GPU runtime (Debian's CPU-only build): it describes
/// the environment, LibTorch's version included, and measures nothing.
struct probe_only_runtime {
  /// The environment report: LibTorch's version, no GPU, and why.
  [[nodiscard]] static memory::environment_report environment(device_index d) {
    memory::unavailable_backend backend{memory::libtorch_without_gpu_runtime};
    return probe_environment(backend, d, libtorch_version());
  }
};

/// A GPU runtime that measures: the environment through `Backend`, and the synthetic network or a
/// TorchScript module on a device through iteragpu::memory::measure() with `Backend` and `Counter`.
/// Declared in every build, so that it is compiled (over a runtime of
/// stand-ins, tests/unit/torch/runtime_test.cpp) where LibTorch has no GPU.
template <class Backend, class Counter>
  requires measuring_backend<Backend> && memory_counter<Counter> && memory::device_inventory<Backend> &&
           requires { Backend::initialize(); }
struct gpu_measuring_runtime {
  [[no_unique_address]] Backend backend;    ///< synchronizes and times on the device
  [[no_unique_address]] Counter counter{};  ///< reads the caching allocator's counters

  /// A runtime over `b`, whose GPU state reader the caller opened (see open_libtorch_runtime()).
  explicit gpu_measuring_runtime(Backend b) : backend(std::move(b)) {}

  /// The environment report: versions, the visible GPUs and the device asked for.
  [[nodiscard]] memory::environment_report environment(device_index d) {
    return probe_environment(backend, d, libtorch_version());
  }

  /// The measured device is made current for the whole run: events, streams
  /// and allocations all belong to it.
  [[nodiscard]] result<measurement, measure_error> measure_synthetic(const memory::synthetic_run& run) {
    try {
      Backend::initialize();
    } catch (const std::exception& e) {
      return unexpected{measure_error{phase_kind::model_load, first_line(e.what())}};
    }
    return memory::with_dtype(run.dtype, [&]<memory::dtype_policy D>() {
      const torch::Device device(torch::kCUDA, to_c10(run.device));
      const c10::DeviceGuard guard(device);
      synthetic_workload<D> work(device, run.shape);
      auto measured = iteragpu::memory::measure(backend, counter, work, run.device, run.plan);
      if (!measured && measured.error().code == measure_errc::host_out_of_memory) {
        throw std::bad_alloc();  // the host's failure, as LibTorch's own allocations report it
      }
      return measured;
    });
  }

  /// A user's TorchScript module through iteragpu::memory::measure(), on the
  /// measured device made current for the whole run.
  [[nodiscard]] result<measurement, memory::torchscript_run_error> measure_torchscript(
      const memory::torchscript_run& run) {
    try {
      Backend::initialize();
    } catch (const std::exception& e) {
      return unexpected{memory::torchscript_run_error{memory::torchscript_run_errc::phase_failed,
                                                      phase_kind::model_load, first_line(e.what())}};
    }
    const torch::Device device(torch::kCUDA, to_c10(run.device));
    const c10::DeviceGuard guard(device);
    if (run.format == memory::model_format::aoti_package) {
#if defined(ITERAGPU_TORCH_HAS_AOTI)
      return measure_aoti_package(backend, counter, device, run);
#else
      return unexpected{
          memory::torchscript_run_error{memory::torchscript_run_errc::not_loadable, phase_kind::model_load,
                                        "this LibTorch reads no AOTInductor package (LibTorch 2.6 or later does)"}};
#endif
    }
    return measure_torchscript_module(backend, counter, device, run);
  }
};

#if defined(ITERAGPU_TORCH_CUDA)
/// The CUDA runtime adds what only LibTorch's CUDA build can say: the
/// workspaces it chose for cuBLAS and cuBLASLt, the caching allocator's
/// effective settings, and the allocator's history for PyTorch's memory
/// snapshot.
struct cuda_runtime : gpu_measuring_runtime<cuda_backend, cuda_allocator_counter> {
  using gpu_measuring_runtime<cuda_backend, cuda_allocator_counter>::gpu_measuring_runtime;

  /// The workspaces LibTorch chose for cuBLAS and cuBLASLt (from LibTorch 2.3 on; nothing before).
  [[nodiscard]] static std::optional<memory::prediction::blas_workspaces> blas_workspaces() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
    return memory::prediction::blas_workspaces{byte_count{at::cuda::getChosenWorkspaceSize()}, byte_count {
                                                 at::cuda::getCUDABlasLtWorkspaceSize()
                                               }};
#else
    return std::nullopt;
#endif
  }

  /// As LibTorch itself reports them (it reads PYTORCH_CUDA_ALLOC_CONF; this
  /// library reads no environment variable).
  [[nodiscard]] static std::vector<memory::allocator_setting> allocator_settings() {
    std::vector<memory::allocator_setting> settings;
#if defined(ITERAGPU_TORCH_ALLOCATOR_CONFIG)
    using config = c10::cuda::CUDACachingAllocator::CUDAAllocatorConfig;
    settings.push_back({"expandable_segments", config::expandable_segments() ? "true" : "false"});
#if defined(ITERAGPU_TORCH_ACCELERATOR_ALLOCATOR_CONFIG)
    using common = c10::CachingAllocator::AcceleratorAllocatorConfig;
#else
    using common = config;
#endif
    settings.push_back({"max_split_size_bytes", std::to_string(common::max_split_size())});
    settings.push_back({"garbage_collection_threshold", std::to_string(common::garbage_collection_threshold())});
#endif
    if (const auto w = blas_workspaces()) {
      settings.push_back({"cublas_workspace_bytes", std::to_string(w->cublas.value)});
      settings.push_back({"cublaslt_workspace_bytes", std::to_string(w->cublaslt.value)});
    }
    return settings;
  }

#if defined(ITERAGPU_TORCH_MEMORY_SNAPSHOT)
  /// Starts recording the allocator's history, at most `max_entries` trace entries; the error keeps
  /// the first line of LibTorch's message.
  [[nodiscard]] static result<void, memory::memory_history_error> start_memory_history(std::size_t max_entries) {
    try {
      cuda_backend::initialize();
      torch::cuda::_record_memory_history(std::optional<std::string>("all"), std::optional<std::string>("all"),
                                          std::string("python"), max_entries);
    } catch (const std::exception& e) {
      return unexpected{memory::memory_history_error { memory::memory_history_step::start, first_line(e.what()) }};
    }
    return {};
  }
  /// The history so far, as the pickle PyTorch's memory snapshot writes.
  [[nodiscard]] static result<std::string, memory::memory_history_error> memory_snapshot() {
    try {
      return torch::cuda::_memory_snapshot_pickled();
    } catch (const std::exception& e) {
      return unexpected{memory::memory_history_error { memory::memory_history_step::snapshot, first_line(e.what()) }};
    }
  }
#endif
};
/// The runtime the programs use: cuda_runtime in a CUDA build of LibTorch.
using libtorch_runtime = cuda_runtime;
#elif defined(ITERAGPU_TORCH_HIP)
/// The runtime the programs use: gpu_measuring_runtime over HIP in a ROCm build of LibTorch.
using libtorch_runtime = gpu_measuring_runtime<hip_backend, hip_allocator_counter>;
#else
/// The runtime the programs use: probe_only_runtime where LibTorch has no GPU runtime.
using libtorch_runtime = probe_only_runtime;
#endif

static_assert(memory::environment_runtime<libtorch_runtime>);

/// The runtime the programs use, with its GPU state reader opened here and
/// nowhere else: the driver's NVML (libnvidia-ml.so.1, by dlopen) in a CUDA
/// build, none in a ROCm build (hip_traits says why), nothing to open where
/// LibTorch has no GPU runtime.
[[nodiscard]] inline libtorch_runtime open_libtorch_runtime() {
#if defined(ITERAGPU_TORCH_CUDA)
  return libtorch_runtime{cuda_backend{nvml::session::open()}};
#elif defined(ITERAGPU_TORCH_HIP)
  return libtorch_runtime{hip_backend{hip_traits::no_state_reader()}};
#else
  return libtorch_runtime{};
#endif
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_RUNTIME_HPP
