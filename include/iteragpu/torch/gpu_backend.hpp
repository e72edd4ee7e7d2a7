#ifndef ITERAGPU_TORCH_GPU_BACKEND_HPP
#define ITERAGPU_TORCH_GPU_BACKEND_HPP

/// \file
/// One backend for every GPU runtime LibTorch is built with: gpu_backend and
/// gpu_allocator_counter, written once over a runtime's traits (CUDA's in
/// iteragpu/torch/cuda_traits.hpp, HIP's in iteragpu/torch/hip_traits.hpp).
/// Each traits class holds only the runtime's raw calls (status codes, a
/// device guard, events, the caching allocator's counters); what is done
/// with them (which device is made current, when the events are created, how
/// a failed call is reported, how the GPU's state is found by PCI bus id) is
/// written here, so the CUDA and HIP backends cannot drift apart.
///
/// This header includes no LibTorch header: the template is compiled and
/// tested on any machine with a traits class of stand-ins
/// (tests/unit/torch/gpu_backend_test.cpp). Its instances over CUDA and HIP are
/// compiled only where LibTorch has that runtime; the HIP one has never been
/// compiled (see hip_traits.hpp).
///
/// The GPU state (clocks, power, temperature) comes from a state reader the
/// caller opens and passes in: an nvml::session for CUDA, or
/// unavailable_state_reader where no reader is written. Constructing a
/// backend opens nothing.

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/torch/allocator_stats.hpp"
#include "iteragpu/torch/narrow.hpp"

namespace iteragpu::torch_adapter {

/// A source of the GPU's state and of the management library's facts, found
/// by PCI bus id: nvml::session, or unavailable_state_reader.
template <class R>
concept gpu_state_reader = memory::gpu_state_sampler<R> && requires(const R& r, std::string_view pci_bus_id) {
  { r.facts(pci_bus_id) } -> std::same_as<nvml::gpu_facts>;
  { r.driver_version() } -> std::same_as<memory::gpu_reading<std::string>>;
  { r.nvml_version() } -> std::same_as<memory::gpu_reading<std::string>>;
};

/// The state reader of a runtime for which none is written: every reading is
/// missing, not available for `reason`.
struct unavailable_state_reader {
  std::string_view reason;  ///< why no reading can be made, as the reports print it

  /// Every field missing, for the reason.
  [[nodiscard]] memory::gpu_state sample(std::string_view /*pci_bus_id*/) const { return gpu_state_unavailable(why()); }
  /// Every setting missing, for the reason.
  [[nodiscard]] nvml::gpu_facts facts(std::string_view /*pci_bus_id*/) const {
    return nvml::gpu_facts_unavailable(why());
  }
  /// Missing, for the reason.
  [[nodiscard]] memory::gpu_reading<std::string> driver_version() const { return unexpected{why()}; }
  /// Missing, for the reason.
  [[nodiscard]] memory::gpu_reading<std::string> nvml_version() const { return unexpected{why()}; }

 private:
  [[nodiscard]] memory::reading_error why() const {
    return memory::reading_error{.code = memory::reading_errc::not_available, .detail = std::string(reason)};
  }
};

static_assert(gpu_state_reader<unavailable_state_reader> && gpu_state_reader<nvml::session>);

/// What gpu_backend asks of a runtime's traits: raw calls that return the
/// runtime's status, and the few facts that differ between runtimes.
template <class T>
concept gpu_runtime_traits = gpu_state_reader<typename T::state_reader> &&
                             requires(device_index d, typename T::status_type s, typename T::event_type e,
                                      typename T::stream_type stream, typename T::event_type* created,
                                      typename T::properties_type* properties, const typename T::properties_type& read,
                                      int* version, float* milliseconds, std::size_t* bytes, char* text, int length) {
                               { T::platform } -> std::convertible_to<memory::gpu_platform>;
                               { T::runtime_name } -> std::convertible_to<std::string_view>;
                               { T::call_prefix } -> std::convertible_to<std::string_view>;
                               { T::success } -> std::convertible_to<typename T::status_type>;
                               { T::error_string(s) } -> std::convertible_to<const char*>;
                               { T::initialize() } -> std::same_as<void>;
                               { T::device_count() } -> std::same_as<int>;
                               { T::make_guard(d) };
                               { T::device_synchronize() } -> std::same_as<typename T::status_type>;
                               { T::runtime_version(version) } -> std::same_as<typename T::status_type>;
                               { T::version_text(*version) } -> std::same_as<std::string>;
                               { T::device_properties(properties, d) } -> std::same_as<typename T::status_type>;
                               { T::capability(read) } -> std::same_as<std::string>;
                               { T::memory_info(bytes, bytes) } -> std::same_as<typename T::status_type>;
                               { T::pci_bus_id(text, length, d) } -> std::same_as<typename T::status_type>;
                               { T::current_stream(d) } -> std::same_as<typename T::stream_type>;
                               { T::event_create(created) } -> std::same_as<typename T::status_type>;
                               { T::event_destroy(e) } -> std::same_as<typename T::status_type>;
                               { T::event_record(e, stream) } -> std::same_as<typename T::status_type>;
                               { T::event_elapsed_time(milliseconds, e, e) } -> std::same_as<typename T::status_type>;
                               { T::device_stats(d) };
                               { T::reset_peak_stats(d) } -> std::same_as<void>;
                             };

/// The runtime's calls as iteragpu::memory::measure() and the environment report use
/// them; `Traits` (gpu_runtime_traits) supplies the raw calls. A failed call
/// throws std::runtime_error ("CUDA error: out of memory (cudaMemGetInfo)"):
/// this is the LibTorch adapter boundary, where LibTorch itself throws, and
/// measure() and probe_environment() turn it into their error values.
template <class Traits>
  requires gpu_runtime_traits<Traits>
class gpu_backend {
 public:
  /// What reads the GPU's state: nvml::session for CUDA.
  using state_reader = typename Traits::state_reader;

