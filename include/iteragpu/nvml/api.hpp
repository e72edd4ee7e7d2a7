#ifndef ITERAGPU_NVML_API_HPP
#define ITERAGPU_NVML_API_HPP

#include <array>
#include <cstddef>

// The part of NVML's C interface this library calls, declared here so that
// no NVIDIA header or library is needed to build: NVML is opened at run
// time (iteragpu/nvml/library.hpp).
//
// Read in nvml.h of NVML 13.3.29 as vendored by NVIDIA/go-nvml
// (gen/nvml/nvml.h, commit 2f9e261fe40a7a1c54783d66805e8920564763b4); the
// line numbers below are in that file. These names, values and layouts
// have been stable across NVML versions since the _v2/_v3 entry points
// were introduced; each function is looked up by its exported, versioned
// name.
namespace iteragpu::nvml::detail {

// nvmlReturn_t, nvmlEnableState_t, nvmlClockType_t and
// nvmlTemperatureSensors_t are C enums: int-sized in the ABI.
using return_code = int;

inline constexpr return_code success = 0;    // NVML_SUCCESS, line 1298
inline constexpr return_code not_found = 6;  // NVML_ERROR_NOT_FOUND, line 1304

inline constexpr int feature_disabled = 0;   // NVML_FEATURE_DISABLED, line 886
inline constexpr int feature_enabled = 1;    // NVML_FEATURE_ENABLED, line 887
inline constexpr unsigned mig_disabled = 0;  // NVML_DEVICE_MIG_DISABLE, line 12483
inline constexpr unsigned mig_enabled = 1;   // NVML_DEVICE_MIG_ENABLE, line 12488

inline constexpr int clock_sm = 1;         // NVML_CLOCK_SM, line 1112
inline constexpr int clock_memory = 2;     // NVML_CLOCK_MEM, line 1113
inline constexpr int temperature_gpu = 0;  // NVML_TEMPERATURE_GPU, line 964

// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE and NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE, lines 4090, 4095.
inline constexpr std::size_t version_buffer_size = 80;
// NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE, line 165: the longest bus id plus its NUL.
inline constexpr std::size_t bus_id_buffer_size = 32;

// nvmlDevice_t (line 158): a pointer to an opaque struct.
struct opaque_device;
using device_handle = opaque_device*;

// nvmlPciInfo_t (lines 196-208), filled by nvmlDeviceGetPciInfo_v3.
struct pci_info {
  std::array<char, 16> bus_id_legacy;  // NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE, line 170
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_subsystem_id;
  std::array<char, bus_id_buffer_size> bus_id;
};
static_assert(sizeof(pci_info) == 16 + 5 * sizeof(unsigned int) + bus_id_buffer_size, "nvmlPciInfo_t has no padding");

// The signatures, each with its declaration's line.
using init_fn = return_code();                                                 // nvmlInit_v2, 4002
using shutdown_fn = return_code();                                             // nvmlShutdown, 4036
using error_string_fn = const char*(return_code);                              // nvmlErrorString, 4057
using system_string_fn = return_code(char*, unsigned int);                     // nvmlSystemGetDriverVersion 4194,
                                                                               // nvmlSystemGetNVMLVersion 4212
using device_count_fn = return_code(unsigned int*);                            // nvmlDeviceGetCount_v2, 4573
using handle_by_index_fn = return_code(unsigned int, device_handle*);          // nvmlDeviceGetHandleByIndex_v2, 4641
using handle_by_bus_id_fn = return_code(const char*, device_handle*);          // nvmlDeviceGetHandleByPciBusId_v2, 4758
using pci_info_fn = return_code(device_handle, pci_info*);                     // nvmlDeviceGetPciInfo_v3, 5471
using enable_state_fn = return_code(device_handle, int*);                      // nvmlDeviceGetPersistenceMode, 5433
using mig_mode_fn = return_code(device_handle, unsigned int*, unsigned int*);  // nvmlDeviceGetMigMode, 12803
using ecc_mode_fn = return_code(device_handle, int*, int*);                    // nvmlDeviceGetEccMode, 6886
using device_unsigned_fn = return_code(device_handle, unsigned int*);   // nvmlDeviceGetPowerManagementLimit 6491,
                                                                        // nvmlDeviceGetPowerUsage 6558
using clock_fn = return_code(device_handle, int, unsigned int*);        // nvmlDeviceGetClockInfo 5629,
                                                                        // nvmlDeviceGetMaxClockInfo 5653
using temperature_fn = return_code(device_handle, int, unsigned int*);  // nvmlDeviceGetTemperature, 5958
using clock_reasons_fn = return_code(device_handle,
                                     unsigned long long*);  // nvmlDeviceGetCurrentClocksEventReasons 6121,
                                                            // ...ClocksThrottleReasons 6126 (older name)

// The entry points, each null where the library lacks it.
struct functions {
  init_fn* init{nullptr};
  shutdown_fn* shutdown{nullptr};
  error_string_fn* error_string{nullptr};
  system_string_fn* driver_version{nullptr};
  system_string_fn* nvml_version{nullptr};
  device_count_fn* device_count{nullptr};
  handle_by_index_fn* handle_by_index{nullptr};
  handle_by_bus_id_fn* handle_by_bus_id{nullptr};
  pci_info_fn* pci_info{nullptr};
  enable_state_fn* persistence_mode{nullptr};
  mig_mode_fn* mig_mode{nullptr};
  ecc_mode_fn* ecc_mode{nullptr};
  device_unsigned_fn* power_limit{nullptr};
  clock_fn* max_clock{nullptr};
  clock_fn* clock{nullptr};
  device_unsigned_fn* power_usage{nullptr};
  temperature_fn* temperature{nullptr};
  clock_reasons_fn* clocks_event_reasons{nullptr};
  clock_reasons_fn* clocks_throttle_reasons{nullptr};
};

// The exported names, as in nvml.h.
inline constexpr const char* init_name = "nvmlInit_v2";
inline constexpr const char* shutdown_name = "nvmlShutdown";
inline constexpr const char* error_string_name = "nvmlErrorString";
inline constexpr const char* driver_version_name = "nvmlSystemGetDriverVersion";
inline constexpr const char* nvml_version_name = "nvmlSystemGetNVMLVersion";
inline constexpr const char* device_count_name = "nvmlDeviceGetCount_v2";
inline constexpr const char* handle_by_index_name = "nvmlDeviceGetHandleByIndex_v2";
inline constexpr const char* handle_by_bus_id_name = "nvmlDeviceGetHandleByPciBusId_v2";
inline constexpr const char* pci_info_name = "nvmlDeviceGetPciInfo_v3";
inline constexpr const char* persistence_mode_name = "nvmlDeviceGetPersistenceMode";
inline constexpr const char* mig_mode_name = "nvmlDeviceGetMigMode";
inline constexpr const char* ecc_mode_name = "nvmlDeviceGetEccMode";
inline constexpr const char* power_limit_name = "nvmlDeviceGetPowerManagementLimit";
inline constexpr const char* max_clock_name = "nvmlDeviceGetMaxClockInfo";
inline constexpr const char* clock_name = "nvmlDeviceGetClockInfo";
inline constexpr const char* power_usage_name = "nvmlDeviceGetPowerUsage";
inline constexpr const char* temperature_name = "nvmlDeviceGetTemperature";
inline constexpr const char* clocks_event_reasons_name = "nvmlDeviceGetCurrentClocksEventReasons";
inline constexpr const char* clocks_throttle_reasons_name = "nvmlDeviceGetCurrentClocksThrottleReasons";

}  // namespace iteragpu::nvml::detail

#endif  // ITERAGPU_NVML_API_HPP
