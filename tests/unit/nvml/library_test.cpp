// Loading a shared library by path: a refused path never reaches the
// loader, a missing file gives the loader's message, a loaded library gives
// its functions.
#include <iteragpu/nvml/library.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace nvml = iteragpu::nvml;

BOOST_AUTO_TEST_SUITE(shared_libraries)

BOOST_AUTO_TEST_CASE(paths_are_refused_or_loaded) {
  const auto empty = nvml::shared_library::open("");
  BOOST_TEST_REQUIRE(!empty.has_value());
  BOOST_TEST((empty.error().code == nvml::load_errc::refused_path));
  const auto with_nul = nvml::shared_library::open(std::string("lib\0x.so", 8));
  BOOST_TEST((with_nul.error().code == nvml::load_errc::refused_path));
  const auto missing = nvml::shared_library::open("/nonexistent-iteragpu-folder/libnothing.so");
  BOOST_TEST_REQUIRE(!missing.has_value());
  BOOST_TEST((missing.error().code == nvml::load_errc::not_loaded));
  BOOST_TEST(missing.error().loader_message.find("libnothing.so") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_loaded_library_gives_its_functions_and_null_for_the_others) {
  auto fake = nvml::shared_library::open(ITERAGPU_FAKE_NVML);
  BOOST_TEST_REQUIRE(fake.has_value());
  BOOST_TEST(fake->function<int()>("nvmlInit_v2") != nullptr);
  BOOST_TEST(fake->function<int()>("nvmlNoSuchEntryPoint") == nullptr);
  // The variant built without nvmlInit_v2 lacks it.
  auto without_init = nvml::shared_library::open(ITERAGPU_FAKE_NVML_WITHOUT_INIT);
  BOOST_TEST_REQUIRE(without_init.has_value());
  BOOST_TEST(without_init->function<int()>("nvmlInit_v2") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
