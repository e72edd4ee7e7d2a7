#ifndef ITERAGPU_REPORT_IMPL_GPU_STATE_IPP
#define ITERAGPU_REPORT_IMPL_GPU_STATE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/report/gpu_state.hpp"

// The bodies of the functions that <iteragpu/report/gpu_state.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::library_code& code) {
  const std::string number = "NVML error " + std::to_string(code.value);
  return code.name.empty() ? number : code.name + " (" + number + ")";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const nvml::load_error& e) {
  if (e.code == nvml::load_errc::refused_path) {
    return "the library path is empty or contains a NUL character";
  }
  return e.loader_message.empty() ? std::string("dlopen failed without a message") : e.loader_message;
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::reading_error& e) {
  switch (e.code) {
    case memory::reading_errc::not_asked:
      return "not asked";
    case memory::reading_errc::no_library_path:
      return "no NVML library path was given";
    case memory::reading_errc::driver_library_missing:
      return e.subject + " not found (no NVIDIA driver on this machine): " +
             describe(nvml::load_error{nvml::load_errc::not_loaded, e.detail});
    case memory::reading_errc::library_not_loaded:
      return e.subject + " could not be loaded: " + describe(nvml::load_error{nvml::load_errc::not_loaded, e.detail});
    case memory::reading_errc::library_path_refused:
      return e.subject + " could not be loaded: " + describe(nvml::load_error{nvml::load_errc::refused_path, {}});
    case memory::reading_errc::not_management_library:
      return e.subject + " has no " + e.function + ": it is not NVML, or an NVML too old for this library";
    case memory::reading_errc::did_not_start:
      return "NVML did not start: " + e.function + " returned " + describe(e.returned);
    case memory::reading_errc::moved_from:
      return "this NVML session was moved from";
    case memory::reading_errc::function_missing:
      return "this NVML library has no " + e.function;
    case memory::reading_errc::functions_missing:
      return "this NVML library has neither " + e.function + " nor " + e.alternative;
    case memory::reading_errc::call_failed:
      return e.function + " failed: " + describe(e.returned) +
             (e.subject.empty() ? "" : " for PCI bus id " + e.subject);
    case memory::reading_errc::unknown_state:
      return e.function + " returned the unknown state " + std::to_string(e.value);
    case memory::reading_errc::not_a_bus_id: {
      std::string shown;
      for (const char c : e.subject) {
        shown += c == '\0' ? std::string("\\0") : std::string(1, c);
      }
      return "'" + shown + "' is not a PCI bus id: expected domain:bus:device.function, such as 00000000:1B:00.0, " +
             "at most " + std::to_string(e.value) + " characters";
    }
    case memory::reading_errc::no_device: {
      std::string seen;
      if (e.devices_seen && e.devices_seen->empty()) {
        seen = " (NVML sees no device)";
      } else if (e.devices_seen) {
        for (const auto& id : *e.devices_seen) {
          seen += (seen.empty() ? " (NVML sees " : ", ") + id;
        }
        seen += ")";
      }
      return "no NVML device has PCI bus id " + e.subject + seen;
    }
    case memory::reading_errc::no_handle:
      return e.function + " returned no device for PCI bus id " + e.subject;
    case memory::reading_errc::bus_id_unreadable:
      return "the device's PCI bus id cannot be read: " + e.detail;
    case memory::reading_errc::not_available:
      return e.detail;
  }
  return "unknown reading failure";
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_GPU_STATE_IPP
