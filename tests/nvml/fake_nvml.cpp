// A fake NVML: a shared object exporting NVML's entry points under their
// real names, with C linkage and NVML's C types (nvmlReturn_t and the other
// enums as int, nvmlDevice_t as a pointer to an opaque struct), answering
// what the test configured through fake_nvml_configure. Built in variants
// that each lack one entry point (FAKE_NVML_WITHOUT_INIT,
// FAKE_NVML_WITHOUT_POWER_USAGE, FAKE_NVML_WITHOUT_CLOCKS_EVENT_REASONS).
//
// Like NVML it counts its initializations and refuses device calls while
// none is open (NVML_ERROR_UNINITIALIZED), so a session that used NVML
// after shutting it down would fail the tests. It also exports the
// identifier functions (UUID, serial, board id) and counts their calls,
// which must stay at zero.
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "fake_nvml.hpp"

// nvmlDevice_t points to one of these.
struct nvmlDevice_st {
  unsigned int index;
};

namespace {

// NVML's return codes (nvml.h, NVML 13.3.29, lines 1298-1329).
constexpr int success = 0;
constexpr int uninitialized = 1;
constexpr int invalid_argument = 2;
constexpr int not_supported = 3;
constexpr int not_found = 6;

// nvmlPciInfo_t (nvml.h lines 196-208).
struct pci_info {
  std::array<char, 16> bus_id_legacy;
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_subsystem_id;
  std::array<char, 32> bus_id;
};

fake_nvml_config config{};
fake_nvml_calls calls{};
unsigned int open_sessions = 0;
std::array<nvmlDevice_st, 4> handles{{{0}, {1}, {2}, {3}}};

// domain:bus:device.function in hexadecimal, either case, as NVML reads it.
std::optional<std::array<unsigned long, 4>> parse_bus_id(std::string_view text) {
  std::array<unsigned long, 4> parts{};
  constexpr std::array<char, 3> separators{':', ':', '.'};
  std::size_t part = 0;
  std::size_t digits = 0;
  for (const char c : text) {
    if (part < separators.size() && c == separators.at(part)) {
      if (digits == 0) {
        return std::nullopt;
      }
      ++part;
      digits = 0;
      continue;
    }
    unsigned long value = 0;
    if (c >= '0' && c <= '9') {
      value = static_cast<unsigned long>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      value = static_cast<unsigned long>(c - 'a') + 10U;
    } else if (c >= 'A' && c <= 'F') {
      value = static_cast<unsigned long>(c - 'A') + 10U;
    } else {
      return std::nullopt;
    }
    if (++digits > 8) {
      return std::nullopt;
    }
    parts.at(part) = parts.at(part) * 16U + value;
  }
  if (part != separators.size() || digits == 0) {
    return std::nullopt;
  }
  return parts;
}

// The configured device behind a handle, or null for a handle this fake
// did not give or while NVML is not initialized.
const fake_nvml_device* device_of(const nvmlDevice_st* handle) {
  if (open_sessions == 0 || handle == nullptr || handle->index >= config.device_count) {
    return nullptr;
  }
  return &config.devices.at(handle->index);
}

// What a device call answers for a handle device_of refuses.
int refused() { return open_sessions == 0 ? uninitialized : invalid_argument; }

// Copies `text` into the caller's buffer as NVML does: at most `length`
// bytes, the NUL included only when it fits.
int copy_text(const char* text, char* buffer, unsigned int length) {
  if (open_sessions == 0) {
    return uninitialized;
  }
  if (buffer == nullptr || text == nullptr) {
    return invalid_argument;
  }
  const std::span<char> out(buffer, length);
  const std::string_view in(text);
  const std::size_t n = std::min(out.size(), in.size() + 1U);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = i < in.size() ? in[i] : '\0';
  }
  return success;
}

