#ifndef ITERAGPU_NVML_SESSION_HPP
#define ITERAGPU_NVML_SESSION_HPP

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/nvml/api.hpp"
#include "iteragpu/nvml/library.hpp"
#include "iteragpu/result.hpp"

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

// A GPU's settings and their modes are the memory domain's words
// (memory/policies/gpu_state.hpp), which this adapter reads; they keep their
// names here.
using memory::enablement;
using memory::gpu_facts;
using memory::name_of;

/// Facts of which every reading is missing for the same reason.
[[nodiscard]] gpu_facts gpu_facts_unavailable(const memory::reading_error& reason);

/// NVML initialized on open and shut down when the session ends (NVML counts
/// its initializations, so sessions may overlap). Movable, not copyable; a
/// moved-from session is unavailable. Its state is its own: no global.
class session {
 public:
  /// The driver's libnvidia-ml.so.1.
  [[nodiscard]] static session open() { return open(default_library); }

  /// The library at `library_path` (tests give a fake one).
  [[nodiscard]] static session open(const std::string& library_path);

  session(const session&) = delete;
  session& operator=(const session&) = delete;
  /// Takes the other's library; the other is unavailable after.
  session(session&& other) noexcept
      : library_(std::exchange(other.library_, std::nullopt)),
        functions_(std::exchange(other.functions_, detail::functions{})),
        reason_(std::exchange(other.reason_, memory::reading_error{memory::reading_errc::moved_from})) {}
  /// Shuts this session down, then takes the other's library; the other is unavailable after.
  session& operator=(session&& other) noexcept;
  ~session() { close(); }

  /// A success when NVML is ready, else why not: the library is absent, is
  /// not NVML, or did not start, or the session was moved from.
  [[nodiscard]] result<void, memory::reading_error> ready() const;

  /// "580.95.05", as nvidia-smi prints it.
  [[nodiscard]] memory::gpu_reading<std::string> driver_version() const {
    return system_string(functions_.driver_version, detail::driver_version_name);
  }

  /// "13.580.95.05".
  [[nodiscard]] memory::gpu_reading<std::string> nvml_version() const {
    return system_string(functions_.nvml_version, detail::nvml_version_name);
  }

  /// The settings of the GPU at `pci_bus_id`.
  [[nodiscard]] gpu_facts facts(std::string_view pci_bus_id) const;

  /// The state of the GPU at `pci_bus_id` now.
  [[nodiscard]] memory::gpu_state sample(std::string_view pci_bus_id) const;

 private:
  session() = default;

  void close() noexcept;

  // The code with NVML's name for it ("Not Supported"), where the library can name it.
  [[nodiscard]] static memory::library_code code_of(const detail::functions& f, detail::return_code code);

  [[nodiscard]] memory::reading_error failed(const char* function, detail::return_code code) const;

  [[nodiscard]] static memory::reading_error missing(const char* function);

  [[nodiscard]] static memory::reading_error about_device(memory::reading_errc kind, std::string_view pci_bus_id);

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

  [[nodiscard]] memory::gpu_reading<std::string> system_string(detail::system_string_fn* function,
                                                               const char* name) const;

  // The handle of the GPU at `pci_bus_id`, found by NVML itself (it accepts
  // domain:bus:device.function in hexadecimal, either case, with or
  // without leading zeros, as the CUDA runtime prints it).
  [[nodiscard]] result<detail::device_handle, memory::reading_error> find(std::string_view pci_bus_id) const;

  // The PCI bus ids of every device NVML sees, to help whoever reads a
  // failed match; nothing where NVML cannot list its devices.
  [[nodiscard]] std::optional<std::vector<std::string>> devices_seen() const;

  template <class Quantity, class Function, class... Arguments>
  [[nodiscard]] memory::gpu_reading<Quantity> unsigned_reading(Function* function, const char* name,
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

  [[nodiscard]] static memory::gpu_reading<enablement> enablement_of(long long state, long long disabled,
                                                                     long long enabled, const char* name);

  [[nodiscard]] memory::gpu_reading<enablement> enabled_state(detail::enable_state_fn* function, const char* name,
                                                              detail::device_handle device) const;

  [[nodiscard]] memory::gpu_reading<enablement> mig_state(detail::device_handle device) const;

  [[nodiscard]] memory::gpu_reading<enablement> ecc_state(detail::device_handle device) const;

  // The newer name first (NVML 12.2 and later); drivers before it export
  // only the older one, with the same meaning and bits.
  [[nodiscard]] memory::gpu_reading<memory::clock_event_reasons> clock_events(detail::device_handle device) const;

  std::optional<shared_library> library_{};  // engaged while NVML is initialized
  detail::functions functions_{};
  memory::reading_error reason_{memory::reading_errc::moved_from};  // why NVML is unavailable, when it is
};

static_assert(memory::gpu_state_sampler<session>);

}  // namespace iteragpu::nvml

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/nvml/impl/session.ipp"
#endif

#endif  // ITERAGPU_NVML_SESSION_HPP
