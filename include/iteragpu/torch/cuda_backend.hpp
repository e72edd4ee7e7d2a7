#ifndef ITERAGPU_TORCH_CUDA_BACKEND_HPP
#define ITERAGPU_TORCH_CUDA_BACKEND_HPP

/// \file
/// The CUDA backend and the CUDA caching allocator's counters, through
/// LibTorch. Only a CUDA build of LibTorch can provide them: CMake defines
/// ITERAGPU_TORCH_CUDA when it finds one. (Debian's CPU-only LibTorch ships
/// c10/cuda headers that cannot be compiled, so their presence proves
/// nothing.) Elsewhere this header declares nothing.
#if defined(ITERAGPU_TORCH_CUDA)

#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ATen/Context.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include "iteragpu/memory/environment.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/torch/allocator_stats.hpp"
#include "iteragpu/torch/device.hpp"

namespace iteragpu::torch_adapter {

/// "13.0" from CUDA's 13000.
[[nodiscard]] inline std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

/// The PCI bus id of a CUDA device ("00000000:1B:00.0"), by which NVML finds
/// the same GPU whatever CUDA_VISIBLE_DEVICES renumbered.
[[nodiscard]] inline std::string pci_bus_id(device_index d) {
  std::array<char, 32> id{};
  C10_CUDA_CHECK(cudaDeviceGetPCIBusId(id.data(), static_cast<int>(id.size()), to_c10(d)));
  return std::string(id.data());
}

/// LibTorch's CUDA runtime, and NVML (loaded at run time, opened with the
/// backend) for the GPU's state and the driver's facts. Every other call is
/// static: a backend holds nothing but its NVML session.
struct cuda_backend {
  /// The driver's NVML, opened with the backend; unavailable without an NVIDIA driver.
  nvml::session nvml = nvml::session::open();

  /// The GPU's clocks, power, temperature and throttle reasons, found in NVML
  /// by the device's PCI bus id; every field empty with a reason where NVML
  /// or the device cannot be read.
  [[nodiscard]] iteragpu::gpu_state gpu_state(device_index d) const {
    try {
      return nvml.sample(pci_bus_id(d));
    } catch (const std::exception& e) {
      return gpu_state_unavailable(std::string("the device's PCI bus id cannot be read: ") + e.what());
    }
  }

  /// NVML's driver and NVML versions, and each GPU's settings, found by its PCI bus id.
  [[nodiscard]] management_report management(const std::vector<gpu_description>& gpus) const {
    management_report m{nvml.driver_version(), nvml.nvml_version(), {}};
    for (const auto& g : gpus) {
      try {
        m.gpus.push_back(nvml.facts(pci_bus_id(g.index)));
      } catch (const std::exception& e) {
        m.gpus.push_back(nvml::gpu_facts_unavailable(std::string("the device's PCI bus id cannot be read: ") + e.what()));
      }
    }
    return m;
  }

  /// Before any counter is read; allocates nothing on any device.
  static void initialise() { initialise_gpu_state(at::globalContext()); }

  /// Nothing when LibTorch's CUDA runtime sees a GPU, else why not.
  [[nodiscard]] static std::optional<std::string> unavailable_reason() {
    if (c10::cuda::device_count() == 0) {
      return std::string("LibTorch's CUDA runtime sees no GPU (none visible to this process, or no usable driver)");
    }
    return std::nullopt;
  }

  /// The CUDA runtime LibTorch loaded (the libcudart it was built with).
  [[nodiscard]] static std::optional<runtime_build> build() {
    int version = 0;
    if (cudaRuntimeGetVersion(&version) != cudaSuccess) {
      return std::nullopt;
    }
    return runtime_build{gpu_platform::cuda, cuda_version_text(version)};
  }

