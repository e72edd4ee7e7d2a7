#ifndef ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP
#define ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP

#include <array>
#include <compare>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/result.hpp"

/// \file
/// The state of a GPU at one moment (clocks, power, temperature, and why the
/// clocks are held down), as a policy: a measurement that is given an object
/// meeting `gpu_state_sampler` reads one state at the end of every phase. The
/// NVML adapter is iteragpu/nvml/session.hpp.
namespace iteragpu {

/// A clock frequency.
struct megahertz {
  std::uint32_t value{0};  ///< MHz
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(megahertz, megahertz) = default;
};

/// A power draw.
struct milliwatts {
  std::uint32_t value{0};  ///< mW
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(milliwatts, milliwatts) = default;
};

/// A temperature.
struct degrees_celsius {
  std::uint32_t value{0};  ///< degrees Celsius
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(degrees_celsius, degrees_celsius) = default;
};

/// One reading: its value, or a short sentence saying why there is none.
template <class T>
using gpu_reading = result<T, std::string>;

/// The names of the clock event ("throttle") reasons, bit i of NVML's mask
/// named by element i: nvmlClocksEventReason* in nvml.h (NVML 13.3.29,
/// lines 3322-3404; NVIDIA/go-nvml gen/nvml/nvml.h).
inline constexpr std::array<std::string_view, 9> clock_event_names{
    "gpu_idle",                     // 0x001
    "applications_clocks_setting",  // 0x002
    "sw_power_cap",                 // 0x004
    "hw_slowdown",                  // 0x008
    "sync_boost",                   // 0x010
    "sw_thermal_slowdown",          // 0x020
    "hw_thermal_slowdown",          // 0x040
    "hw_power_brake_slowdown",      // 0x080
    "display_clock_setting",        // 0x100
};

/// The active clock event reasons: NVML's bit mask, as read.
struct clock_event_reasons {
  std::uint64_t mask{0};  ///< bit i set: the reason clock_event_names[i] is active

  /// One name per set bit, lowest bit first; a bit NVML had not documented
  /// is named "unknown_bit_N".
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (unsigned bit = 0; bit < 64U; ++bit) {
      if ((mask >> bit & 1U) == 0U) {
        continue;
      }
      out.push_back(bit < clock_event_names.size() ? std::string(clock_event_names[bit])
                                                   : "unknown_bit_" + std::to_string(bit));
    }
    return out;
  }

  /// Whether any reason other than gpu_idle holds the clocks: what flags a
  /// timed repeat as taken under throttling.
  [[nodiscard]] bool any_besides_idle() const noexcept { return (mask & ~std::uint64_t{1}) != 0U; }

  /// Equal when every member is equal.
  friend constexpr bool operator==(const clock_event_reasons&, const clock_event_reasons&) = default;
};

/// One state of a GPU: each reading, or why it could not be read.
struct gpu_state {
  gpu_reading<megahertz> sm_clock;                ///< the streaming multiprocessors' clock
  gpu_reading<megahertz> memory_clock;            ///< the memory clock
  gpu_reading<milliwatts> power_draw;             ///< the board's power draw
  gpu_reading<degrees_celsius> temperature;       ///< the GPU's temperature
  gpu_reading<clock_event_reasons> clock_events;  ///< the active clock event ("throttle") reasons
  /// Equal when every member is equal.
  friend bool operator==(const gpu_state&, const gpu_state&) = default;
};

/// A state in which every reading is missing for the same reason.
[[nodiscard]] inline gpu_state gpu_state_unavailable(const std::string& reason) {
  return gpu_state{unexpected{reason}, unexpected{reason}, unexpected{reason}, unexpected{reason}, unexpected{reason}};
}

/// A source of GPU states. The device is named by its PCI bus id
/// ("00000000:1B:00.0", as the CUDA runtime gives it), never by an index:
/// runtime and management library number devices differently, and
/// CUDA_VISIBLE_DEVICES renumbers the runtime's.
template <class S>
concept gpu_state_sampler = requires(const S& sampler, std::string_view pci_bus_id) {
  { sampler.sample(pci_bus_id) } -> std::same_as<gpu_state>;
};

}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP
