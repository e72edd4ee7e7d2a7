// A GPU runtime of stand-ins, as gpu_runtime_traits asks for one: devices
// with properties, a current device, events on streams, failures injected
// per call, and the caching allocator's statistics. Shared by
// tests/unit/torch/gpu_backend_test.cpp and tests/unit/torch/runtime_test.cpp.
#ifndef ITERAGPU_TESTS_FAKE_GPU_RUNTIME_HPP
#define ITERAGPU_TESTS_FAKE_GPU_RUNTIME_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/device.hpp>
#include <iteragpu/memory/policies/backend.hpp>
#include <iteragpu/memory/policies/gpu_state.hpp>
#include <iteragpu/nvml/session.hpp>

namespace fake_gpu {

enum class fake_status { success, out_of_memory, invalid_device };

struct fake_properties {
  char name[16];  // NOLINT(cppcoreguidelines-avoid-c-arrays,modernize-avoid-c-arrays): the runtimes' layout
  int major;
  int minor;
  std::size_t totalGlobalMem;  // NOLINT(readability-identifier-naming): the runtimes' field name
};

struct fake_stream {
  int device{0};
};

struct fake_event {
  int device{0};
  int recorded{0};
  float at_milliseconds{0};
};

struct fake_stat {
  std::int64_t current;
  std::int64_t peak;
};

struct fake_stats {
  std::vector<fake_stat> allocated_bytes;
  std::vector<fake_stat> reserved_bytes;
};

// The state the fake runtime keeps, as a real runtime keeps it per process;
// each test starts from reset().
struct fake_runtime {
  std::vector<fake_properties> devices;
  int current{0};
  std::map<std::string, fake_status> failing;  // call name -> the status it returns
  std::vector<fake_event*> live_events;
  int created{0};
  int destroyed{0};
  float clock_milliseconds{0};
  std::map<int, fake_stats> stats;
  std::vector<int> peaks_reset;
};

inline fake_runtime& runtime() {
  static fake_runtime r;
  return r;
}

inline void reset(int device_count) {
  runtime() = fake_runtime{};
  for (int i = 0; i < device_count; ++i) {
    fake_properties p{{'F', 'a', 'k', 'e', ' ', static_cast<char>('A' + i), '\0'}, 9, i, (std::size_t{1} << 30U) * 80U};
    runtime().devices.push_back(p);
  }
}

inline fake_status outcome(const std::string& call) {
  const auto f = runtime().failing.find(call);
  return f == runtime().failing.end() ? fake_status::success : f->second;
}

// A GPU state reader that names the GPU it was asked for in its figures:
// the SM clock is 1000 + the bus number, the facts' power limit likewise.
struct fake_reader {
  [[nodiscard]] iteragpu::memory::gpu_state sample(std::string_view pci_bus_id) const {
    auto state = iteragpu::memory::gpu_state_unavailable(not_read());
    state.sm_clock = iteragpu::memory::megahertz{1000U + bus_of(pci_bus_id)};
    return state;
  }
  [[nodiscard]] iteragpu::nvml::gpu_facts facts(std::string_view pci_bus_id) const {
    auto facts = iteragpu::nvml::gpu_facts_unavailable(not_read());
    facts.power_limit = iteragpu::memory::milliwatts{bus_of(pci_bus_id)};
    return facts;
  }
  [[nodiscard]] static iteragpu::memory::gpu_reading<std::string> driver_version() { return std::string("580.95.05"); }
  [[nodiscard]] static iteragpu::memory::gpu_reading<std::string> nvml_version() { return std::string("13.580.95.05"); }

 private:
  static iteragpu::memory::reading_error not_read() {
    return {.code = iteragpu::memory::reading_errc::not_available, .detail = "not read by the fake"};
  }
  // "00000000:1B:00.0" -> 0x1B.
  static std::uint32_t bus_of(std::string_view id) {
    return static_cast<std::uint32_t>(std::stoul(std::string(id.substr(9, 2)), nullptr, 16));
  }
};

struct fake_traits {
  using status_type = fake_status;
  using stream_type = fake_stream*;
  using event_type = fake_event*;
  using properties_type = fake_properties;
  using state_reader = fake_reader;

