// A new folder: refused where something exists or its parent is missing,
// never over anything.
#include <iteragpu/sweep/new_folder.hpp>

#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(sweep_new_folder)

BOOST_AUTO_TEST_CASE(a_folder_is_made_once_where_its_parent_exists) {
  const fs::path parent = fs::temp_directory_path() / ("iteragpu-new-folder-" + std::to_string(::getpid()));
  fs::remove_all(parent);
  fs::create_directories(parent);
  const auto folder = parent / "sweep";
  BOOST_TEST(sw::check_new_folder(folder).has_value());
  BOOST_TEST(sw::create_new_folder(folder).has_value());
  BOOST_TEST(fs::is_directory(folder));
  const auto again = sw::check_new_folder(folder);
  BOOST_TEST_REQUIRE(!again.has_value());
  BOOST_TEST((again.error().code == sw::new_folder_errc::exists));
  const auto orphan = sw::check_new_folder(parent / "missing" / "sweep");
  BOOST_TEST_REQUIRE(!orphan.has_value());
  BOOST_TEST((orphan.error().code == sw::new_folder_errc::no_parent));
  BOOST_TEST(orphan.error().folder == parent / "missing");
  BOOST_TEST((sw::create_new_folder(folder).error().code == sw::new_folder_errc::cannot_create));
  std::error_code ec;
  fs::remove_all(parent, ec);
}

BOOST_AUTO_TEST_SUITE_END()
