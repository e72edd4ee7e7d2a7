// Everything that can fail about an output file is settled before any
// work: a name the file system cannot hold, a folder that cannot be
// written, a missing folder. A failure after the work (a full disk) says so,
// exits 1, and leaves nothing at the final name and no temporary file.
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cli/gpu_commands.hpp>
#include <iteragpu/io.hpp>

#include "run_command.hpp"

namespace fs = std::filesystem;

namespace {

// A runtime that can measure: a fixed environment with one available
// device, and a measurement whose rows are made up (the CLI's handling of
// the file is what is under test), counting its calls.
struct counting_runtime {
  int measured = 0;

  iteragpu::memory::environment_report environment(iteragpu::memory::device_index d) const {
    iteragpu::memory::environment_report r;
    r.compiler = "test";
    r.cxx_standard = __cplusplus;
    r.device.requested = d;
    r.device.available = true;
    r.device.name = "fake GPU";
    return r;
  }
  iteragpu::result<iteragpu::memory::measurement, iteragpu::memory::measure_error> measure_synthetic(
      const iteragpu::memory::synthetic_run& run) {
    ++measured;
    iteragpu::memory::measurement m;
    for (const auto phase : {iteragpu::memory::phase_kind::model_load, iteragpu::memory::phase_kind::inputs,
                             iteragpu::memory::phase_kind::cold_forward, iteragpu::memory::phase_kind::warmup}) {
      iteragpu::memory::phase_row row;
      row.phase = phase;
      m.phases.push_back(row);
    }
    for (std::uint64_t r = 0; r < run.plan.repeats; ++r) {
      iteragpu::memory::phase_row row;
      row.phase = iteragpu::memory::phase_kind::warm_forward;
      row.repeat = r;
      m.phases.push_back(row);
    }
    return m;
  }
};
static_assert(iteragpu::memory::synthetic_runtime<counting_runtime>);

struct folder {
  fs::path path;
  explicit folder(const std::string& name)
      : path(fs::temp_directory_path() / ("iteragpu-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  folder(const folder&) = delete;
  folder& operator=(const folder&) = delete;
  ~folder() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, ec);
    fs::remove_all(path, ec);
  }
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path)) {
      names.push_back(e.path().filename().string());
    }
    return names;
  }
};

command_outcome measure_with(counting_runtime& runtime, const std::string& output) {
  const std::vector<std::string> args{"--device", "cuda:0", "--repeats", "2", "--output", output};
  std::ostringstream out;
  std::ostringstream err;
  command_outcome r;
  r.exit_code = iteragpu::cli::run_measure(runtime, args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// The file system's longest name in this folder.
std::size_t longest_name(const fs::path& p) { return static_cast<std::size_t>(::pathconf(p.c_str(), _PC_NAME_MAX)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(output_settled_first)

BOOST_AUTO_TEST_CASE(a_name_of_250_bytes_is_written) {
  const folder dir("long-name");
  const std::string name = std::string(245, 'm') + ".json";
  BOOST_REQUIRE_EQUAL(name.size(), 250U);
  counting_runtime runtime;
  const auto r = measure_with(runtime, (dir.path / name).string());
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(runtime.measured == 1);
  BOOST_TEST(dir.entries() == std::vector<std::string>{name});
  const auto json = boost::json::parse(iteragpu::read_whole_file(dir.path / name).value());
  BOOST_TEST(json.at("configuration").at("output").as_string() == name);
  BOOST_TEST(json.at("phases").as_array().size() == 6U);
}

BOOST_AUTO_TEST_CASE(a_name_longer_than_the_file_system_takes_is_refused_before_measuring) {
  const folder dir("too-long");
  const std::size_t longest = longest_name(dir.path);
  BOOST_REQUIRE(longest > 0U && longest < 4096U);
  const std::string name(longest + 1, 'n');
  counting_runtime runtime;
  const auto r = measure_with(runtime, (dir.path / name).string());
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(runtime.measured == 0);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(is_one_line(r.err), r.err);
  BOOST_TEST(r.err.find("--output: the file name of") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("expected at most " + std::to_string(longest)) != std::string::npos, r.err);
  BOOST_TEST(dir.entries().empty());
}

// Root writes into a folder whatever its mode, so the unwritable folders
// here are the mode-0555 one when not root, and /proc, where no one can
// create a file.
BOOST_AUTO_TEST_CASE(an_unwritable_folder_is_refused_before_measuring) {
  const folder dir("read-only");
  fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
  std::vector<std::string> unwritable{"/proc/iteragpu-result.json"};
  if (::geteuid() != 0) {
    unwritable.push_back((dir.path / "m.json").string());
  }
  for (const auto& output : unwritable) {
    counting_runtime runtime;
    const auto r = measure_with(runtime, output);
    BOOST_TEST(r.exit_code == 2, output);
    BOOST_TEST(runtime.measured == 0, output);
    BOOST_TEST(is_one_line(r.err), r.err);
    BOOST_TEST(
        r.err.find("--output: cannot write '" + output + "': creating a file in its folder") != std::string::npos,
        r.err);
    BOOST_TEST(!fs::exists(output));
  }
  BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(a_missing_folder_is_refused_before_measuring) {
  const folder dir("missing");
  counting_runtime runtime;
  const auto r = measure_with(runtime, (dir.path / "no" / "m.json").string());
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(runtime.measured == 0);
  BOOST_TEST(r.err.find("does not exist") != std::string::npos, r.err);
}

// A disk that fills up during the write: the file-size limit of this
// process makes write() fail with EFBIG after a few bytes, as ENOSPC would.
class file_size_limit {
 public:
  explicit file_size_limit(rlim_t bytes) : previous_(std::signal(SIGXFSZ, SIG_IGN)) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    const rlimit limited{bytes, saved_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limited);
  }
  file_size_limit(const file_size_limit&) = delete;
  file_size_limit& operator=(const file_size_limit&) = delete;
  ~file_size_limit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_);
  }

 private:
  void (*previous_)(int);
  rlimit saved_{};
};

BOOST_AUTO_TEST_CASE(a_write_that_fails_after_measuring_exits_1_and_leaves_nothing) {
  const folder dir("full-disk");
  counting_runtime runtime;
  command_outcome r;
  {
    const file_size_limit limit(64);
    r = measure_with(runtime, (dir.path / "m.json").string());
  }
  BOOST_TEST(runtime.measured == 1);
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(is_one_line(r.err), r.err);
  BOOST_TEST(r.err.find(": writing: File too large; nothing was written") != std::string::npos, r.err);
  BOOST_TEST(dir.entries().empty());  // no result, no temporary
}

BOOST_AUTO_TEST_CASE(a_reserved_file_left_uncommitted_leaves_nothing) {
  const folder dir("discarded");
  {
    auto reserved = iteragpu::new_file::reserve(dir.path / "r.json");
    BOOST_REQUIRE(reserved.has_value());
    BOOST_TEST(dir.entries().size() == 1U);  // the temporary, under a short name of its own
    BOOST_TEST(dir.entries().front().starts_with(".iteragpu-"));
  }
  BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_SUITE_END()
