// report.hpp brings the words and JSON of every report.
#include <iteragpu/report.hpp>

#include <optional>

#include <boost/json.hpp>  // the headers declare the JSON types only when the bodies are compiled once
#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(report_umbrella)

BOOST_AUTO_TEST_CASE(names_of_several_report_headers) {
  BOOST_TEST(iteragpu::report::to_json(std::optional<iteragpu::memory_need>{}).is_null());
  BOOST_TEST(iteragpu::report::expected_measurement() == "expected a measurement file (schema_version 1 or 2)");
  BOOST_TEST(iteragpu::report::describe(iteragpu::memory::library_code{3, ""}) == "NVML error 3");
}

BOOST_AUTO_TEST_SUITE_END()
