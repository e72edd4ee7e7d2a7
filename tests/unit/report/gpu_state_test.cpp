// The words of NVML's codes and of a library that did not load.
#include <iteragpu/report/gpu_state.hpp>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;

BOOST_AUTO_TEST_SUITE(gpu_state_words)

BOOST_AUTO_TEST_CASE(codes_by_name_and_number_and_load_errors) {
  BOOST_TEST(report::describe(iteragpu::memory::library_code{3, "Not Supported"}) == "Not Supported (NVML error 3)");
  BOOST_TEST(report::describe(iteragpu::memory::library_code{999, ""}) == "NVML error 999");
  BOOST_TEST(report::describe(iteragpu::nvml::load_error{iteragpu::nvml::load_errc::refused_path, "ignored"}) ==
             "the library path is empty or contains a NUL character");
  BOOST_TEST(report::describe(iteragpu::nvml::load_error{iteragpu::nvml::load_errc::not_loaded, "libx.so: missing"}) ==
             "libx.so: missing");
  BOOST_TEST(report::describe(iteragpu::nvml::load_error{iteragpu::nvml::load_errc::not_loaded, ""}) ==
             "dlopen failed without a message");
  BOOST_TEST(report::describe(iteragpu::memory::reading_error{}) == "not asked");
}

BOOST_AUTO_TEST_SUITE_END()
