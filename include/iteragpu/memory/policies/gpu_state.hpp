#ifndef ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP
#define ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP

#include <array>
#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/result.hpp"

/// \file
/// The state of a GPU at one moment (clocks, power, temperature, and why the
/// clocks are held down), as a policy: a measurement that is given an object
/// meeting `gpu_state_sampler` reads one state at the end of every phase. The
/// NVML adapter is iteragpu/nvml/session.hpp.
namespace iteragpu::memory {

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

/// Why a reading of the GPU's state or settings is missing. The management
/// library's failures are NVML's (iteragpu/nvml/session.hpp); the words are
/// report::describe()'s (iteragpu/report/gpu_state.hpp).
enum class reading_errc {
  not_asked,               ///< the report did not ask for it
  no_library_path,         ///< no library path was given
  driver_library_missing,  ///< the driver's library (`subject`) did not load: no driver; `detail` is the loader's message
  library_not_loaded,      ///< the library at `subject` did not load; `detail` is the loader's message
  library_path_refused,    ///< `subject` contains a NUL character: never given to the loader
  not_management_library,  ///< the library at `subject` lacks `function`: not NVML, or too old
  did_not_start,           ///< `function` (the initialization) returned `returned`
  moved_from,              ///< the session was moved from
  function_missing,        ///< the library lacks `function`
  functions_missing,       ///< the library lacks both `function` and `alternative`
  call_failed,             ///< `function` returned `returned`; for the device at `subject` where one is named
  unknown_state,           ///< `function` returned the unknown state `value`
  not_a_bus_id,            ///< `subject` is not a PCI bus id of at most `value` characters
  no_device,               ///< no device has PCI bus id `subject`; `devices_seen`, where they could be listed
  no_handle,               ///< `function` returned no device for PCI bus id `subject`
  bus_id_unreadable,       ///< the runtime could not give the device's PCI bus id; `detail` is its message
  not_available,           ///< no reader is written for this runtime; `detail` says which
};

/// A return code of the management library, with its own name for it where it has one.
struct library_code {
  int value{0};      ///< the code (NVML's nvmlReturn_t)
  std::string name;  ///< "Not Supported", or empty where the library cannot name it
  friend bool operator==(const library_code&, const library_code&) = default;
};

/// Why a reading is missing, with the data its words need.
struct reading_error {
  reading_errc code{reading_errc::not_asked};              ///< what went wrong
  std::string function{};                                  ///< the library function concerned
  std::string alternative{};                               ///< its older name (functions_missing)
  std::string subject{};                                   ///< the library path or PCI bus id concerned
  std::string detail{};                                    ///< the loader's or runtime's own message
  library_code returned{};                                 ///< the function's return code (did_not_start, call_failed)
  long long value{0};                                      ///< the unknown state, or the longest bus id accepted
  std::optional<std::vector<std::string>> devices_seen{};  ///< the PCI bus ids the library sees (no_device)
  friend bool operator==(const reading_error&, const reading_error&) = default;
};

/// One reading: its value, or why there is none.
template <class T>
using gpu_reading = result<T, reading_error>;

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
  [[nodiscard]] std::vector<std::string> names() const;

  /// Whether any reason other than gpu_idle holds the clocks: what flags a
  /// timed repeat as taken under throttling.
  [[nodiscard]] bool any_besides_idle() const noexcept { return (mask & ~std::uint64_t{1}) != 0U; }

  friend constexpr bool operator==(const clock_event_reasons&, const clock_event_reasons&) = default;
};

/// A mode of the GPU, off or on.
enum class enablement { disabled, enabled };

/// "enabled" or "disabled", as the reports print it.
[[nodiscard]] constexpr std::string_view name_of(enablement e) noexcept {
  return e == enablement::enabled ? "enabled" : "disabled";
}

/// A GPU's settings, read once per run (by the NVML adapter,
/// iteragpu/nvml/session.hpp, where there is one).
struct gpu_facts {
  gpu_reading<enablement> persistence_mode;  ///< whether the driver stays loaded with no client
  gpu_reading<enablement> mig_mode;          ///< current, not pending
  gpu_reading<enablement> ecc_mode;          ///< current, not pending
  gpu_reading<milliwatts> power_limit;       ///< the power management limit
  gpu_reading<megahertz> max_sm_clock;       ///< the streaming multiprocessors' maximum clock
  gpu_reading<megahertz> max_memory_clock;   ///< the memory's maximum clock
  friend bool operator==(const gpu_facts&, const gpu_facts&) = default;
};

/// One state of a GPU: each reading, or why it could not be read.
struct gpu_state {
  gpu_reading<megahertz> sm_clock;                ///< the streaming multiprocessors' clock
  gpu_reading<megahertz> memory_clock;            ///< the memory clock
  gpu_reading<milliwatts> power_draw;             ///< the board's power draw
  gpu_reading<degrees_celsius> temperature;       ///< the GPU's temperature
  gpu_reading<clock_event_reasons> clock_events;  ///< the active clock event ("throttle") reasons
  friend bool operator==(const gpu_state&, const gpu_state&) = default;
};

/// A state in which every reading is missing for the same reason.
[[nodiscard]] gpu_state gpu_state_unavailable(const reading_error& reason);

/// A source of GPU states. The device is named by its PCI bus id
/// ("00000000:1B:00.0", as the CUDA runtime gives it), never by an index:
/// runtime and management library number devices differently, and
/// CUDA_VISIBLE_DEVICES renumbers the runtime's.
template <class S>
concept gpu_state_sampler = requires(const S& sampler, std::string_view pci_bus_id) {
  { sampler.sample(pci_bus_id) } -> std::same_as<gpu_state>;
};

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/policies/impl/gpu_state.ipp"
#endif

#endif  // ITERAGPU_MEMORY_POLICIES_GPU_STATE_HPP
