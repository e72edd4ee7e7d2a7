#ifndef ITERAGPU_TESTS_NVML_FAKE_NVML_HPP
#define ITERAGPU_TESTS_NVML_FAKE_NVML_HPP

#include <array>

// The control interface of the fake NVML (fake_nvml.cpp): the test opens the
// fake, looks these two functions up with dlsym, says what NVML should
// answer, then opens a session on the same file (dlopen returns the same
// loaded copy, so the session sees the configuration) and reads back which
// entry points were called.
extern "C" {

struct fake_nvml_device {
  const char* bus_id;  // as NVML prints it, "00000000:1B:00.0"; matched by value, in any case
  int persistence_mode;
  unsigned int mig_mode;
  int ecc_mode;
  unsigned int power_limit_mw;
  unsigned int max_sm_clock_mhz;
  unsigned int max_memory_clock_mhz;
  unsigned int sm_clock_mhz;
  unsigned int memory_clock_mhz;
  unsigned int power_draw_mw;
  unsigned int temperature_c;
  unsigned long long clock_event_reasons;
  int power_usage_result;  // what nvmlDeviceGetPowerUsage returns: 0, or an NVML error code
  int mig_mode_result;     // what nvmlDeviceGetMigMode returns
};

struct fake_nvml_config {
  int init_result;             // what nvmlInit_v2 returns
  int error_strings;           // 0: nvmlErrorString returns NULL
  const char* driver_version;  // copied up to the caller's buffer length, NUL included if it fits
  const char* nvml_version;
  unsigned int device_count;                // at most 4
  std::array<fake_nvml_device, 4> devices;  // in NVML's order
};

// How many times each entry point was called since the last configuration.
struct fake_nvml_calls {
  unsigned int init;
  unsigned int shutdown;
  unsigned int handle_by_bus_id;
  unsigned int handle_by_index;
  unsigned int clocks_event_reasons;
  unsigned int clocks_throttle_reasons;
  unsigned int identifiers;  // nvmlDeviceGetUUID, nvmlDeviceGetSerial, nvmlDeviceGetBoardId
};

using fake_nvml_configure_fn = void(const fake_nvml_config*);
using fake_nvml_read_calls_fn = void(fake_nvml_calls*);
}

#endif  // ITERAGPU_TESTS_NVML_FAKE_NVML_HPP
