// What the report's page says about its sources: the program, then per
// folder its records counted by kind.
#include <iteragpu/sweep/files/report_files.hpp>

#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/version.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_report_files)

BOOST_AUTO_TEST_CASE(the_environment_lines_name_the_program_and_count_the_records) {
  sw::sweep_folder folder;
  folder.path = "runs/b200";
  folder.points.resize(3);
  folder.records.resize(3);  // no point has a result yet
  const auto lines = sw::detail::environment_lines({folder}, "mesure_memoire");
  BOOST_TEST_REQUIRE(lines.size() >= 2U);
  BOOST_TEST(lines[0].first == "program");
  BOOST_TEST(lines[0].second == std::string("iteragpu ") + iteragpu::library_version + " (mesure_memoire)");
  BOOST_TEST(lines[1].first == "b200: records");
  BOOST_TEST(lines[1].second == "0 measurement records, 0 prediction records, of 3 points");
}

BOOST_AUTO_TEST_SUITE_END()