  /// A backend that reads the GPU's state through `reader`, opened by the
  /// caller (nvml::session::open() for CUDA); constructing opens nothing.
  explicit gpu_backend(state_reader reader) noexcept(std::is_nothrow_move_constructible_v<state_reader>)
      : reader_(std::move(reader)) {}

  /// The reader the backend was given.
  [[nodiscard]] const state_reader& reader() const noexcept { return reader_; }

  /// The GPU's clocks, power, temperature and throttle reasons, found by the
  /// device's PCI bus id; every field empty with a reason where the reader
  /// or the device cannot be read.
  [[nodiscard]] iteragpu::memory::gpu_state gpu_state(device_index d) const {
    try {
      return reader_.sample(pci_bus_id(d));
    } catch (const std::exception& e) {
      return gpu_state_unavailable(bus_id_unreadable(e));
    }
  }

  /// The driver's and the management library's versions, and each GPU's
  /// settings, found by its PCI bus id.
  [[nodiscard]] memory::management_report management(const std::vector<memory::gpu_description>& gpus) const {
    memory::management_report m{reader_.driver_version(), reader_.nvml_version(), {}};
    for (const auto& g : gpus) {
      try {
        m.gpus.push_back(reader_.facts(pci_bus_id(g.index)));
      } catch (const std::exception& e) {
        m.gpus.push_back(nvml::gpu_facts_unavailable(bus_id_unreadable(e)));
      }
    }
    return m;
  }

  /// Before any counter is read; allocates nothing on any device.
  static void initialize() { Traits::initialize(); }

  /// Nothing when LibTorch's runtime sees a GPU, else why not.
  [[nodiscard]] static std::optional<std::string> unavailable_reason() {
    if (Traits::device_count() == 0) {
      return "LibTorch's " + std::string(Traits::runtime_name) +
             " runtime sees no GPU (none visible to this process, or no usable driver)";
    }
    return std::nullopt;
  }

  /// The runtime LibTorch loaded (the one it was built with), or nothing
  /// where the runtime cannot say.
  [[nodiscard]] static std::optional<memory::runtime_build> build() {
    int version = 0;
    if (Traits::runtime_version(&version) != Traits::success) {
      return std::nullopt;
    }
    return memory::runtime_build{Traits::platform, Traits::version_text(version)};
  }

  /// Every visible GPU. Properties are read without making any device
  /// current, so no GPU but the measured one gets a context.
  [[nodiscard]] static std::vector<memory::gpu_description> visible_gpus() {
    std::vector<memory::gpu_description> gpus;
    const int count = Traits::device_count();
    for (int i = 0; i < count; ++i) {
      const device_index d{i};
      typename Traits::properties_type p{};
      check(Traits::device_properties(&p, d), "GetDeviceProperties");
      gpus.push_back(memory::gpu_description{d, text_of(p.name), Traits::capability(p),
                                             narrow_or_throw<std::uint64_t>(p.totalGlobalMem)});
    }
    return gpus;
  }

  /// Waits until the work queued on device `d` is done.
  static void synchronize(device_index d) {
    const auto guard = Traits::make_guard(d);
    check(Traits::device_synchronize(), "DeviceSynchronize");
  }

  /// Free and total memory of device `d`: the whole device, all processes.
  [[nodiscard]] static memory::device_memory memory(device_index d) {
    const auto guard = Traits::make_guard(d);
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    check(Traits::memory_info(&free_bytes, &total_bytes), "MemGetInfo");
    return memory::device_memory{free_bytes, total_bytes};
  }

  /// The PCI bus id of device `d` ("00000000:1B:00.0"), by which the state
  /// reader finds the same GPU whatever the visible-devices variable renumbered.
  [[nodiscard]] static std::string pci_bus_id(device_index d) {
    std::array<char, bus_id_buffer> id{};
    check(Traits::pci_bus_id(id.data(), static_cast<int>(id.size()), d), "DeviceGetPCIBusId");
    return text_of(id);
  }

