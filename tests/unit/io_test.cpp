// The new-file writer: a file appears whole or not at all, never over
// another.
#include <iteragpu/io.hpp>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>
#include <variant>
#include <vector>

#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include "scratch_folder.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(new_file_writer)

BOOST_AUTO_TEST_CASE(writes_the_whole_content_and_leaves_no_temporary) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  BOOST_TEST(iteragpu::write_new_file(file, "{\"a\":1}\n").has_value());
  BOOST_TEST(read_file(file) == "{\"a\":1}\n");
  BOOST_TEST(dir.entries() == 1U);
}

// A problem carries its figures; its words, beside it, name the file.
BOOST_AUTO_TEST_CASE(new_file_problems_are_worded_from_their_figures) {
  using iteragpu::new_file_errc;
  using iteragpu::new_file_error;
  using iteragpu::new_file_step;
  using iteragpu::describe;
  BOOST_TEST(describe(new_file_error{.code = new_file_errc::folder_missing, .file = "/no/such/r.json"}) ==
             "folder '/no/such' does not exist; expected an existing folder");
  BOOST_TEST(describe(new_file_error{.code = new_file_errc::not_a_folder, .file = "plain/r.json"}) ==
             "'plain' is not a folder");
  BOOST_TEST(describe(new_file_error{.code = new_file_errc::is_empty_name, .file = "out/"}) ==
             "'out/' names no file; expected a path to a new file");
  BOOST_TEST(describe(new_file_error{
                 .code = new_file_errc::name_too_long, .file = "d/n.json", .what = iteragpu::name_length{300, 255}}) ==
             "the file name of 'd/n.json' has 300 bytes; expected at most 255 on that file system");
  BOOST_TEST(describe(new_file_error{.code = new_file_errc::system_error,
                                     .file = "r.json",
                                     .what = iteragpu::refused_step{new_file_step::flushing, ENOSPC}}) ==
             "cannot write 'r.json': flushing to disk: No space left on device");
  BOOST_TEST(
      describe(new_file_error{
          .code = new_file_errc::name_taken, .file = "r.json", .what = iteragpu::kept_file{"r.kept-7-1.json"}}) ==
      "'r.json' was taken by another process while this one worked; the result is kept as 'r.kept-7-1.json'");
}

BOOST_AUTO_TEST_CASE(never_replaces_an_existing_file) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  {
    std::ofstream(file) << "precious";
  }
  const auto written = iteragpu::write_new_file(file, "new content");
  BOOST_REQUIRE(!written.has_value());
  BOOST_TEST((written.error().code == iteragpu::new_file_errc::already_exists));
  BOOST_TEST((written.error().file == file));
  BOOST_TEST(iteragpu::describe(written.error()) ==
             "'" + file.string() + "' already exists; expected a new file name (nothing is overwritten)");
  BOOST_TEST(read_file(file) == "precious");
  BOOST_TEST(dir.entries() == 1U);
}

BOOST_AUTO_TEST_CASE(refuses_a_missing_folder_a_file_as_folder_and_a_folder_as_file) {
  const scratch_folder dir;
  const auto kind_of = [](const fs::path& file) {
    const auto written = iteragpu::write_new_file(file, "x");
    BOOST_REQUIRE(!written.has_value());
    return written.error().code;
  };
  BOOST_TEST((kind_of(dir.path / "missing" / "result.json") == iteragpu::new_file_errc::folder_missing));
  {
    std::ofstream(dir.path / "plain") << "x";
  }
  BOOST_TEST((kind_of(dir.path / "plain" / "result.json") == iteragpu::new_file_errc::not_a_folder));
  fs::create_directory(dir.path / "sub");
  BOOST_TEST((kind_of(dir.path / "sub") == iteragpu::new_file_errc::already_exists));
  BOOST_TEST((kind_of(dir.path / "") == iteragpu::new_file_errc::is_empty_name));
  BOOST_TEST(dir.entries() == 2U);
}

BOOST_AUTO_TEST_CASE(a_dangling_symlink_counts_as_an_existing_name) {
  const scratch_folder dir;
  fs::create_symlink(dir.path / "nowhere", dir.path / "link.json");
  const auto written = iteragpu::write_new_file(dir.path / "link.json", "x");
  BOOST_TEST((!written && written.error().code == iteragpu::new_file_errc::already_exists));
  BOOST_TEST(!fs::exists(dir.path / "nowhere"));
}

