// iteragpu.hpp, the umbrella of the library: the core, the files and the
// reports in one include.
#include <iteragpu/iteragpu.hpp>

#include <array>
#include <cstdint>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(library_umbrella)

BOOST_AUTO_TEST_CASE(names_of_the_core_the_files_and_the_reports) {
  // PROTO 2, BININT1 5, STOP: the integer 5.
  const std::array<unsigned char, 5> pickle{0x80, 0x02, 0x4b, 0x05, 0x2e};
  BOOST_TEST(iteragpu::memory::read_pickle(pickle).value() == boost::json::value(5));
  BOOST_TEST(iteragpu::parse_unsigned("42").value() == 42U);
  BOOST_TEST(!iteragpu::memory::json_byte_count(boost::json::value(-1)).has_value());
  BOOST_TEST(iteragpu::report::expected_measurement() == "expected a measurement file (schema_version 1 or 2)");
}

BOOST_AUTO_TEST_SUITE_END()
