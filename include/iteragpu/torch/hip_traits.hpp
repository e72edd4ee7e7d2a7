#ifndef ITERAGPU_TORCH_HIP_TRAITS_HPP
#define ITERAGPU_TORCH_HIP_TRAITS_HPP

/// \file
/// HIP's raw calls, as gpu_backend (iteragpu/torch/gpu_backend.hpp) asks for
/// them, through LibTorch's ROCm build (which names AMD GPUs `cuda:N`: its
/// tensors report device type CUDA).
///
/// NEVER COMPILED OR RUN. No ROCm LibTorch exists on any machine where this
/// project is built and tested, so this header is written against the
/// documented ROCm headers (c10/hip/HIPCachingAllocator.h,
/// c10/hip/HIPFunctions.h, c10/hip/HIPGuard.h, c10/hip/HIPStream.h,
/// hip/hip_runtime_api.h) and has never been compiled. It holds only raw
/// calls, one for each of cuda_traits.hpp's; everything done with them is
/// gpu_backend's, shared with CUDA and compiled and tested there. It is
/// enabled only when ITERAGPU_TORCH_HIP is defined, which CMake does when
/// LibTorch defines a c10_hip or torch_hip target. Treat any ROCm result as
/// unverified until this header has been built and its GPU tests run there.
///
/// The GPU's state: NVML's ROCm twin (ROCm SMI, rocm_smi) is not written, so
/// hip_traits reads none; clocks, power, temperature and the driver's facts
/// are reported as not available, with hip_state_not_available as the reason.
#if defined(ITERAGPU_TORCH_HIP)

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include <ATen/Context.h>
#include <c10/hip/HIPCachingAllocator.h>
#include <c10/hip/HIPFunctions.h>
#include <c10/hip/HIPGuard.h>
#include <c10/hip/HIPStream.h>
#include <hip/hip_runtime_api.h>

#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/torch/device.hpp"
#include "iteragpu/torch/gpu_backend.hpp"

namespace iteragpu::torch_adapter {

/// "6.2" from HIP's 60241134 (major x 10^7 + minor x 10^5 + patch).
[[nodiscard]] inline std::string hip_version_text(int version) {
  return std::to_string(version / 10000000) + "." + std::to_string((version / 100000) % 100);
}

/// Why a HIP backend reports no GPU state, as the reports print it.
inline constexpr std::string_view hip_state_not_available =
    "not available: this library has no ROCm SMI reader (NVML's ROCm twin) yet";

/// The HIP runtime LibTorch's ROCm build loaded; no GPU state reader.
struct hip_traits {
  using status_type = hipError_t;                 ///< what every call returns
  using stream_type = hipStream_t;                ///< a stream
  using event_type = hipEvent_t;                  ///< an event
  using properties_type = hipDeviceProp_t;        ///< a device's properties
  using state_reader = unavailable_state_reader;  ///< none written: hip_state_not_available

  static constexpr memory::gpu_platform platform = memory::gpu_platform::hip;  ///< the runtime's platform
  static constexpr std::string_view runtime_name = "HIP";                      ///< as messages name it
  static constexpr std::string_view call_prefix = "hip";  ///< hipMemGetInfo, as messages name the calls
  static constexpr status_type success = hipSuccess;      ///< the status of a call that worked

  /// The state reader a HIP backend is given: every reading not available.
  [[nodiscard]] static state_reader no_state_reader() noexcept { return state_reader{hip_state_not_available}; }

  /// The runtime's words for `status`.
  [[nodiscard]] static const char* error_string(status_type status) { return hipGetErrorString(status); }
  /// LibTorch's lazy GPU initialization (the ROCm build keeps the CUDA names).
  static void initialize() { initialize_gpu_state(at::globalContext()); }
  /// The visible GPUs, 0 where there is no usable driver.
  [[nodiscard]] static int device_count() { return c10::hip::device_count(); }
  /// Makes device `d` current until the guard ends.
  [[nodiscard]] static c10::hip::HIPGuard make_guard(memory::device_index d) { return c10::hip::HIPGuard(to_c10(d)); }
  /// hipDeviceSynchronize on the current device.
  [[nodiscard]] static status_type device_synchronize() { return hipDeviceSynchronize(); }
  /// hipRuntimeGetVersion.
  [[nodiscard]] static status_type runtime_version(int* version) { return hipRuntimeGetVersion(version); }
  /// "6.2" from 60241134.
  [[nodiscard]] static std::string version_text(int version) { return hip_version_text(version); }
  /// hipGetDeviceProperties.
  [[nodiscard]] static status_type device_properties(properties_type* p, memory::device_index d) {
    return hipGetDeviceProperties(p, d.value);
  }
  /// The gfx name ("gfx942"), ROCm's counterpart of the compute capability.
  [[nodiscard]] static std::string capability(const properties_type& p) {
    const auto first = std::begin(p.gcnArchName);
    return std::string(first, std::find(first, std::end(p.gcnArchName), '\0'));
  }
  /// hipMemGetInfo on the current device.
  [[nodiscard]] static status_type memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
    return hipMemGetInfo(free_bytes, total_bytes);
  }
  /// hipDeviceGetPCIBusId.
  [[nodiscard]] static status_type pci_bus_id(char* text, int length, memory::device_index d) {
    return hipDeviceGetPCIBusId(text, length, d.value);
  }
  /// LibTorch's current stream of device `d`.
  [[nodiscard]] static stream_type current_stream(memory::device_index d) {
    return c10::hip::getCurrentHIPStream(to_c10(d)).stream();
  }
  /// hipEventCreate, with timing enabled, on the current device.
  [[nodiscard]] static status_type event_create(event_type* e) { return hipEventCreate(e); }
  /// hipEventDestroy.
  static status_type event_destroy(event_type e) { return hipEventDestroy(e); }
  /// hipEventRecord.
  [[nodiscard]] static status_type event_record(event_type e, stream_type s) { return hipEventRecord(e, s); }
  /// hipEventElapsedTime.
  [[nodiscard]] static status_type event_elapsed_time(float* milliseconds, event_type start, event_type stop) {
    return hipEventElapsedTime(milliseconds, start, stop);
  }
  /// The caching allocator's statistics of device `d` (getDeviceStats).
  [[nodiscard]] static auto device_stats(memory::device_index d) {
    return c10::hip::HIPCachingAllocator::getDeviceStats(to_c10(d));
  }
  /// Sets each peak of device `d` to its current value (resetPeakStats).
  static void reset_peak_stats(memory::device_index d) { c10::hip::HIPCachingAllocator::resetPeakStats(to_c10(d)); }
};

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_HIP)
#endif  // ITERAGPU_TORCH_HIP_TRAITS_HPP
