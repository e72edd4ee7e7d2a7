// Why a sweep folder cannot be read back: the kind and the file at fault,
// here a points.tsv that is no plan.
#include <iteragpu/sweep/files/folder_error.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <variant>

#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <iteragpu/sweep/files/folder.hpp>

namespace sw = iteragpu::sweep;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(sweep_folder_errors)

BOOST_AUTO_TEST_CASE(a_points_file_that_is_no_plan_is_named_with_its_kind) {
  const fs::path folder = fs::temp_directory_path() / ("iteragpu-folder-error-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::ofstream(folder / "points.tsv") << "this is not a plan\n";
  const auto loaded = sw::load_folder(folder);
  BOOST_TEST_REQUIRE(!loaded.has_value());
  const sw::folder_error& e = loaded.error();
  BOOST_TEST((e.code == sw::folder_errc::points_invalid));
  BOOST_TEST(e.file == folder / "points.tsv");
  BOOST_TEST(e.why.holds<iteragpu::sweep::points_file_error>());
  std::error_code ec;
  fs::remove_all(folder, ec);
}

BOOST_AUTO_TEST_SUITE_END()
