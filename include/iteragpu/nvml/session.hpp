#ifndef ITERAGPU_NVML_SESSION_HPP
#define ITERAGPU_NVML_SESSION_HPP

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/nvml/api.hpp"
#include "iteragpu/nvml/library.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"

/// \file
/// A session with NVML, the NVIDIA management library, opened at run time:
/// the driver and NVML versions, a GPU's settings (persistence, MIG, ECC,
/// power limit, maximum clocks) and its state at one moment (clocks, power,
/// temperature, clock event reasons). A GPU is found by its PCI bus id.
///
/// No exception comes out of here for a missing or failing NVML: every
/// reading is a value or a reading_error saying why there is none (put into
/// words by report::describe(), iteragpu/report/gpu_state.hpp). Nothing that identifies
/// the machine (UUID, serial number, board id) is read.
namespace iteragpu::nvml {

/// The file name of the NVIDIA driver's NVML, as dlopen looks it up.
inline constexpr const char* default_library = "libnvidia-ml.so.1";

/// A mode of the GPU, off or on.
enum class enablement { disabled, enabled };

/// "enabled" or "disabled", as the reports print it.
[[nodiscard]] inline std::string_view name_of(enablement e) noexcept {
  return e == enablement::enabled ? "enabled" : "disabled";
}

/// A GPU's settings, read once per run.
struct gpu_facts {
  gpu_reading<enablement> persistence_mode;  ///< whether the driver stays loaded with no client
  gpu_reading<enablement> mig_mode;          ///< current, not pending
  gpu_reading<enablement> ecc_mode;          ///< current, not pending
  gpu_reading<milliwatts> power_limit;       ///< the power management limit
  gpu_reading<megahertz> max_sm_clock;       ///< the streaming multiprocessors' maximum clock
  gpu_reading<megahertz> max_memory_clock;   ///< the memory's maximum clock
  /// Equal when every member is equal.
  friend bool operator==(const gpu_facts&, const gpu_facts&) = default;
};

/// Facts of which every reading is missing for the same reason.
[[nodiscard]] inline gpu_facts gpu_facts_unavailable(const reading_error& reason) {
  return gpu_facts{unexpected{reason}, unexpected{reason}, unexpected{reason},
                   unexpected{reason}, unexpected{reason}, unexpected{reason}};
}

/// NVML initialized on open and shut down when the session ends (NVML counts
/// its initializations, so sessions may overlap). Movable, not copyable; a
/// moved-from session is unavailable. Its state is its own: no global.
class session {
 public:
  /// The driver's libnvidia-ml.so.1.
  [[nodiscard]] static session open() { return open(default_library); }

  /// The library at `library_path` (tests give a fake one).
  [[nodiscard]] static session open(const std::string& library_path) {
    session s;
    if (library_path.empty()) {
      s.reason_ = reading_error{reading_failure::no_library_path};
      return s;
    }
    auto library = detail::shared_library::open(library_path);
    if (!library.has_value()) {
      reading_error why{library_path == default_library ? reading_failure::driver_library_missing
                                                        : reading_failure::library_not_loaded};
      if (library.error().kind == load_failure::refused_path) {
        why.kind = reading_failure::library_path_refused;
      }
      why.subject = library_path;
      why.detail = library.error().loader_message;
      s.reason_ = std::move(why);
      return s;
    }
    const detail::functions f = detail::load_functions(*library);
    if (f.init == nullptr || f.shutdown == nullptr) {
      reading_error why{reading_failure::not_management_library};
      why.function = f.init == nullptr ? detail::init_name : detail::shutdown_name;
      why.subject = library_path;
      s.reason_ = std::move(why);
      return s;
    }
    const detail::return_code code = f.init();
    if (code != detail::success) {
      reading_error why{reading_failure::did_not_start};
      why.function = detail::init_name;
      why.code = code_of(f, code);
      s.reason_ = std::move(why);
      return s;
    }
    s.library_.emplace(std::move(*library));
    s.functions_ = f;
    return s;
  }

  session(const session&) = delete;
  session& operator=(const session&) = delete;
  /// Takes the other's library; the other is unavailable after.
  session(session&& other) noexcept
      : library_(std::exchange(other.library_, std::nullopt)),
        functions_(std::exchange(other.functions_, detail::functions{})),
        reason_(std::exchange(other.reason_, reading_error{reading_failure::moved_from})) {}
  /// Shuts this session down, then takes the other's library; the other is unavailable after.
  session& operator=(session&& other) noexcept {
    if (this != &other) {
      close();
      library_ = std::exchange(other.library_, std::nullopt);
      functions_ = std::exchange(other.functions_, detail::functions{});
      reason_ = std::exchange(other.reason_, reading_error{reading_failure::moved_from});
    }
    return *this;
  }
  ~session() { close(); }

