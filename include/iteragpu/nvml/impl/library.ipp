#ifndef ITERAGPU_NVML_IMPL_LIBRARY_IPP
#define ITERAGPU_NVML_IMPL_LIBRARY_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/nvml/library.hpp"

// The bodies of the functions that <iteragpu/nvml/library.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::nvml {

[[nodiscard]] ITERAGPU_INLINE result<shared_library, load_error> shared_library::open(const std::string& path) {
  // dlopen("") would return the program itself; a NUL would cut the path.
  if (path.empty() || path.find('\0') != std::string::npos) {
    return unexpected{load_error{load_errc::refused_path}};
  }
  // RTLD_LOCAL: the library's symbols stay out of the process's global scope.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    // glibc keeps dlerror's message per thread.
    const char* why = ::dlerror();  // NOLINT(concurrency-mt-unsafe)
    return unexpected{load_error{load_errc::not_loaded, why != nullptr ? std::string(why) : std::string()}};
  }
  return shared_library(handle);
}

ITERAGPU_INLINE shared_library& shared_library::operator=(shared_library&& other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

ITERAGPU_INLINE void shared_library::close() noexcept {
  if (handle_ != nullptr) {
    static_cast<void>(::dlclose(handle_));
    handle_ = nullptr;
  }
}

}  // namespace iteragpu::nvml

namespace iteragpu::nvml::detail {

[[nodiscard]] ITERAGPU_INLINE functions load_functions(const shared_library& library) noexcept {
  functions f;
  f.init = library.function<init_fn>(init_name);
  f.shutdown = library.function<shutdown_fn>(shutdown_name);
  f.error_string = library.function<error_string_fn>(error_string_name);
  f.driver_version = library.function<system_string_fn>(driver_version_name);
  f.nvml_version = library.function<system_string_fn>(nvml_version_name);
  f.device_count = library.function<device_count_fn>(device_count_name);
  f.handle_by_index = library.function<handle_by_index_fn>(handle_by_index_name);
  f.handle_by_bus_id = library.function<handle_by_bus_id_fn>(handle_by_bus_id_name);
  f.pci_info = library.function<pci_info_fn>(pci_info_name);
  f.persistence_mode = library.function<enable_state_fn>(persistence_mode_name);
  f.mig_mode = library.function<mig_mode_fn>(mig_mode_name);
  f.ecc_mode = library.function<ecc_mode_fn>(ecc_mode_name);
  f.power_limit = library.function<device_unsigned_fn>(power_limit_name);
  f.max_clock = library.function<clock_fn>(max_clock_name);
  f.clock = library.function<clock_fn>(clock_name);
  f.power_usage = library.function<device_unsigned_fn>(power_usage_name);
  f.temperature = library.function<temperature_fn>(temperature_name);
  f.clocks_event_reasons = library.function<clock_reasons_fn>(clocks_event_reasons_name);
  f.clocks_throttle_reasons = library.function<clock_reasons_fn>(clocks_throttle_reasons_name);
  return f;
}

}  // namespace iteragpu::nvml::detail

#endif  // ITERAGPU_NVML_IMPL_LIBRARY_IPP
