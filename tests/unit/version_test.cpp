// The version string is the three macros joined by points.
#include <iteragpu/version.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(version)

BOOST_AUTO_TEST_CASE(the_version_string_agrees_with_the_macros) {
  const std::string from_macros = std::to_string(ITERAGPU_VERSION_MAJOR) + "." +
                                  std::to_string(ITERAGPU_VERSION_MINOR) + "." + std::to_string(ITERAGPU_VERSION_PATCH);
  BOOST_TEST(std::string(iteragpu::library_version) == from_macros);
  BOOST_TEST(std::string(iteragpu::library_name) == "iteragpu");
}

BOOST_AUTO_TEST_SUITE_END()