  /// Nothing when NVML is ready, else why not: the library is absent, is
  /// not NVML, or did not start, or the session was moved from.
  [[nodiscard]] std::optional<reading_error> unavailable_reason() const {
    if (library_.has_value()) {
      return std::nullopt;
    }
    return reason_;
  }

  /// "580.95.05", as nvidia-smi prints it.
  [[nodiscard]] gpu_reading<std::string> driver_version() const {
    return system_string(functions_.driver_version, detail::driver_version_name);
  }

  /// "13.580.95.05".
  [[nodiscard]] gpu_reading<std::string> nvml_version() const {
    return system_string(functions_.nvml_version, detail::nvml_version_name);
  }

  /// The settings of the GPU at `pci_bus_id`.
  [[nodiscard]] gpu_facts facts(std::string_view pci_bus_id) const {
    const auto device = find(pci_bus_id);
    if (!device.has_value()) {
      return gpu_facts_unavailable(device.error());
    }
    const detail::device_handle d = *device;
    return gpu_facts{
        enabled_state(functions_.persistence_mode, detail::persistence_mode_name, d),
        mig_state(d),
        ecc_state(d),
        unsigned_reading<milliwatts>(functions_.power_limit, detail::power_limit_name, d),
        unsigned_reading<megahertz>(functions_.max_clock, detail::max_clock_name, d, detail::clock_sm),
        unsigned_reading<megahertz>(functions_.max_clock, detail::max_clock_name, d, detail::clock_memory),
    };
  }

  /// The state of the GPU at `pci_bus_id` now.
  [[nodiscard]] gpu_state sample(std::string_view pci_bus_id) const {
    const auto device = find(pci_bus_id);
    if (!device.has_value()) {
      return gpu_state_unavailable(device.error());
    }
    const detail::device_handle d = *device;
    return gpu_state{
        unsigned_reading<megahertz>(functions_.clock, detail::clock_name, d, detail::clock_sm),
        unsigned_reading<megahertz>(functions_.clock, detail::clock_name, d, detail::clock_memory),
        unsigned_reading<milliwatts>(functions_.power_usage, detail::power_usage_name, d),
        unsigned_reading<degrees_celsius>(functions_.temperature, detail::temperature_name, d,
                                          detail::temperature_gpu),
        clock_events(d),
    };
  }

 private:
  session() = default;

  void close() noexcept {
    if (library_.has_value()) {
      // Nothing can be done about a failed shutdown; the library is closed anyway.
      static_cast<void>(functions_.shutdown());
      library_.reset();
    }
    functions_ = detail::functions{};
  }

  // The code with NVML's name for it ("Not Supported"), where the library can name it.
  [[nodiscard]] static library_code code_of(const detail::functions& f, detail::return_code code) {
    library_code named;
    named.value = code;
    if (const char* name = f.error_string != nullptr ? f.error_string(code) : nullptr) {
      named.name = name;
    }
    return named;
  }

  [[nodiscard]] reading_error failed(const char* function, detail::return_code code) const {
    reading_error why{reading_failure::call_failed};
    why.function = function;
    why.code = code_of(functions_, code);
    return why;
  }

  [[nodiscard]] static reading_error missing(const char* function) {
    reading_error why{reading_failure::function_missing};
    why.function = function;
    return why;
  }

  [[nodiscard]] static reading_error about_device(reading_failure kind, std::string_view pci_bus_id) {
    reading_error why{kind};
    why.subject = pci_bus_id;
    return why;
  }

  // The text of a buffer NVML filled, up to its NUL (or its end, should
  // the library leave none).
  template <std::size_t N>
  [[nodiscard]] static std::string text_of(const std::array<char, N>& buffer) {
    std::size_t length = 0;
    while (length < N && buffer[length] != '\0') {
      ++length;
    }
    return {buffer.data(), length};
  }

