#ifndef ITERAGPU_MEMORY_IMPL_ENVIRONMENT_IPP
#define ITERAGPU_MEMORY_IMPL_ENVIRONMENT_IPP

#include <exception>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/environment.hpp"

// The bodies of the functions that <iteragpu/memory/environment.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> environment_report::build_of(gpu_platform platform) const {
  return build && build->platform == platform ? std::optional<std::string>(build->version) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::string compiler_description() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#elif defined(_MSC_VER)
  return "MSVC " + std::to_string(_MSC_VER);
#else
  return "unknown compiler";
#endif
}

[[nodiscard]] ITERAGPU_INLINE std::string list_of(const std::vector<gpu_description>& gpus) {
  if (gpus.empty()) {
    return "none";
  }
  std::string text;
  for (const auto& g : gpus) {
    if (!text.empty()) {
      text += ", ";
    }
    text += device_name(g.index) + " (" + g.name + ")";
  }
  return text;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_ENVIRONMENT_IPP
