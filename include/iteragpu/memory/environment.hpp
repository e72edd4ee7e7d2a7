#ifndef ITERAGPU_MEMORY_ENVIRONMENT_HPP
#define ITERAGPU_MEMORY_ENVIRONMENT_HPP

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/version.hpp"

/// \file
/// The environment a measurement ran in. It records versions and what the
/// runtime reports about the GPUs, and deliberately nothing else: no
/// environment variables, no host or user names, no paths of the user's files.
namespace iteragpu::memory {

/// What the runtime says about the device a measurement asked for.
struct device_report {
  device_index requested;                             ///< the device asked for
  bool available{false};                              ///< whether it can be measured
  std::optional<std::string> reason{};                ///< why not, when not available
  std::optional<std::string> name{};                  ///< as the runtime names it
  std::optional<std::string> capability{};            ///< compute capability ("9.0" on an H200)
  std::optional<std::uint64_t> free_memory_bytes{};   ///< free memory of the whole device, when the backend reports it
  std::optional<std::uint64_t> total_memory_bytes{};  ///< total memory of the whole device, when the backend reports it
};

/// What the GPU's management library (NVML) says: the driver and NVML
/// versions, and per visible GPU its modes, power limit and maximum clocks.
/// No identifier of the machine (no UUID, serial or board id).
struct management_report {
  gpu_reading<std::string> driver_version{unexpected{reading_error{}}};  ///< "580.95.05", or why not
  gpu_reading<std::string> nvml_version{unexpected{reading_error{}}};    ///< "13.580.95.05", or why not
  std::vector<gpu_facts> gpus{};                                         ///< in the order of environment_report::gpus
};

/// Optional backend capability: the management report of the visible GPUs.
template <class B>
concept management_reporting = requires(B& b, const std::vector<gpu_description>& gpus) {
  { b.management(gpus) } -> std::same_as<management_report>;
};

/// The environment of a run: compiler, LibTorch, GPU runtime, the visible GPUs and the device asked for.
struct environment_report {
  std::string compiler;                           ///< compiler_description()
  long cxx_standard{0};                           ///< `__cplusplus`
  bool libtorch_available{false};                 ///< whether this build has LibTorch
  std::optional<std::string> libtorch_version{};  ///< its version, in a build with LibTorch
  std::optional<runtime_build> build{};           ///< the GPU runtime LibTorch was built with
  std::vector<gpu_description> gpus;              ///< every visible GPU, in the runtime's order
  device_report device;                           ///< the device asked for
  std::optional<management_report> management{};  ///< where the backend can ask NVML

  /// The build's version when it is of that platform, for the report's
  /// cuda_build and hip_build fields.
  [[nodiscard]] std::optional<std::string> build_of(gpu_platform platform) const;
};

/// Why cuda_build is not the driver's version, as the reports say it.
inline constexpr const char* driver_note =
    "cuda_build and hip_build are the runtime versions LibTorch was built with, not the driver version; "
    "read the driver version with the vendor's tool (nvidia-smi, rocm-smi)";

/// "GCC 12.2.0", "Clang 14.0.6": the compiler that built the program.
[[nodiscard]] std::string compiler_description();

/// "cuda:0 (NVIDIA H200), cuda:1 (...)", or "none".
[[nodiscard]] std::string list_of(const std::vector<gpu_description>& gpus);

/// Fills the report from `backend`. `libtorch_version` is nullopt in a build
/// without LibTorch. A backend that fails with an exception while being asked (a runtime
/// that fails to initialize) is reported as unavailable with the first line
/// of its message, never as a crash: the report is a diagnostic.
template <device_inventory B>
[[nodiscard]] environment_report probe_environment(B& backend, device_index requested,
                                                   std::optional<std::string> libtorch_version) {
  environment_report report;
  report.compiler = compiler_description();
  report.cxx_standard = __cplusplus;
  report.libtorch_available = libtorch_version.has_value();
  report.libtorch_version = std::move(libtorch_version);
  report.device.requested = requested;
  try {
    report.build = backend.build();
    if (auto reason = backend.unavailable_reason()) {
      report.device.reason = std::move(reason);
      return report;
    }
    report.gpus = backend.visible_gpus();
    if constexpr (management_reporting<B>) {
      report.management = backend.management(report.gpus);
    }
    if (requested.value < 0 || static_cast<std::size_t>(requested.value) >= report.gpus.size()) {
      report.device.reason = device_name(requested) + " is not visible; visible GPUs: " + list_of(report.gpus);
      return report;
    }
    const auto& gpu = report.gpus[static_cast<std::size_t>(requested.value)];
    report.device.name = gpu.name;
    report.device.capability = gpu.capability;
    if constexpr (measuring_backend<B> && device_memory_reporting<B>) {
      const device_memory memory = backend.memory(requested);
      report.device.free_memory_bytes = memory.free_bytes;
      report.device.total_memory_bytes = memory.total_bytes;
      report.device.available = true;
    } else {
      report.device.reason = std::string("this backend cannot measure");
    }
  } catch (const std::exception& e) {
    report.device.available = false;
    report.device.reason = "the GPU runtime failed while being asked: " + first_line(e.what());
  }
  return report;
}

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/environment.ipp"
#endif

#endif  // ITERAGPU_MEMORY_ENVIRONMENT_HPP
