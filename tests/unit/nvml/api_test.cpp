// NVML's ABI as the session declares it: nvmlPciInfo_t's layout and the
// entry points' types, called on the fake NVML of tests/nvml/ (built
// against nvml.h's declarations).
#include <iteragpu/nvml/api.hpp>

#include <cstddef>
#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/nvml/library.hpp>

namespace api = iteragpu::nvml::detail;

BOOST_AUTO_TEST_SUITE(nvml_api)

BOOST_AUTO_TEST_CASE(pci_info_has_nvml_layout) {
  // busIdLegacy[16], then five unsigned ints (4 bytes each): busId starts at 16 + 5 * 4 = 36.
  BOOST_TEST(offsetof(api::pci_info, domain) == 16U);
  BOOST_TEST(offsetof(api::pci_info, bus_id) == 36U);
  BOOST_TEST(sizeof(api::pci_info) == 36U + api::bus_id_buffer_size);
}

BOOST_AUTO_TEST_CASE(entry_points_called_through_their_declared_types) {
  auto library = iteragpu::nvml::shared_library::open(ITERAGPU_FAKE_NVML);
  BOOST_TEST_REQUIRE(library.has_value());
  auto* init = library->function<api::init_fn>("nvmlInit_v2");
  auto* count = library->function<api::device_count_fn>("nvmlDeviceGetCount_v2");
  auto* shutdown = library->function<api::shutdown_fn>("nvmlShutdown");
  BOOST_TEST_REQUIRE((init != nullptr && count != nullptr && shutdown != nullptr));
  unsigned int devices = 99;
  // Before nvmlInit_v2 a device call is refused (NVML_ERROR_UNINITIALIZED) and leaves the count alone.
  BOOST_TEST(count(&devices) != api::success);
  BOOST_TEST(devices == 99U);
  BOOST_TEST(init() == api::success);
  BOOST_TEST(count(&devices) == api::success);
  BOOST_TEST(devices == 0U);  // the fake, unconfigured, has no device
  BOOST_TEST(shutdown() == api::success);
}

BOOST_AUTO_TEST_SUITE_END()
