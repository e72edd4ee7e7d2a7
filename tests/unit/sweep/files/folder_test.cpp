// A sweep folder read back: its name as a source, and a folder without its
// points.tsv refused before any record.
#include <iteragpu/sweep/files/folder.hpp>

#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_folder_reading)

BOOST_AUTO_TEST_CASE(a_folder_is_named_by_its_last_component) {
  BOOST_TEST(sw::source_name("runs/b200") == "b200");
  BOOST_TEST(sw::source_name("runs/b200/") == "b200");
  BOOST_TEST(sw::source_name("runs/./h100") == "h100");
  BOOST_TEST(sw::source_name(".") == "sweep");
}

BOOST_AUTO_TEST_CASE(a_folder_without_points_is_refused_at_its_points_file) {
  const auto loaded = sw::load_folder("/nonexistent-iteragpu-folder/sweep");
  BOOST_TEST_REQUIRE(!loaded.has_value());
  BOOST_TEST((loaded.error().code == sw::folder_errc::points_unreadable));
  BOOST_TEST(loaded.error().file.string() == "/nonexistent-iteragpu-folder/sweep/points.tsv");
}

BOOST_AUTO_TEST_CASE(scalars_as_text) {
  const auto five = boost::json::value(5);
  const auto name = boost::json::value("b200");
  const auto null = boost::json::value(nullptr);
  BOOST_TEST(sw::detail::json_scalar_text(nullptr) == "none");
  BOOST_TEST(sw::detail::json_scalar_text(&null) == "none");
  BOOST_TEST(sw::detail::json_scalar_text(&name) == "b200");
  BOOST_TEST(sw::detail::json_scalar_text(&five) == "5");
}

BOOST_AUTO_TEST_SUITE_END()