  /// Device properties are read without making any device current, so no
  /// GPU but the measured one gets a context from the measurement.
  [[nodiscard]] static std::vector<gpu_description> visible_gpus() {
    std::vector<gpu_description> gpus;
    const auto count = c10::cuda::device_count();
    for (c10::DeviceIndex i = 0; i < count; ++i) {
      const cudaDeviceProp* p = at::cuda::getDeviceProperties(i);
      gpus.push_back(gpu_description{device_index{i}, p->name,
                                     std::to_string(p->major) + "." + std::to_string(p->minor),
                                     static_cast<std::uint64_t>(p->totalGlobalMem)});
    }
    return gpus;
  }

  /// Waits until the work queued on device `d` is done.
  static void synchronize(device_index d) {
    const c10::cuda::CUDAGuard guard(to_c10(d));
    c10::cuda::device_synchronize();
  }

  /// Free and total memory of device `d` (cudaMemGetInfo): the whole device, all processes.
  [[nodiscard]] static device_memory memory(device_index d) {
    const c10::cuda::CUDAGuard guard(to_c10(d));
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    C10_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return device_memory{free_bytes, total_bytes};
  }

  /// Two CUDA events with timing enabled, recorded on the current stream of
  /// the device (the runtime makes the measured device current). Both are
  /// created here, before the timed window opens: a lazily created event
  /// would put cudaEventCreate inside the window.
  class timer {
   public:
    /// Creates both events on device `d`, on its current stream.
    explicit timer(device_index d) : stream_(c10::cuda::getCurrentCUDAStream(to_c10(d)).stream()) {
      const c10::cuda::CUDAGuard guard(to_c10(d));
      C10_CUDA_CHECK(cudaEventCreate(&start_));
      C10_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    timer(const timer&) = delete;
    timer& operator=(const timer&) = delete;
    /// Takes the other's events; the other holds none after.
    timer(timer&& other) noexcept
        : stream_(other.stream_), start_(std::exchange(other.start_, nullptr)), stop_(std::exchange(other.stop_, nullptr)) {}
    timer& operator=(timer&&) = delete;
    ~timer() {
      if (start_ != nullptr) {
        static_cast<void>(cudaEventDestroy(start_));
      }
      if (stop_ != nullptr) {
        static_cast<void>(cudaEventDestroy(stop_));
      }
    }
    /// Records the start event on the stream.
    void start() { C10_CUDA_CHECK(cudaEventRecord(start_, stream_)); }
    /// Records the stop event on the stream.
    void stop() { C10_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }
    /// Seconds between the two events, once the device has been synchronised.
    [[nodiscard]] double elapsed_seconds() const {
      float milliseconds = 0;
      C10_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
      return static_cast<double>(milliseconds) / 1000.0;
    }

   private:
    cudaStream_t stream_;
    cudaEvent_t start_{nullptr};
    cudaEvent_t stop_{nullptr};
  };

  /// A timer of device `d`.
  [[nodiscard]] static timer make_timer(device_index d) { return timer(d); }
};

/// The caching allocator's aggregate counters for one device. Index 0 of each
/// StatArray is AGGREGATE in every LibTorch version; the stats types moved
/// from c10::cuda::CUDACachingAllocator (1.13 to ~2.4) to
/// c10::CachingDeviceAllocator (~2.5+), so they are only named through auto.
struct cuda_allocator_counter {
  /// The aggregate allocated and reserved bytes of device `d` and their peaks.
  [[nodiscard]] static allocator_reading read(device_index d) {
    return reading_from(c10::cuda::CUDACachingAllocator::getDeviceStats(to_c10(d)));
  }
  /// Sets each peak of device `d` to its current value (resetPeakStats).
  static void reset_peaks(device_index d) { c10::cuda::CUDACachingAllocator::resetPeakStats(to_c10(d)); }
};

static_assert(measuring_backend<cuda_backend> && device_memory_reporting<cuda_backend> &&
              device_inventory<cuda_backend> && gpu_state_reporting<cuda_backend> &&
              management_reporting<cuda_backend>);
static_assert(memory_counter<cuda_allocator_counter>);

}  // namespace iteragpu::torch_adapter

#endif  // defined(ITERAGPU_TORCH_CUDA)
#endif  // ITERAGPU_TORCH_CUDA_BACKEND_HPP