  [[nodiscard]] gpu_reading<std::string> system_string(detail::system_string_fn* function, const char* name) const {
    if (!library_.has_value()) {
      return unexpected{*unavailable_reason()};
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

  // The handle of the GPU at `pci_bus_id`, found by NVML itself (it accepts
  // domain:bus:device.function in hexadecimal, either case, with or
  // without leading zeros, as the CUDA runtime prints it).
  [[nodiscard]] result<detail::device_handle, reading_error> find(std::string_view pci_bus_id) const {
    if (!library_.has_value()) {
      return unexpected{*unavailable_reason()};
    }
    if (pci_bus_id.empty() || pci_bus_id.size() >= detail::bus_id_buffer_size ||
        pci_bus_id.find('\0') != std::string_view::npos) {
      reading_error why = about_device(reading_failure::not_a_bus_id, pci_bus_id);
      why.value = static_cast<long long>(detail::bus_id_buffer_size - 1U);
      return unexpected{std::move(why)};
    }
    if (functions_.handle_by_bus_id == nullptr) {
      return unexpected{missing(detail::handle_by_bus_id_name)};
    }
    const std::string id(pci_bus_id);
    detail::device_handle device = nullptr;
    const detail::return_code code = functions_.handle_by_bus_id(id.c_str(), &device);
    if (code == detail::not_found) {
      reading_error why = about_device(reading_failure::no_device, id);
      why.devices_seen = devices_seen();
      return unexpected{std::move(why)};
    }
    if (code != detail::success) {
      reading_error why = failed(detail::handle_by_bus_id_name, code);
      why.subject = id;
      return unexpected{std::move(why)};
    }
    if (device == nullptr) {
      reading_error why = about_device(reading_failure::no_handle, id);
      why.function = detail::handle_by_bus_id_name;
      return unexpected{std::move(why)};
    }
    return device;
  }

  // The PCI bus ids of every device NVML sees, to help whoever reads a
  // failed match; nothing where NVML cannot list its devices.
  [[nodiscard]] std::optional<std::vector<std::string>> devices_seen() const {
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

  template <class Quantity, class Function, class... Arguments>
  [[nodiscard]] gpu_reading<Quantity> unsigned_reading(Function* function, const char* name,
                                                       Arguments... arguments) const {
    if (function == nullptr) {
      return unexpected{missing(name)};
    }
    unsigned int value = 0;
    const detail::return_code code = function(arguments..., &value);
    if (code != detail::success) {
      return unexpected{failed(name, code)};
    }
    return Quantity{value};
  }

  [[nodiscard]] static gpu_reading<enablement> enablement_of(long long state, long long disabled, long long enabled,
                                                             const char* name) {
    if (state == disabled) {
      return enablement::disabled;
    }
    if (state == enabled) {
      return enablement::enabled;
    }
    reading_error why{reading_failure::unknown_state};
    why.function = name;
    why.value = state;
    return unexpected{std::move(why)};
  }

  [[nodiscard]] gpu_reading<enablement> enabled_state(detail::enable_state_fn* function, const char* name,
                                                      detail::device_handle device) const {
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

  [[nodiscard]] gpu_reading<enablement> mig_state(detail::device_handle device) const {
    if (functions_.mig_mode == nullptr) {
      return unexpected{missing(detail::mig_mode_name)};
    }
    unsigned int current = 0;
    unsigned int pending = 0;
    const detail::return_code code = functions_.mig_mode(device, &current, &pending);
    if (code != detail::success) {
      return unexpected{failed(detail::mig_mode_name, code)};
    }
    return enablement_of(current, detail::mig_disabled, detail::mig_enabled, detail::mig_mode_name);
  }

  [[nodiscard]] gpu_reading<enablement> ecc_state(detail::device_handle device) const {
    if (functions_.ecc_mode == nullptr) {
      return unexpected{missing(detail::ecc_mode_name)};
    }
    int current = 0;
    int pending = 0;
    const detail::return_code code = functions_.ecc_mode(device, &current, &pending);
    if (code != detail::success) {
      return unexpected{failed(detail::ecc_mode_name, code)};
    }
    return enablement_of(current, detail::feature_disabled, detail::feature_enabled, detail::ecc_mode_name);
  }

  // The newer name first (NVML 12.2 and later); drivers before it export
  // only the older one, with the same meaning and bits.
  [[nodiscard]] gpu_reading<clock_event_reasons> clock_events(detail::device_handle device) const {
    const bool newer = functions_.clocks_event_reasons != nullptr;
    detail::clock_reasons_fn* function = newer ? functions_.clocks_event_reasons : functions_.clocks_throttle_reasons;
    const char* name = newer ? detail::clocks_event_reasons_name : detail::clocks_throttle_reasons_name;
    if (function == nullptr) {
      reading_error why{reading_failure::functions_missing};
      why.function = detail::clocks_event_reasons_name;
      why.alternative = detail::clocks_throttle_reasons_name;
      return unexpected{std::move(why)};
    }
    unsigned long long mask = 0;  // NVML's type
    const detail::return_code code = function(device, &mask);
    if (code != detail::success) {
      return unexpected{failed(name, code)};
    }
    return clock_event_reasons{mask};
  }

  std::optional<detail::shared_library> library_{};  // engaged while NVML is initialized
  detail::functions functions_{};
  reading_error reason_{reading_failure::moved_from};  // why NVML is unavailable, when it is
};

static_assert(gpu_state_sampler<session>);

}  // namespace iteragpu::nvml

#endif  // ITERAGPU_NVML_SESSION_HPP