  /// Two events with timing enabled, recorded on the current stream of the
  /// device (the runtime makes the measured device current). Both are
  /// created here, before the timed window opens: a lazily created event
  /// would put the creation inside the window.
  class timer {
   public:
    /// Creates both events on device `d`, on its current stream.
    explicit timer(device_index d) : stream_(Traits::current_stream(d)) {
      const auto guard = Traits::make_guard(d);
      check(Traits::event_create(&start_), "EventCreate");
      const auto status = Traits::event_create(&stop_);
      if (status != Traits::success) {
        destroy(start_);  // no destructor runs for a constructor that throws
        throw std::runtime_error(failure(status, "EventCreate"));
      }
    }
    timer(const timer&) = delete;
    timer& operator=(const timer&) = delete;
    /// Takes the other's events; the other holds none after.
    timer(timer&& other) noexcept
        : stream_(other.stream_),
          start_(std::exchange(other.start_, nullptr)),
          stop_(std::exchange(other.stop_, nullptr)) {}
    timer& operator=(timer&&) = delete;
    ~timer() {
      destroy(start_);
      destroy(stop_);
    }
    /// Records the start event on the stream.
    void start() { check(Traits::event_record(start_, stream_), "EventRecord"); }
    /// Records the stop event on the stream.
    void stop() { check(Traits::event_record(stop_, stream_), "EventRecord"); }
    /// Seconds between the two events, once the device has been synchronized.
    [[nodiscard]] double elapsed_seconds() const {
      float milliseconds = 0;
      check(Traits::event_elapsed_time(&milliseconds, start_, stop_), "EventElapsedTime");
      return static_cast<double>(milliseconds) / milliseconds_per_second;
    }

   private:
    static void destroy(typename Traits::event_type event) noexcept {
      if (event != nullptr) {
        static_cast<void>(Traits::event_destroy(event));  // nothing can be done about a failure here
      }
    }
    static constexpr double milliseconds_per_second = 1000.0;

    typename Traits::stream_type stream_;
    typename Traits::event_type start_{nullptr};
    typename Traits::event_type stop_{nullptr};
  };

  /// A timer of device `d`.
  [[nodiscard]] static timer make_timer(device_index d) { return timer(d); }

  /// "CUDA error: out of memory (cudaMemGetInfo)": the message of a failed call.
  [[nodiscard]] static std::string failure(typename Traits::status_type status, std::string_view call) {
    const char* why = Traits::error_string(status);
    return std::string(Traits::runtime_name) + " error: " + (why != nullptr ? why : "unknown error") + " (" +
           std::string(Traits::call_prefix) + std::string(call) + ")";
  }

  /// Throws std::runtime_error with failure()'s message unless `status` is success.
  static void check(typename Traits::status_type status, std::string_view call) {
    if (status != Traits::success) {
      throw std::runtime_error(failure(status, call));
    }
  }

 private:
  // Room for "00000000:1B:00.0" and more (the runtimes ask for 13 at least).
  static constexpr std::size_t bus_id_buffer = 32;

  [[nodiscard]] static memory::reading_error bus_id_unreadable(const std::exception& e) {
    return memory::reading_error{.code = memory::reading_errc::bus_id_unreadable, .detail = e.what()};
  }

  // The text of a buffer the runtime filled (an array of char), up to its
  // NUL, or its end should the runtime leave none.
  template <class Buffer>
  [[nodiscard]] static std::string text_of(const Buffer& buffer) {
    const auto first = std::begin(buffer);
    return std::string(first, std::find(first, std::end(buffer), '\0'));
  }

  state_reader reader_;
};

/// The caching allocator's aggregate counters for one device, through
/// `Traits::device_stats` and `Traits::reset_peak_stats`.
template <class Traits>
  requires gpu_runtime_traits<Traits>
struct gpu_allocator_counter {
  /// The aggregate allocated and reserved bytes of device `d` and their peaks.
  [[nodiscard]] static allocator_reading read(device_index d) { return reading_from(Traits::device_stats(d)); }
  /// Sets each peak of device `d` to its current value (resetPeakStats).
  static void reset_peaks(device_index d) { Traits::reset_peak_stats(d); }
};

/// Whether gpu_backend and gpu_allocator_counter over `Traits` are all that
/// iteragpu::memory::measure() can use: a backend that measures, reports the
/// device's memory, its inventory, the GPU's state and the management
/// library's facts, and a memory counter. Each runtime's header
/// (cuda_backend.hpp, hip_backend.hpp) asserts it of its traits.
template <class Traits>
inline constexpr bool complete_gpu_runtime =
    memory::measuring_backend<gpu_backend<Traits>> && memory::device_memory_reporting<gpu_backend<Traits>> &&
    memory::device_inventory<gpu_backend<Traits>> && memory::gpu_state_reporting<gpu_backend<Traits>> &&
    memory::management_reporting<gpu_backend<Traits>> && memory::memory_counter<gpu_allocator_counter<Traits>>;

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_GPU_BACKEND_HPP