int unsigned_answer(const nvmlDevice_st* handle, unsigned int* out, unsigned int fake_nvml_device::* field) {
  const fake_nvml_device* d = device_of(handle);
  if (d == nullptr || out == nullptr) {
    return refused();
  }
  *out = d->*field;
  return success;
}

int clock_answer(const nvmlDevice_st* handle, int type, unsigned int* out, unsigned int fake_nvml_device::* sm,
                 unsigned int fake_nvml_device::* memory) {
  // NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 (nvml.h lines 1112-1113).
  if (type == 1) {
    return unsigned_answer(handle, out, sm);
  }
  if (type == 2) {
    return unsigned_answer(handle, out, memory);
  }
  return invalid_argument;
}

int reasons_answer(const nvmlDevice_st* handle, unsigned long long* out) {
  const fake_nvml_device* d = device_of(handle);
  if (d == nullptr || out == nullptr) {
    return refused();
  }
  *out = d->clock_event_reasons;
  return success;
}

}  // namespace

extern "C" {

void fake_nvml_configure(const fake_nvml_config* c) {
  config = *c;
  calls = {};
}

void fake_nvml_read_calls(fake_nvml_calls* out) { *out = calls; }

#ifndef FAKE_NVML_WITHOUT_INIT
int nvmlInit_v2() {
  ++calls.init;
  if (config.init_result == success) {
    ++open_sessions;
  }
  return config.init_result;
}
#endif

int nvmlShutdown() {
  ++calls.shutdown;
  if (open_sessions == 0) {
    return uninitialized;
  }
  --open_sessions;
  return success;
}

const char* nvmlErrorString(int code) {
  if (config.error_strings == 0) {
    return nullptr;
  }
  switch (code) {
    case success:
      return "Success";
    case uninitialized:
      return "Uninitialized";
    case invalid_argument:
      return "Invalid Argument";
    case not_supported:
      return "Not Supported";
    case not_found:
      return "Not Found";
    case 9:
      return "Driver Not Loaded";
    default:
      return "Unknown Error";
  }
}

int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  return copy_text(config.driver_version, version, length);
}

int nvmlSystemGetNVMLVersion(char* version, unsigned int length) {
  return copy_text(config.nvml_version, version, length);
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (open_sessions == 0) {
    return uninitialized;
  }
  *count = config.device_count;
  return success;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_st** device) {
  ++calls.handle_by_index;
  if (open_sessions == 0) {
    return uninitialized;
  }
  if (index >= config.device_count || device == nullptr) {
    return invalid_argument;
  }
  *device = &handles.at(index);
  return success;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_st** device) {
  ++calls.handle_by_bus_id;
  if (open_sessions == 0) {
    return uninitialized;
  }
  if (bus_id == nullptr || device == nullptr) {
    return invalid_argument;
  }
  const auto wanted = parse_bus_id(bus_id);
  if (!wanted) {
    return invalid_argument;
  }
  for (unsigned int i = 0; i < config.device_count; ++i) {
    if (parse_bus_id(config.devices.at(i).bus_id) == wanted) {
      *device = &handles.at(i);
      return success;
    }
  }
  return not_found;
}

int nvmlDeviceGetPciInfo_v3(nvmlDevice_st* device, pci_info* pci) {
  const fake_nvml_device* d = device_of(device);
  if (d == nullptr || pci == nullptr) {
    return refused();
  }
  const auto parts = parse_bus_id(d->bus_id);
  if (!parts) {
    return invalid_argument;
  }
  pci_info info{};
  info.domain = static_cast<unsigned int>(parts->at(0));
  info.bus = static_cast<unsigned int>(parts->at(1));
  info.device = static_cast<unsigned int>(parts->at(2));
  info.pci_device_id = 0x233510DEU;  // H200's device id and NVIDIA's vendor id
  info.pci_subsystem_id = 0;
  const std::string_view id(d->bus_id);
  std::copy_n(id.begin(), std::min(id.size(), info.bus_id.size() - 1U), info.bus_id.begin());
  // The legacy form has a four-digit domain: the last 12 characters of the eight-digit one.
  const std::string_view legacy = id.size() > 12U ? id.substr(id.size() - 12U) : id;
  std::copy_n(legacy.begin(), std::min(legacy.size(), info.bus_id_legacy.size() - 1U), info.bus_id_legacy.begin());
  *pci = info;
  return success;
}

