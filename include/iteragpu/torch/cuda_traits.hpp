#ifndef ITERAGPU_TORCH_CUDA_TRAITS_HPP
#define ITERAGPU_TORCH_CUDA_TRAITS_HPP

/// \file
/// CUDA's raw calls, as gpu_backend (iteragpu/torch/gpu_backend.hpp) asks
/// for them. Only a CUDA build of LibTorch can provide them: CMake defines
/// ITERAGPU_TORCH_CUDA when it finds one. (Debian's CPU-only LibTorch ships
/// c10/cuda headers that cannot be compiled, so their presence proves
/// nothing.) Elsewhere this header declares nothing.
#if defined(ITERAGPU_TORCH_CUDA)

#include <cstddef>
#include <string>
#include <string_view>

#include <ATen/Context.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/torch/device.hpp"

namespace iteragpu::torch_adapter {

/// "13.0" from CUDA's 13000.
[[nodiscard]] inline std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

/// The CUDA runtime LibTorch loaded, and NVML for the GPU's state.
struct cuda_traits {
  using status_type = cudaError_t;         ///< what every call returns
  using stream_type = cudaStream_t;        ///< a stream
  using event_type = cudaEvent_t;          ///< an event
  using properties_type = cudaDeviceProp;  ///< a device's properties
  using state_reader = nvml::session;      ///< the driver's NVML, opened by the caller

  static constexpr memory::gpu_platform platform = memory::gpu_platform::cuda;  ///< the runtime's platform
  static constexpr std::string_view runtime_name = "CUDA";                      ///< as messages name it
  static constexpr std::string_view call_prefix = "cuda";  ///< cudaMemGetInfo, as messages name the calls
  static constexpr status_type success = cudaSuccess;      ///< the status of a call that worked

  /// The runtime's words for `status`.
  [[nodiscard]] static const char* error_string(status_type status) { return cudaGetErrorString(status); }
  /// LibTorch's lazy CUDA initialization.
  static void initialize() { initialize_gpu_state(at::globalContext()); }
  /// The visible GPUs, 0 where there is no usable driver.
  [[nodiscard]] static int device_count() { return c10::cuda::device_count(); }
  /// Makes device `d` current until the guard ends.
  [[nodiscard]] static c10::cuda::CUDAGuard make_guard(memory::device_index d) {
    return c10::cuda::CUDAGuard(to_c10(d));
  }
  /// cudaDeviceSynchronize on the current device.
  [[nodiscard]] static status_type device_synchronize() { return cudaDeviceSynchronize(); }
  /// cudaRuntimeGetVersion.
  [[nodiscard]] static status_type runtime_version(int* version) { return cudaRuntimeGetVersion(version); }
  /// "13.0" from 13000.
  [[nodiscard]] static std::string version_text(int version) { return cuda_version_text(version); }
  /// cudaGetDeviceProperties, which makes no device current.
  [[nodiscard]] static status_type device_properties(properties_type* p, memory::device_index d) {
    return cudaGetDeviceProperties(p, d.value);
  }
  /// The compute capability, "9.0" on an H200.
  [[nodiscard]] static std::string capability(const properties_type& p) {
    return std::to_string(p.major) + "." + std::to_string(p.minor);
  }
  /// cudaMemGetInfo on the current device.
  [[nodiscard]] static status_type memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
    return cudaMemGetInfo(free_bytes, total_bytes);
  }
  /// cudaDeviceGetPCIBusId.
  [[nodiscard]] static status_type pci_bus_id(char* text, int length, memory::device_index d) {
    return cudaDeviceGetPCIBusId(text, length, d.value);
  }
  /// LibTorch's current stream of device `d`.
  [[nodiscard]] static stream_type current_stream(memory::device_index d) {
    return c10::cuda::getCurrentCUDAStream(to_c10(d)).stream();
  }
  /// cudaEventCreate, with timing enabled, on the current device.
  [[nodiscard]] static status_type event_create(event_type* e) { return cudaEventCreate(e); }
  /// cudaEventDestroy.
  static status_type event_destroy(event_type e) { return cudaEventDestroy(e); }
  /// cudaEventRecord.
  [[nodiscard]] static status_type event_record(event_type e, stream_type s) { return cudaEventRecord(e, s); }
  /// cudaEventElapsedTime.
  [[nodiscard]] static status_type event_elapsed_time(float* milliseconds, event_type start, event_type stop) {
    return cudaEventElapsedTime(milliseconds, start, stop);
  }
  /// The caching allocator's statistics of device `d` (getDeviceStats). The
  /// stats types moved from c10::cuda::CUDACachingAllocator (1.13 to ~2.4) to
  /// c10::CachingDeviceAllocator (~2.5+), so they are only named through auto.
  [[nodiscard]] static auto device_stats(memory::device_index d) {
    return c10::cuda::CUDACachingAllocator::getDeviceStats(to_c10(d));
  }
  /// Sets each peak of device `d` to its current value (resetPeakStats).
  static void reset_peak_stats(memory::device_index d) { c10::cuda::CUDACachingAllocator::resetPeakStats(to_c10(d)); }
};

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_CUDA)
#endif  // ITERAGPU_TORCH_CUDA_TRAITS_HPP
