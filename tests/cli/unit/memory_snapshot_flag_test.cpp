// --memory-snapshot over a runtime that records the allocator's history:
// LibTorch's message reaches the person through memory_history_error and
// report::describe(), the words unchanged, and nothing is written.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <cli/gpu_commands.hpp>
#include <iteragpu/memory/gpu_runtime.hpp>
#include <iteragpu/report/measurement.hpp>

namespace {

namespace fs = std::filesystem;
using iteragpu::memory::memory_history_error;
using iteragpu::memory::memory_history_step;

// A runtime whose recording fails at the step it is told, with LibTorch's kind of message.
struct recording_runtime {
  std::optional<memory_history_step> failing;
  std::size_t asked_entries{0};

  [[nodiscard]] iteragpu::memory::environment_report environment(iteragpu::memory::device_index d) const {
    iteragpu::memory::unavailable_backend backend{"a test runtime"};
    return iteragpu::memory::probe_environment(backend, d, std::nullopt);
  }
  [[nodiscard]] iteragpu::result<void, memory_history_error> start_memory_history(std::size_t max_entries) {
    asked_entries = max_entries;
    if (failing == memory_history_step::start) {
      return iteragpu::unexpected{memory_history_error{memory_history_step::start, "CUDA error: invalid argument"}};
    }
    return {};
  }
  [[nodiscard]] iteragpu::result<std::string, memory_history_error> memory_snapshot() const {
    if (failing == memory_history_step::snapshot) {
      return iteragpu::unexpected{memory_history_error{memory_history_step::snapshot, "snapshot\tfailed"}};
    }
    return std::string("pickle");
  }
};

static_assert(iteragpu::memory::memory_history_recording<recording_runtime>);

struct scratch_folder {
  fs::path path{fs::temp_directory_path() / ("iteragpu-snapshot-flag-" + std::to_string(::getpid()))};
  scratch_folder() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  scratch_folder(scratch_folder&&) = delete;
  scratch_folder& operator=(scratch_folder&&) = delete;
  ~scratch_folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(memory_snapshot_flag)

BOOST_AUTO_TEST_CASE(a_history_that_does_not_start_is_bad_input_in_libtorch_s_words) {
  const scratch_folder folder;
  recording_runtime runtime{memory_history_step::start};
  const std::string file = (folder.path / "snapshot.pickle").string();
  BOOST_CHECK_EXCEPTION(static_cast<void>(iteragpu::cli::start_memory_snapshot(runtime, file)),
                        iteragpu::cli::usage_error, [](const iteragpu::cli::usage_error& e) {
                          return std::string(e.what()) == "--memory-snapshot: CUDA error: invalid argument";
                        });
  BOOST_TEST(runtime.asked_entries == iteragpu::memory::memory_snapshot_entries);
  BOOST_TEST(fs::is_empty(folder.path));  // nothing written
}

BOOST_AUTO_TEST_CASE(a_snapshot_that_cannot_be_read_is_one_line_and_no_file) {
  const scratch_folder folder;
  recording_runtime runtime{memory_history_step::snapshot};
  const std::string file = (folder.path / "snapshot.pickle").string();
  auto reserved = iteragpu::cli::start_memory_snapshot(runtime, file);
  BOOST_TEST_REQUIRE(reserved.has_value());
  std::ostringstream err;
  const int code = iteragpu::cli::finish_memory_snapshot(runtime, "measure", std::move(reserved), err);
  BOOST_TEST(code == iteragpu::cli::exit_internal_error);
  BOOST_TEST(err.str() == "measure: --memory-snapshot: snapshot\\x09failed; no snapshot was written\n");
  BOOST_TEST(!fs::exists(file));
}

BOOST_AUTO_TEST_CASE(a_recorded_history_is_written_to_the_file) {
  const scratch_folder folder;
  recording_runtime runtime{};
  const std::string file = (folder.path / "snapshot.pickle").string();
  std::ostringstream err;
  const int code = iteragpu::cli::finish_memory_snapshot(runtime, "measure",
                                                         iteragpu::cli::start_memory_snapshot(runtime, file), err);
  BOOST_TEST(code == iteragpu::cli::exit_success);
  BOOST_TEST(err.str().empty());
  BOOST_TEST(fs::file_size(file) == 6U);
}

BOOST_AUTO_TEST_SUITE_END()
