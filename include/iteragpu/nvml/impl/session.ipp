#ifndef ITERAGPU_NVML_IMPL_SESSION_IPP
#define ITERAGPU_NVML_IMPL_SESSION_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/nvml/session.hpp"

// The bodies of the functions that <iteragpu/nvml/session.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::nvml {

[[nodiscard]] ITERAGPU_INLINE gpu_facts gpu_facts_unavailable(const memory::reading_error& reason) {
  return gpu_facts{unexpected{reason}, unexpected{reason}, unexpected{reason},
                   unexpected{reason}, unexpected{reason}, unexpected{reason}};
}

[[nodiscard]] ITERAGPU_INLINE session session::open(const std::string& library_path) {
  session s;
  if (library_path.empty()) {
    s.reason_ = memory::reading_error{memory::reading_errc::no_library_path};
    return s;
  }
  auto library = shared_library::open(library_path);
  if (!library.has_value()) {
    memory::reading_error why{library_path == default_library ? memory::reading_errc::driver_library_missing
                                                              : memory::reading_errc::library_not_loaded};
    if (library.error().code == load_errc::refused_path) {
      why.code = memory::reading_errc::library_path_refused;
    }
    why.subject = library_path;
    why.detail = library.error().loader_message;
    s.reason_ = std::move(why);
    return s;
  }
  const detail::functions f = detail::load_functions(*library);
  if (f.init == nullptr || f.shutdown == nullptr) {
    memory::reading_error why{memory::reading_errc::not_management_library};
    why.function = f.init == nullptr ? detail::init_name : detail::shutdown_name;
    why.subject = library_path;
    s.reason_ = std::move(why);
    return s;
  }
  const detail::return_code code = f.init();
  if (code != detail::success) {
    memory::reading_error why{memory::reading_errc::did_not_start};
    why.function = detail::init_name;
    why.returned = code_of(f, code);
    s.reason_ = std::move(why);
    return s;
  }
  s.library_.emplace(std::move(*library));
  s.functions_ = f;
  return s;
}

ITERAGPU_INLINE session& session::operator=(session&& other) noexcept {
  if (this != &other) {
    close();
    library_ = std::exchange(other.library_, std::nullopt);
    functions_ = std::exchange(other.functions_, detail::functions{});
    reason_ = std::exchange(other.reason_, memory::reading_error{memory::reading_errc::moved_from});
  }
  return *this;
}

[[nodiscard]] ITERAGPU_INLINE result<void, memory::reading_error> session::ready() const {
  if (library_.has_value()) {
    return {};
  }
  return unexpected{reason_};
}