int nvmlDeviceGetPersistenceMode(nvmlDevice_st* device, int* mode) {
  const fake_nvml_device* d = device_of(device);
  if (d == nullptr || mode == nullptr) {
    return refused();
  }
  *mode = d->persistence_mode;
  return success;
}

int nvmlDeviceGetMigMode(nvmlDevice_st* device, unsigned int* current, unsigned int* pending) {
  const fake_nvml_device* d = device_of(device);
  if (d == nullptr || current == nullptr || pending == nullptr) {
    return refused();
  }
  if (d->mig_mode_result != success) {
    return d->mig_mode_result;
  }
  *current = d->mig_mode;
  *pending = d->mig_mode;
  return success;
}

int nvmlDeviceGetEccMode(nvmlDevice_st* device, int* current, int* pending) {
  const fake_nvml_device* d = device_of(device);
  if (d == nullptr || current == nullptr || pending == nullptr) {
    return refused();
  }
  *current = d->ecc_mode;
  *pending = d->ecc_mode;
  return success;
}

int nvmlDeviceGetPowerManagementLimit(nvmlDevice_st* device, unsigned int* limit) {
  return unsigned_answer(device, limit, &fake_nvml_device::power_limit_mw);
}

int nvmlDeviceGetMaxClockInfo(nvmlDevice_st* device, int type, unsigned int* clock) {
  return clock_answer(device, type, clock, &fake_nvml_device::max_sm_clock_mhz,
                      &fake_nvml_device::max_memory_clock_mhz);
}

int nvmlDeviceGetClockInfo(nvmlDevice_st* device, int type, unsigned int* clock) {
  return clock_answer(device, type, clock, &fake_nvml_device::sm_clock_mhz, &fake_nvml_device::memory_clock_mhz);
}

#ifndef FAKE_NVML_WITHOUT_POWER_USAGE
int nvmlDeviceGetPowerUsage(nvmlDevice_st* device, unsigned int* power) {
  const fake_nvml_device* d = device_of(device);
  if (d != nullptr && d->power_usage_result != success) {
    return d->power_usage_result;
  }
  return unsigned_answer(device, power, &fake_nvml_device::power_draw_mw);
}
#endif

int nvmlDeviceGetTemperature(nvmlDevice_st* device, int sensor, unsigned int* temperature) {
  // NVML_TEMPERATURE_GPU = 0 (nvml.h line 964).
  if (sensor != 0) {
    return invalid_argument;
  }
  return unsigned_answer(device, temperature, &fake_nvml_device::temperature_c);
}

#ifndef FAKE_NVML_WITHOUT_CLOCKS_EVENT_REASONS
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_st* device, unsigned long long* reasons) {
  ++calls.clocks_event_reasons;
  return reasons_answer(device, reasons);
}
#endif

int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_st* device, unsigned long long* reasons) {
  ++calls.clocks_throttle_reasons;
  return reasons_answer(device, reasons);
}

int nvmlDeviceGetUUID(nvmlDevice_st* /*device*/, char* /*uuid*/, unsigned int /*length*/) {
  ++calls.identifiers;
  return not_supported;
}

int nvmlDeviceGetSerial(nvmlDevice_st* /*device*/, char* /*serial*/, unsigned int /*length*/) {
  ++calls.identifiers;
  return not_supported;
}

int nvmlDeviceGetBoardId(nvmlDevice_st* /*device*/, unsigned int* /*board_id*/) {
  ++calls.identifiers;
  return not_supported;
}

}  // extern "C"
