#ifndef ITERAGPU_MEMORY_POLICIES_BACKEND_HPP
#define ITERAGPU_MEMORY_POLICIES_BACKEND_HPP

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/memory/device.hpp"

/// \file
/// The GPU runtime, as policy objects. A measuring backend synchronises a
/// device and times work on it; that is all iteragpu::memory::measure() needs. A
/// backend that can also report the device's memory (free and total, as the
/// runtime sees the whole device) has that recorded beside the allocator's
/// counters; one that can list the GPUs and its runtime's version describes
/// the environment.
///
/// Backends in the library:
///   torch_adapter::cuda_backend  CUDA through LibTorch (iteragpu/torch/cuda_backend.hpp)
///   torch_adapter::hip_backend   ROCm/HIP through LibTorch's HIP build, which reuses
///                                the `cuda` device name (iteragpu/torch/hip_backend.hpp;
///                                no ROCm LibTorch exists where this project is built
///                                and tested, so HIP's traits have never been compiled)
///   both are torch_adapter::gpu_backend over a runtime's traits (iteragpu/torch/gpu_backend.hpp)
///   unavailable_backend          a build in which no GPU can be reached: it can only
///                                say why (below)
namespace iteragpu::memory {

/// What the runtime says about one visible GPU.
struct gpu_description {
  device_index index;                   ///< as the runtime numbers it
  std::string name;                     ///< "NVIDIA H200"
  std::string capability;               ///< "9.0" on an H200; the gfx name on ROCm
  std::uint64_t total_memory_bytes{0};  ///< the device's memory, as the runtime reports it
  friend bool operator==(const gpu_description&, const gpu_description&) = default;
};

/// Free and total memory of a device as the runtime reports them: the whole
/// device, all processes, not only this process's allocator.
struct device_memory {
  std::uint64_t free_bytes{0};   ///< free on the whole device
  std::uint64_t total_bytes{0};  ///< the device's total
  friend constexpr bool operator==(const device_memory&, const device_memory&) = default;
};

/// The GPU runtime of a LibTorch build: NVIDIA's CUDA or AMD's ROCm/HIP.
enum class gpu_platform { cuda, hip };

/// The GPU runtime a LibTorch was built with ("13.0" for CUDA 13.0): not the
/// driver's version.
struct runtime_build {
  gpu_platform platform{gpu_platform::cuda};  ///< CUDA or HIP
  std::string version;                        ///< "13.0" for CUDA 13.0
  friend bool operator==(const runtime_build&, const runtime_build&) = default;
};

/// Times work queued on a device: start() and stop() enqueue markers;
/// elapsed_seconds() is valid once the device has been synchronised.
template <class T>
concept event_timer = requires(T& t, const T& ct) {
  { t.start() } -> std::same_as<void>;
  { t.stop() } -> std::same_as<void>;
  { ct.elapsed_seconds() } -> std::same_as<double>;
};

/// What iteragpu::memory::measure() asks of a backend: `synchronize(device)` waits until the work queued on
/// the device is done, and `make_timer(device)` returns an event_timer for that device.
template <class B>
concept measuring_backend = requires(B& b, device_index device) {
  { b.synchronize(device) } -> std::same_as<void>;
  { b.make_timer(device) } -> event_timer;
};

/// Optional: the device's memory as the runtime reports it.
template <class B>
concept device_memory_reporting = requires(B& b, device_index device) {
  { b.memory(device) } -> std::same_as<device_memory>;
};

/// What an environment report asks of a backend.
template <class B>
concept device_inventory = requires(B& b) {
  // nullopt when the runtime can be used, else why not.
  { b.unavailable_reason() } -> std::same_as<std::optional<std::string>>;
  { b.build() } -> std::same_as<std::optional<runtime_build>>;
  { b.visible_gpus() } -> std::same_as<std::vector<gpu_description>>;
};

/// The backend of a build in which no GPU can be reached; `reason` says why
/// (no LibTorch, or a LibTorch without a GPU runtime).
struct unavailable_backend {
  std::string_view reason;  ///< why no GPU can be reached (built_without_libtorch or libtorch_without_gpu_runtime)

  /// Always the reason: this backend is never usable.
  [[nodiscard]] std::optional<std::string> unavailable_reason() const { return std::string(reason); }
  /// Nothing: no GPU runtime.
  [[nodiscard]] static std::optional<runtime_build> build() { return std::nullopt; }
  /// None.
  [[nodiscard]] static std::vector<gpu_description> visible_gpus() { return {}; }
};

/// The reason of a build configured without LibTorch, as reports print it.
inline constexpr std::string_view built_without_libtorch =
    "this build has no LibTorch (configured with ITERAGPU_WITH_TORCH=OFF, or LibTorch was not found)";
/// The reason of a build whose LibTorch is CPU only, as reports print it.
inline constexpr std::string_view libtorch_without_gpu_runtime =
    "this build's LibTorch has no GPU runtime (a CPU-only LibTorch: neither CUDA nor HIP)";

static_assert(device_inventory<unavailable_backend>);
static_assert(!measuring_backend<unavailable_backend>);

}  // namespace iteragpu::memory

// Measurement as a library call (docs/library.md) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::measuring_backend;
}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_POLICIES_BACKEND_HPP