BOOST_AUTO_TEST_CASE(of_racing_writers_exactly_one_wins_and_no_result_is_lost) {
  const scratch_folder dir;
  const auto file = dir.path / "race.json";
  constexpr int writers = 8;
  std::atomic<int> won{0};
  std::atomic<int> refused_before_work{0};
  std::vector<std::thread> threads;
  std::vector<iteragpu::new_file_error> kept(writers);
  threads.reserve(writers);
  for (int i = 0; i < writers; ++i) {
    threads.emplace_back([&, i] {
      const std::string content(100000, static_cast<char>('a' + i));
      auto written = iteragpu::write_new_file(file, content);
      if (written) {
        ++won;
      } else if (written.error().code == iteragpu::new_file_errc::already_exists) {
        ++refused_before_work;
      } else {
        kept[static_cast<std::size_t>(i)] = std::move(written).error();
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  BOOST_TEST(won.load() == 1);
  const auto content = read_file(file);
  BOOST_REQUIRE_EQUAL(content.size(), 100000U);
  BOOST_TEST(content.find_first_not_of(content.front()) == std::string::npos);
  // Every writer that lost at the last step kept its whole result beside the name.
  std::size_t kept_files = 0;
  for (int i = 0; i < writers; ++i) {
    const auto* kept_as = kept[static_cast<std::size_t>(i)].what.get_if<iteragpu::kept_file>();
    if (kept_as == nullptr) {
      continue;
    }
    ++kept_files;
    BOOST_TEST((kept[static_cast<std::size_t>(i)].code == iteragpu::new_file_errc::name_taken));
    BOOST_TEST(read_file(kept_as->path) == std::string(100000, static_cast<char>('a' + i)));
  }
  BOOST_TEST(kept_files + 1U + static_cast<std::size_t>(refused_before_work.load()) ==
             static_cast<std::size_t>(writers));
  BOOST_TEST(dir.entries() == 1U + kept_files);
}

BOOST_AUTO_TEST_CASE(a_name_taken_while_working_keeps_the_result_under_a_new_name) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  auto reserved = iteragpu::new_file::reserve(file);
  BOOST_REQUIRE(reserved.has_value());
  {
    std::ofstream(file) << "another process's";
  }
  const auto written = std::move(*reserved).commit("the finished result");
  BOOST_REQUIRE(!written.has_value());
  const auto& problem = written.error();
  BOOST_TEST((problem.code == iteragpu::new_file_errc::name_taken));
  BOOST_TEST(read_file(file) == "another process's");
  const auto* kept_as = problem.what.get_if<iteragpu::kept_file>();
  BOOST_TEST_REQUIRE(kept_as != nullptr);
  BOOST_TEST(kept_as->path.parent_path() == dir.path);
  BOOST_TEST(kept_as->path.filename().string().starts_with("result.kept-"));
  BOOST_TEST(kept_as->path.extension() == ".json");
  BOOST_TEST(read_file(kept_as->path) == "the finished result");
  const std::string words = iteragpu::describe(problem);
  BOOST_TEST(words.find("is kept as '" + kept_as->path.string() + "'") != std::string::npos, words);
  BOOST_TEST(dir.entries() == 2U);
}

BOOST_AUTO_TEST_CASE(steps_by_name_and_a_system_error_with_its_step) {
  BOOST_TEST(iteragpu::name_of(iteragpu::new_file_step::flushing) == "flushing to disk");
  BOOST_TEST(iteragpu::name_of(iteragpu::new_file_step::linking_into_place) == "linking into place");
  // ENOSPC is strerror's "No space left on device".
  BOOST_TEST(iteragpu::describe(
                 iteragpu::new_file_error{.code = iteragpu::new_file_errc::system_error,
                                          .file = "r.json",
                                          .what = iteragpu::refused_step{iteragpu::new_file_step::flushing, ENOSPC}}) ==
             "cannot write 'r.json': flushing to disk: No space left on device");
}

BOOST_AUTO_TEST_SUITE_END()