[[nodiscard]] ITERAGPU_INLINE gpu_facts session::facts(std::string_view pci_bus_id) const {
  const auto device = find(pci_bus_id);
  if (!device.has_value()) {
    return gpu_facts_unavailable(device.error());
  }
  const detail::device_handle d = *device;
  return gpu_facts{
      enabled_state(functions_.persistence_mode, detail::persistence_mode_name, d),
      mig_state(d),
      ecc_state(d),
      unsigned_reading<memory::milliwatts>(functions_.power_limit, detail::power_limit_name, d),
      unsigned_reading<memory::megahertz>(functions_.max_clock, detail::max_clock_name, d, detail::clock_sm),
      unsigned_reading<memory::megahertz>(functions_.max_clock, detail::max_clock_name, d, detail::clock_memory),
  };
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_state session::sample(std::string_view pci_bus_id) const {
  const auto device = find(pci_bus_id);
  if (!device.has_value()) {
    return gpu_state_unavailable(device.error());
  }
  const detail::device_handle d = *device;
  return memory::gpu_state{
      unsigned_reading<memory::megahertz>(functions_.clock, detail::clock_name, d, detail::clock_sm),
      unsigned_reading<memory::megahertz>(functions_.clock, detail::clock_name, d, detail::clock_memory),
      unsigned_reading<memory::milliwatts>(functions_.power_usage, detail::power_usage_name, d),
      unsigned_reading<memory::degrees_celsius>(functions_.temperature, detail::temperature_name, d,
                                                detail::temperature_gpu),
      clock_events(d),
  };
}

ITERAGPU_INLINE void session::close() noexcept {
  if (library_.has_value()) {
    // Nothing can be done about a failed shutdown; the library is closed anyway.
    static_cast<void>(functions_.shutdown());
    library_.reset();
  }
  functions_ = detail::functions{};
}

[[nodiscard]] ITERAGPU_INLINE memory::library_code session::code_of(const detail::functions& f,
                                                                    detail::return_code code) {
  memory::library_code named;
  named.value = code;
  if (const char* name = f.error_string != nullptr ? f.error_string(code) : nullptr) {
    named.name = name;
  }
  return named;
}

[[nodiscard]] ITERAGPU_INLINE memory::reading_error session::failed(const char* function,
                                                                    detail::return_code code) const {
  memory::reading_error why{memory::reading_errc::call_failed};
  why.function = function;
  why.returned = code_of(functions_, code);
  return why;
}

[[nodiscard]] ITERAGPU_INLINE memory::reading_error session::missing(const char* function) {
  memory::reading_error why{memory::reading_errc::function_missing};
  why.function = function;
  return why;
}

[[nodiscard]] ITERAGPU_INLINE memory::reading_error session::about_device(memory::reading_errc kind,
                                                                          std::string_view pci_bus_id) {
  memory::reading_error why{kind};
  why.subject = pci_bus_id;
  return why;
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<std::string> session::system_string(
    detail::system_string_fn* function, const char* name) const {
  if (!library_.has_value()) {
    return unexpected{reason_};
  }
  if (function == nullptr) {
    return unexpected{missing(name)};
  }
  std::array<char, detail::version_buffer_size> buffer{};
  const detail::return_code code = function(buffer.data(), static_cast<unsigned int>(buffer.size()));
  if (code != detail::success) {
    return unexpected{failed(name, code)};
  }
  return text_of(buffer);
}

[[nodiscard]] ITERAGPU_INLINE result<detail::device_handle, memory::reading_error> session::find(
    std::string_view pci_bus_id) const {
  if (!library_.has_value()) {
    return unexpected{reason_};
  }
  if (pci_bus_id.empty() || pci_bus_id.size() >= detail::bus_id_buffer_size ||
      pci_bus_id.find('\0') != std::string_view::npos) {
    memory::reading_error why = about_device(memory::reading_errc::not_a_bus_id, pci_bus_id);
    why.value = static_cast<long long>(detail::bus_id_buffer_size - 1U);
    return unexpected{std::move(why)};
  }
  if (functions_.handle_by_bus_id == nullptr) {
    return unexpected{missing(detail::handle_by_bus_id_name)};
  }
  const std::string id(pci_bus_id);
  detail::device_handle device = nullptr;
  detail::handle_by_bus_id_fn* const call = functions_.handle_by_bus_id;
  const detail::return_code code = call(id.c_str(), &device);
  if (code == detail::not_found) {
    memory::reading_error why = about_device(memory::reading_errc::no_device, id);
    why.devices_seen = devices_seen();
    return unexpected{std::move(why)};
  }
  if (code != detail::success) {
    memory::reading_error why = failed(detail::handle_by_bus_id_name, code);
    why.subject = id;
    return unexpected{std::move(why)};
  }
  if (device == nullptr) {
    memory::reading_error why = about_device(memory::reading_errc::no_handle, id);
    why.function = detail::handle_by_bus_id_name;
    return unexpected{std::move(why)};
  }
  return device;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::vector<std::string>> session::devices_seen() const {
  if (functions_.device_count == nullptr || functions_.handle_by_index == nullptr || functions_.pci_info == nullptr) {
    return std::nullopt;
  }
  unsigned int count = 0;
  if (functions_.device_count(&count) != detail::success) {
    return std::nullopt;
  }
  std::vector<std::string> ids;
  for (unsigned int i = 0; i < count; ++i) {
    detail::device_handle device = nullptr;
    detail::pci_info pci{};
    if (functions_.handle_by_index(i, &device) != detail::success || device == nullptr ||
        functions_.pci_info(device, &pci) != detail::success) {
      return std::nullopt;
    }
    ids.push_back(text_of(pci.bus_id));
  }
  return ids;
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<enablement> session::enablement_of(long long state,
                                                                                     long long disabled,
                                                                                     long long enabled,
                                                                                     const char* name) {
  if (state == disabled) {
    return enablement::disabled;
  }
  if (state == enabled) {
    return enablement::enabled;
  }
  memory::reading_error why{memory::reading_errc::unknown_state};
  why.function = name;
  why.value = state;
  return unexpected{std::move(why)};
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<enablement> session::enabled_state(
    detail::enable_state_fn* function, const char* name, detail::device_handle device) const {
  if (function == nullptr) {
    return unexpected{missing(name)};
  }
  int state = 0;
  const detail::return_code code = function(device, &state);
  if (code != detail::success) {
    return unexpected{failed(name, code)};
  }
  return enablement_of(state, detail::feature_disabled, detail::feature_enabled, name);
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<enablement> session::mig_state(detail::device_handle device) const {
  if (functions_.mig_mode == nullptr) {
    return unexpected{missing(detail::mig_mode_name)};
  }
  unsigned int current = 0;
  unsigned int pending = 0;
  detail::mig_mode_fn* const call = functions_.mig_mode;
  const detail::return_code code = call(device, &current, &pending);
  if (code != detail::success) {
    return unexpected{failed(detail::mig_mode_name, code)};
  }
  return enablement_of(current, detail::mig_disabled, detail::mig_enabled, detail::mig_mode_name);
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<enablement> session::ecc_state(detail::device_handle device) const {
  if (functions_.ecc_mode == nullptr) {
    return unexpected{missing(detail::ecc_mode_name)};
  }
  int current = 0;
  int pending = 0;
  detail::ecc_mode_fn* const call = functions_.ecc_mode;
  const detail::return_code code = call(device, &current, &pending);
  if (code != detail::success) {
    return unexpected{failed(detail::ecc_mode_name, code)};
  }
  return enablement_of(current, detail::feature_disabled, detail::feature_enabled, detail::ecc_mode_name);
}

[[nodiscard]] ITERAGPU_INLINE memory::gpu_reading<memory::clock_event_reasons> session::clock_events(
    detail::device_handle device) const {
  const bool newer = functions_.clocks_event_reasons != nullptr;
  detail::clock_reasons_fn* function = newer ? functions_.clocks_event_reasons : functions_.clocks_throttle_reasons;
  const char* name = newer ? detail::clocks_event_reasons_name : detail::clocks_throttle_reasons_name;
  if (function == nullptr) {
    memory::reading_error why{memory::reading_errc::functions_missing};
    why.function = detail::clocks_event_reasons_name;
    why.alternative = detail::clocks_throttle_reasons_name;
    return unexpected{std::move(why)};
  }
  unsigned long long mask = 0;  // NVML's type
  const detail::return_code code = function(device, &mask);
  if (code != detail::success) {
    return unexpected{failed(name, code)};
  }
  return memory::clock_event_reasons{mask};
}

}  // namespace iteragpu::nvml

#endif  // ITERAGPU_NVML_IMPL_SESSION_IPP
