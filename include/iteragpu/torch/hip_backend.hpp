#ifndef ITERAGPU_TORCH_HIP_BACKEND_HPP
#define ITERAGPU_TORCH_HIP_BACKEND_HPP

/// \file
/// The ROCm/HIP backend through LibTorch's HIP build, which names AMD GPUs
/// `cuda:N` (tensors report device type CUDA). NEVER COMPILED OR RUN: no
/// ROCm LibTorch exists on any machine where this project is built and
/// tested, so this adapter is written against the documented ROCm headers
/// (c10/hip/HIPCachingAllocator.h, c10/hip/HIPFunctions.h,
/// c10/hip/HIPStream.h) and has never been compiled. It mirrors the CUDA
/// adapter (iteragpu/torch/cuda_backend.hpp) call for call: the same lazy
/// initialisation probe, events recorded on the device's current stream, the
/// same counters. It is enabled only when ITERAGPU_TORCH_HIP is defined,
/// which CMake does when LibTorch defines a c10_hip or torch_hip target.
/// Treat any ROCm result as unverified until this header has been built and
/// its GPU tests run there.
#if defined(ITERAGPU_TORCH_HIP)

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <ATen/Context.h>
#include <c10/hip/HIPCachingAllocator.h>
#include <c10/hip/HIPFunctions.h>
#include <c10/hip/HIPGuard.h>
#include <c10/hip/HIPStream.h>
#include <hip/hip_runtime_api.h>

#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/torch/allocator_stats.hpp"
#include "iteragpu/torch/device.hpp"

namespace iteragpu::torch_adapter {

/// Throws std::runtime_error naming `what` and HIP's message when `status` is not hipSuccess.
inline void hip_check(hipError_t status, const char* what) {
  if (status != hipSuccess) {
    throw std::runtime_error(std::string(what) + ": " + hipGetErrorString(status));
  }
}

/// "6.2" from HIP's 60241134 (major x 10^7 + minor x 10^5 + patch).
[[nodiscard]] inline std::string hip_version_text(int version) {
  return std::to_string(version / 10000000) + "." + std::to_string((version / 100000) % 100);
}

/// LibTorch's HIP runtime, mirroring cuda_backend call for call (without NVML).
struct hip_backend {
  /// Before any counter is read; allocates nothing on any device.
  static void initialise() { initialise_gpu_state(at::globalContext()); }

  /// Nothing when LibTorch's HIP runtime sees a GPU, else why not.
  [[nodiscard]] static std::optional<std::string> unavailable_reason() {
    if (c10::hip::device_count() == 0) {
      return std::string("LibTorch's HIP runtime sees no GPU (none visible to this process, or no usable driver)");
    }
    return std::nullopt;
  }

  /// The HIP runtime LibTorch loaded.
  [[nodiscard]] static std::optional<runtime_build> build() {
    int version = 0;
    if (hipRuntimeGetVersion(&version) != hipSuccess) {
      return std::nullopt;
    }
    return runtime_build{gpu_platform::hip, hip_version_text(version)};
  }

  /// Every visible GPU, with its gfx name as its capability.
  [[nodiscard]] static std::vector<gpu_description> visible_gpus() {
    std::vector<gpu_description> gpus;
    const auto count = c10::hip::device_count();
    for (c10::DeviceIndex i = 0; i < count; ++i) {
      hipDeviceProp_t p{};
      hip_check(hipGetDeviceProperties(&p, i), "hipGetDeviceProperties");
      gpus.push_back(gpu_description{device_index{i}, p.name, p.gcnArchName, static_cast<std::uint64_t>(p.totalGlobalMem)});
    }
    return gpus;
  }

  /// Waits until the work queued on device `d` is done.
  static void synchronize(device_index d) {
    const c10::hip::HIPGuard guard(to_c10(d));
    c10::hip::device_synchronize();
  }

  /// Free and total memory of device `d` (hipMemGetInfo): the whole device, all processes.
  [[nodiscard]] static device_memory memory(device_index d) {
    const c10::hip::HIPGuard guard(to_c10(d));
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    hip_check(hipMemGetInfo(&free_bytes, &total_bytes), "hipMemGetInfo");
    return device_memory{free_bytes, total_bytes};
  }

  /// Two hipEvents recorded on the current stream of the device, created
  /// before the timed window opens, as in the CUDA adapter.
  class timer {
   public:
    /// Creates both events on device `d`, on its current stream.
    explicit timer(device_index d) : stream_(c10::hip::getCurrentHIPStream(to_c10(d)).stream()) {
      const c10::hip::HIPGuard guard(to_c10(d));
      hip_check(hipEventCreate(&start_), "hipEventCreate");
      hip_check(hipEventCreate(&stop_), "hipEventCreate");
    }
    timer(const timer&) = delete;
    timer& operator=(const timer&) = delete;
    /// Takes the other's events; the other holds none after.
    timer(timer&& other) noexcept
        : stream_(other.stream_), start_(std::exchange(other.start_, nullptr)), stop_(std::exchange(other.stop_, nullptr)) {}
    timer& operator=(timer&&) = delete;
    ~timer() {
      if (start_ != nullptr) {
        static_cast<void>(hipEventDestroy(start_));
      }
      if (stop_ != nullptr) {
        static_cast<void>(hipEventDestroy(stop_));
      }
    }
    /// Records the start event on the stream.
    void start() { hip_check(hipEventRecord(start_, stream_), "hipEventRecord"); }
    /// Records the stop event on the stream.
    void stop() { hip_check(hipEventRecord(stop_, stream_), "hipEventRecord"); }
    /// Seconds between the two events, once the device has been synchronised.
    [[nodiscard]] double elapsed_seconds() const {
      float ms = 0;
      hip_check(hipEventElapsedTime(&ms, start_, stop_), "hipEventElapsedTime");
      return static_cast<double>(ms) / 1000.0;
    }

   private:
    hipStream_t stream_;
    hipEvent_t start_{nullptr};
    hipEvent_t stop_{nullptr};
  };

  /// A timer of device `d`.
  [[nodiscard]] static timer make_timer(device_index d) { return timer(d); }
};

/// The HIP caching allocator's aggregate counters for one device.
struct hip_allocator_counter {
  /// The aggregate allocated and reserved bytes of device `d` and their peaks.
  [[nodiscard]] static allocator_reading read(device_index d) {
    return reading_from(c10::hip::HIPCachingAllocator::getDeviceStats(to_c10(d)));
  }
  /// Sets each peak of device `d` to its current value (resetPeakStats).
  static void reset_peaks(device_index d) { c10::hip::HIPCachingAllocator::resetPeakStats(to_c10(d)); }
};

static_assert(measuring_backend<hip_backend> && device_memory_reporting<hip_backend> && device_inventory<hip_backend>);
static_assert(memory_counter<hip_allocator_counter>);

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_HIP)
#endif  // ITERAGPU_TORCH_HIP_BACKEND_HPP
