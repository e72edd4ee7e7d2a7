#ifndef ITERAGPU_MEMORY_DEVICE_HPP
#define ITERAGPU_MEMORY_DEVICE_HPP

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/parse.hpp"

/// \file
/// The GPU a measurement runs on, as `cuda:N` names it.
namespace iteragpu::memory {

/// The index of a GPU as the runtime numbers the visible devices.
struct device_index {
  std::int32_t value{0};  ///< 0 for the first visible GPU
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(device_index, device_index) = default;
};

/// The largest index accepted in `cuda:N`; LibTorch keeps device indices in
/// an 8-bit signed integer.
inline constexpr std::int32_t max_device_index = 127;

/// `cuda:N` and nothing else: no bare `cuda`, no `cpu`, no spaces or signs.
/// ROCm builds of LibTorch reuse the `cuda` name for AMD GPUs.
[[nodiscard]] constexpr std::optional<device_index> parse_device(std::string_view text) noexcept {
  constexpr std::string_view prefix = "cuda:";
  if (!text.starts_with(prefix)) {
    return std::nullopt;
  }
  const auto number = parse_unsigned(text.substr(prefix.size()));
  if (!number || *number > static_cast<std::uint64_t>(max_device_index)) {
    return std::nullopt;
  }
  return device_index{static_cast<std::int32_t>(*number)};
}

/// "cuda:N", as the command line writes the device.
[[nodiscard]] inline std::string device_name(device_index d) { return "cuda:" + std::to_string(d.value); }

}  // namespace iteragpu::memory

// Measurement as a library call (README) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::device_index;
}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_DEVICE_HPP
