#ifndef ITERAGPU_POLICIES_BACKEND_HPP
#define ITERAGPU_POLICIES_BACKEND_HPP

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/device.hpp"

// The GPU runtime, as a compile-time policy. Every backend can say whether a
// GPU is reachable and which GPUs are visible; a measuring backend can also
// synchronise a device, time work on it and report its memory.
//
// Backends in the library:
//   cuda_backend         CUDA through LibTorch (iteragpu/torch/cuda_backend.hpp)
//   hip_backend          ROCm/HIP through LibTorch's HIP build, which reuses
//                        the `cuda` device name (iteragpu/torch/hip_backend.hpp;
//                        no ROCm LibTorch exists where this project is built
//                        and tested, so that adapter has never been compiled)
//   unavailable_backend  a build without LibTorch or without a GPU runtime:
//                        it can only say why nothing is reachable (below)
namespace iteragpu {

// What the runtime says about one visible GPU.
struct gpu_description {
  device_index index;
  std::string name;
  std::string capability;  // "9.0" on an H200; the gfx name on ROCm
  std::uint64_t total_memory_bytes{0};
};

// Free and total memory of a device as the runtime reports them (the whole
// device, all processes, not only this process's allocator).
struct device_memory {
  std::uint64_t free_bytes{0};
  std::uint64_t total_bytes{0};
};

template <class B>
concept backend_policy = requires {
  { B::name } -> std::convertible_to<std::string_view>;
  // nullopt when the runtime can be used, else why not.
  { B::runtime_unavailable_reason() } -> std::same_as<std::optional<std::string>>;
  // The runtime version LibTorch was built with ("13.0"), not the driver's.
  { B::cuda_build() } -> std::same_as<std::optional<std::string>>;
  { B::hip_build() } -> std::same_as<std::optional<std::string>>;
  { B::visible_gpus() } -> std::same_as<std::vector<gpu_description>>;
};

// Times work queued on a device: start() and stop() enqueue markers;
// elapsed_seconds() is valid once the device has been synchronised.
template <class T>
concept event_timer = requires(T& t, const T& ct) {
  { t.start() } -> std::same_as<void>;
  { t.stop() } -> std::same_as<void>;
  { ct.elapsed_seconds() } -> std::same_as<double>;
};

template <class B>
concept measuring_backend = backend_policy<B> && requires(device_index device) {
  { B::synchronize(device) } -> std::same_as<void>;
  { B::memory(device) } -> std::same_as<device_memory>;
  { B::make_timer(device) } -> event_timer;
};

// A backend for builds in which no GPU can be reached; `Reason::text` says
// why (no LibTorch, or a LibTorch without a GPU runtime).
template <class Reason>
struct unavailable_backend {
  static constexpr std::string_view name = "none";
  [[nodiscard]] static std::optional<std::string> runtime_unavailable_reason() { return std::string(Reason::text); }
  [[nodiscard]] static std::optional<std::string> cuda_build() { return std::nullopt; }
  [[nodiscard]] static std::optional<std::string> hip_build() { return std::nullopt; }
  [[nodiscard]] static std::vector<gpu_description> visible_gpus() { return {}; }
};

struct built_without_libtorch {
  static constexpr std::string_view text =
      "this build has no LibTorch (configured with ITERAGPU_WITH_TORCH=OFF, or LibTorch was not found)";
};

struct libtorch_without_gpu_runtime {
  static constexpr std::string_view text =
      "this build's LibTorch has no GPU runtime (a CPU-only LibTorch: neither CUDA nor HIP)";
};

static_assert(backend_policy<unavailable_backend<built_without_libtorch>>);
static_assert(!measuring_backend<unavailable_backend<built_without_libtorch>>);

}  // namespace iteragpu

#endif  // ITERAGPU_POLICIES_BACKEND_HPP
