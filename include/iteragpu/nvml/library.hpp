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
enum class load_errc {
  refused_path,  ///< the path is empty or contains a NUL character: never given to the loader
  not_loaded,    ///< the loader (dlopen) refused it; see the loader's message
};

/// A library that could not be opened, with the loader's own message (empty where it gave none).
struct load_error {
  load_errc code{load_errc::not_loaded};  ///< what went wrong
  std::string loader_message{};           ///< dlerror()'s text, for not_loaded
  friend bool operator==(const load_error&, const load_error&) = default;
};

/// A shared object opened with dlopen and closed with dlclose when this
/// object ends; moved, never copied, so the handle is closed exactly once.
class shared_library {
 public:
  /// The library at `path` (a file name is searched for as dlopen does), or
  /// why not, with dlopen's message.
  [[nodiscard]] static result<shared_library, load_error> open(const std::string& path);

  shared_library(const shared_library&) = delete;
  shared_library& operator=(const shared_library&) = delete;
  /// Takes `other`'s handle; `other` holds none after.
  shared_library(shared_library&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  /// Closes this library, then takes `other`'s handle.
  shared_library& operator=(shared_library&& other) noexcept;
  /// Closes the library (dlclose), unless it was moved from.
  ~shared_library() { close(); }

  /// The exported function `name`, or null when the library has none. F is
  /// the function's type; POSIX guarantees that dlsym's object pointer
  /// converts to a function pointer.
  template <class F>
  [[nodiscard]] F* function(const char* name) const noexcept {
    return std::bit_cast<F*>(::dlsym(handle_, name));
  }

 private:
  explicit shared_library(void* handle) noexcept : handle_(handle) {}

  void close() noexcept;

  void* handle_{nullptr};
};

}  // namespace iteragpu::nvml

namespace iteragpu::nvml::detail {

// Every entry point the session uses, each null where the library lacks it.
[[nodiscard]] functions load_functions(const shared_library& library) noexcept;

}  // namespace iteragpu::nvml::detail

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/nvml/impl/library.ipp"
#endif

#endif  // ITERAGPU_NVML_LIBRARY_HPP
