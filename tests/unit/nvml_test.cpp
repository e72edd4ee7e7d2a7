// nvml.hpp brings the NVIDIA management library as this library loads it:
// the session that reads a GPU's state, and what it reports without NVML.
#include <iteragpu/nvml.hpp>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(nvml_umbrella)

BOOST_AUTO_TEST_CASE(a_session_over_no_library_says_why_it_is_not_ready) {
  const auto s = iteragpu::nvml::session::open("");
  BOOST_TEST(!s.ready().has_value());
  BOOST_TEST((s.ready().error().code == iteragpu::memory::reading_errc::no_library_path));
}

BOOST_AUTO_TEST_SUITE_END()
