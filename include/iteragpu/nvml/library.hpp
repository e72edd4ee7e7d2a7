#ifndef ITERAGPU_NVML_LIBRARY_HPP
#define ITERAGPU_NVML_LIBRARY_HPP

#include <dlfcn.h>

#include <bit>
#include <string>
#include <utility>

#include "iteragpu/nvml/api.hpp"
#include "iteragpu/result.hpp"

/// \file
/// NVML opened at run time: no link-time dependency, so a program built with
/// this library starts on a machine without the NVIDIA driver and says so.
namespace iteragpu::nvml {

/// Why a shared library could not be opened.
enum class load_failure {
  refused_path,  ///< the path is empty or contains a NUL character: never given to the loader
  not_loaded,    ///< the loader (dlopen) refused it; see the loader's message
};

/// A library that could not be opened, with the loader's own message (empty where it gave none).
struct load_error {
  load_failure kind{load_failure::not_loaded};  ///< what went wrong
  std::string loader_message{};                 ///< dlerror()'s text, for not_loaded
  /// Equal when every member is equal.
  friend bool operator==(const load_error&, const load_error&) = default;
};

}  // namespace iteragpu::nvml

namespace iteragpu::nvml::detail {

// A shared object opened with dlopen and closed with dlclose when this
// object ends; moved, never copied, so the handle is closed exactly once.
class shared_library {
 public:
  // The library at `path` (a file name is searched for as dlopen does), or
  // why not, with dlopen's message.
  [[nodiscard]] static result<shared_library, load_error> open(const std::string& path) {
    // dlopen("") would return the program itself; a NUL would cut the path.
    if (path.empty() || path.find('\0') != std::string::npos) {
      return unexpected{load_error{load_failure::refused_path}};
    }
    // RTLD_LOCAL: the library's symbols stay out of the process's global scope.
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      // glibc keeps dlerror's message per thread.
      const char* why = ::dlerror();  // NOLINT(concurrency-mt-unsafe)
      return unexpected{load_error{load_failure::not_loaded, why != nullptr ? std::string(why) : std::string()}};
    }
    return shared_library(handle);
  }

  shared_library(const shared_library&) = delete;
  shared_library& operator=(const shared_library&) = delete;
  shared_library(shared_library&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  shared_library& operator=(shared_library&& other) noexcept {
    if (this != &other) {
      close();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~shared_library() { close(); }

  // The exported function `name`, or null when the library has none. F is
  // the function's type; POSIX guarantees that dlsym's object pointer
  // converts to a function pointer.
  template <class F>
  [[nodiscard]] F* function(const char* name) const noexcept {
    return std::bit_cast<F*>(::dlsym(handle_, name));
  }

 private:
  explicit shared_library(void* handle) noexcept : handle_(handle) {}

  void close() noexcept {
    if (handle_ != nullptr) {
      static_cast<void>(::dlclose(handle_));
      handle_ = nullptr;
    }
  }

  void* handle_{nullptr};
};

// Every entry point the session uses, each null where the library lacks it.
[[nodiscard]] inline functions load_functions(const shared_library& library) noexcept {
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

#endif  // ITERAGPU_NVML_LIBRARY_HPP