  static constexpr iteragpu::memory::gpu_platform platform = iteragpu::memory::gpu_platform::hip;
  static constexpr std::string_view runtime_name = "FAKE";
  static constexpr std::string_view call_prefix = "fake";
  static constexpr status_type success = fake_status::success;

  static const char* error_string(status_type s) {
    return s == fake_status::out_of_memory ? "out of memory" : "invalid device ordinal";
  }
  static void initialize() {}
  static int device_count() { return static_cast<int>(runtime().devices.size()); }

  // Makes the device current and restores the previous one, as CUDAGuard does.
  class guard {
   public:
    explicit guard(iteragpu::memory::device_index d) : previous_(std::exchange(runtime().current, d.value)) {}
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    guard(guard&&) = delete;
    guard& operator=(guard&&) = delete;
    ~guard() { runtime().current = previous_; }

   private:
    int previous_;
  };
  static guard make_guard(iteragpu::memory::device_index d) { return guard(d); }

  static status_type device_synchronize() { return outcome("synchronize"); }
  static status_type runtime_version(int* version) {
    *version = 60241134;
    return outcome("version");
  }
  static std::string version_text(int version) { return std::to_string(version / 10000000); }
  static status_type device_properties(properties_type* p, iteragpu::memory::device_index d) {
    *p = runtime().devices.at(static_cast<std::size_t>(d.value));
    return outcome("properties");
  }
  static std::string capability(const properties_type& p) {
    return std::to_string(p.major) + "." + std::to_string(p.minor);
  }
  static status_type memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
    *free_bytes = std::size_t{1000} + static_cast<std::size_t>(runtime().current);
    *total_bytes = runtime().devices.at(static_cast<std::size_t>(runtime().current)).totalGlobalMem;
    return outcome("memory");
  }
  static status_type pci_bus_id(char* text, int length, iteragpu::memory::device_index d) {
    const std::string id = "00000000:" + std::to_string(10 + d.value) + ":00.0";
    BOOST_TEST(length > static_cast<int>(id.size()));
    id.copy(text, id.size());
    text[id.size()] = '\0';  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic): the runtime's C interface
    return outcome("bus id");
  }
  static stream_type current_stream(iteragpu::memory::device_index d) {
    static std::vector<fake_stream> streams{{0}, {1}, {2}, {3}};
    return &streams.at(static_cast<std::size_t>(d.value));
  }
  static status_type event_create(event_type* e) {
    const auto status = outcome(runtime().created == 0 ? "first event" : "second event");
    if (status != success) {
      return status;
    }
    *e = new fake_event{runtime().current};  // NOLINT(cppcoreguidelines-owning-memory): the runtime's handle
    ++runtime().created;
    runtime().live_events.push_back(*e);
    return success;
  }
  static status_type event_destroy(event_type e) {
    std::erase(runtime().live_events, e);
    ++runtime().destroyed;
    delete e;  // NOLINT(cppcoreguidelines-owning-memory): the runtime's handle
    return success;
  }
  static status_type event_record(event_type e, stream_type s) {
    BOOST_TEST(s->device == e->device);  // recorded on the stream of the event's device
    runtime().clock_milliseconds += 250.0F;
    e->at_milliseconds = runtime().clock_milliseconds;
    ++e->recorded;
    return outcome("record");
  }
  static status_type event_elapsed_time(float* milliseconds, event_type start, event_type stop) {
    *milliseconds = stop->at_milliseconds - start->at_milliseconds;
    return outcome("elapsed");
  }
  static fake_stats device_stats(iteragpu::memory::device_index d) { return runtime().stats.at(d.value); }
  static void reset_peak_stats(iteragpu::memory::device_index d) { runtime().peaks_reset.push_back(d.value); }
};

}  // namespace fake_gpu

#endif  // ITERAGPU_TESTS_FAKE_GPU_RUNTIME_HPP
