// The sweep's child processes, for real (/bin/sh and sleep): exit codes,
// the first line of stderr, the output kept in memory, stopping, the
// partial files of a killed process (the interruption flag of the command
// line: tests/cli/unit/sweep_process_state_test.cpp).
#include <iteragpu/sweep/process.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/sweep_errors.hpp>

#include <iteragpu/sweep/prediction_runner.hpp>
#include <iteragpu/sweep/stop.hpp>

namespace sw = iteragpu::sweep;
namespace fs = std::filesystem;

namespace {

sw::child_process shell(const std::string& script, bool keep_output = false) {
  auto child = sw::child_process::spawn("/bin/sh", {"-c", script}, keep_output);
  BOOST_TEST_REQUIRE(child.has_value());
  return std::move(*child);
}

// Polls until the child ends (a bound of 10 s, so that a broken test
// fails instead of hanging).
sw::child_exit ended(sw::child_process& c) {
  for (int i = 0; i < 1000; ++i) {
    if (const auto e = c.poll()) {
      return *e;
    }
    sw::pause_briefly();
  }
  BOOST_FAIL("the child did not end within 10 s");
  return {};
}

fs::path scratch(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("iteragpu-sweep-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_process)

BOOST_AUTO_TEST_CASE(a_child_gives_its_exit_code_and_the_first_line_of_its_stderr) {
  auto c = shell("echo 'first line' >&2; echo 'second line' >&2; echo 'on stdout'; exit 4");
  const auto e = ended(c);
  BOOST_TEST(*e.exit_code == 4);
  BOOST_TEST(!e.signal.has_value());
  BOOST_TEST(*c.first_error_line() == "first line");
  BOOST_TEST(c.output(100).empty());  // stdout went to /dev/null
  BOOST_TEST(c.seconds() >= 0.0);
}

BOOST_AUTO_TEST_CASE(a_silent_child_has_no_error_line_and_its_output_can_be_kept) {
  auto c = shell("printf '{\"device\":1}'", true);
  BOOST_TEST(*ended(c).exit_code == 0);
  BOOST_TEST(!c.first_error_line().has_value());
  BOOST_TEST(c.output(1 << 20) == "{\"device\":1}");
  BOOST_TEST(c.output(3) == "{\"d");  // bounded
}

BOOST_AUTO_TEST_CASE(a_child_reads_nothing_from_the_terminal) {
  // stdin is /dev/null: `read` gets end of file at once and fails.
  auto c = shell("if read line; then exit 0; else exit 7; fi");
  BOOST_TEST(*ended(c).exit_code == 7);
}

BOOST_AUTO_TEST_CASE(a_program_that_does_not_exist_cannot_start) {
  const auto c = sw::child_process::spawn("/nonexistent/iteragpu-program", {"measure"}, false);
  BOOST_TEST_REQUIRE(!c.has_value());
  BOOST_TEST(iteragpu::report::words_of(c.error()) ==
             "cannot start '/nonexistent/iteragpu-program': No such file or directory");
}

BOOST_AUTO_TEST_CASE(a_program_named_without_a_folder_is_looked_for_in_path) {
  auto c = sw::child_process::spawn("sh", {"-c", "exit 5"}, false);
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(*ended(*c).exit_code == 5);
}

BOOST_AUTO_TEST_CASE(stopping_a_running_child_ends_it_with_sigterm) {
  auto c = sw::child_process::spawn("/bin/sleep", {"30"}, false);
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(!c->poll().has_value());
  const auto e = c->stop();
  BOOST_TEST(*e.signal == SIGTERM);
  BOOST_TEST(!e.exit_code.has_value());
  BOOST_TEST(c->poll().has_value());
}

BOOST_AUTO_TEST_CASE(a_child_left_running_is_stopped_and_reaped_when_its_owner_goes) {
  pid_t pid = 0;
  {
    auto c = sw::child_process::spawn("/bin/sleep", {"30"}, false);
    BOOST_TEST_REQUIRE(c.has_value());
    pid = c->pid();
  }
  // Reaped: no such process any more (not even a zombie).
  BOOST_TEST(::kill(pid, 0) == -1);
  BOOST_TEST(errno == ESRCH);
}

BOOST_AUTO_TEST_CASE(a_child_ends_on_sigint_even_where_the_sweep_ignores_it) {
  struct sigaction previous{};
  struct sigaction ignore{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGINT, &ignore, &previous);
  auto c = sw::child_process::spawn("/bin/sleep", {"30"}, false);
  sigaction(SIGINT, &previous, nullptr);
  BOOST_TEST_REQUIRE(c.has_value());
  ::kill(c->pid(), SIGINT);
  BOOST_TEST(*ended(*c).signal == SIGINT);
}

BOOST_AUTO_TEST_CASE(the_partial_files_of_a_killed_process_are_removed_and_nothing_else) {
  const auto dir = scratch("partials");
  for (const char* name :
       {".iteragpu-123-0.partial", ".iteragpu-123-1.partial", ".iteragpu-123-0.partial-link",
        ".iteragpu-1234-0.partial", ".iteragpu-12-0.partial", "point-0000.json", ".iteragpu-123-0.json"}) {
    std::ofstream(dir / name) << "x";
  }
  BOOST_TEST(sw::remove_partial_files(dir, 123) == 3U);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) {
    left.push_back(e.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  BOOST_TEST(left == (std::vector<std::string>{".iteragpu-12-0.partial", ".iteragpu-123-0.json",
                                               ".iteragpu-1234-0.partial", "point-0000.json"}),
             boost::test_tools::per_element());
  BOOST_TEST(sw::remove_partial_files(dir / "missing", 123) == 0U);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(the_running_program_is_this_test_executable) {
  const auto self = sw::running_program();
  BOOST_TEST_REQUIRE(self.has_value());
  BOOST_TEST(fs::path(*self).filename().string() == "iteragpu_unit_tests");
}

BOOST_AUTO_TEST_CASE(a_wait_ends_on_its_stop_request_and_the_library_installs_no_handler) {
  struct sigaction before{};
  sigaction(SIGINT, nullptr, &before);
  std::stop_source source;
  auto c = sw::child_process::spawn("/bin/sleep", {"30"}, false);
  BOOST_TEST_REQUIRE(c.has_value());
  source.request_stop();
  BOOST_TEST(!c->wait_unless_stopped(source.get_token()).has_value());
  // A sweep that never stops waits for the end.
  auto quick = sw::child_process::spawn("/bin/sh", {"-c", "exit 4"}, false);
  BOOST_TEST_REQUIRE(quick.has_value());
  const auto ended = quick->wait_unless_stopped(sw::never_stop{});
  BOOST_TEST_REQUIRE(ended.has_value());
  BOOST_TEST(*ended->exit_code == 4);
  struct sigaction after{};
  sigaction(SIGINT, nullptr, &after);
  BOOST_TEST((after.sa_handler == before.sa_handler));
}

BOOST_AUTO_TEST_CASE(the_prediction_runner_returns_no_point_once_its_stop_request_asks) {
  std::stop_source source;
  sw::prediction_runner<std::stop_token> runner(std::uint64_t{1000}, std::nullopt, source.get_token());
  const sw::sweep_point p{
      3, iteragpu::memory::synthetic_shape{1, 16, 64}, iteragpu::memory::element_type::float32, 1, {}};
  BOOST_TEST(runner.start(p, iteragpu::memory::device_index{0}).has_value());
  const auto first = runner.wait_any();
  BOOST_TEST_REQUIRE(first.has_value());
  BOOST_TEST(first->index == 3U);
  BOOST_TEST(*runner.read_device(iteragpu::memory::device_index{0})->free_bytes == 1000U);
  BOOST_TEST(runner.start(p, iteragpu::memory::device_index{0}).has_value());
  source.request_stop();
  BOOST_TEST(runner.interrupted());
  BOOST_TEST(!runner.wait_any().has_value());
}

BOOST_AUTO_TEST_SUITE_END()
