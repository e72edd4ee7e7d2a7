#ifndef ITERAGPU_SWEEP_PROCESS_HPP
#define ITERAGPU_SWEEP_PROCESS_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/wait.h>

#include "iteragpu/result.hpp"
#include "iteragpu/sweep/stop.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The sweep's processes (POSIX, Linux): a fresh child per point, started
/// with posix_spawnp, its standard error (and, when asked, its output) kept in
/// an anonymous in-memory file so that nothing is left on disk and no pipe
/// can fill up. Waits end early on a stop request (stop.hpp); this header
/// installs no signal handler and holds no state. The children inherit the environment
/// (`environ`, which `<unistd.h>` declares under _GNU_SOURCE, as g++ and clang
/// define it for C++).
namespace iteragpu::sweep {

/// Sleeps 10 ms, the step of every wait of the sweep; a signal ends the
/// sleep early.
void pause_briefly() noexcept;

/// How a child process ended. Both are nothing when it could not be waited
/// for (waitpid() found no such child).
struct child_exit {
  std::optional<int> exit_code;  ///< its exit status, when it exited
  std::optional<int> signal;     ///< the signal that ended it, when one did
};

namespace detail {

[[nodiscard]] std::string read_back(int fd, std::size_t limit);

[[nodiscard]] child_exit decode(int status) noexcept;

}  // namespace detail

/// Why a child process could not be started (see spawn_error).
enum class spawn_errc {
  no_memory_file,  ///< memfd_create() failed for its output
  cannot_start     ///< posix_spawnp() failed
};

/// A child process that could not be started: why, the program, and the
/// error number of the call that failed. Words: report/sweep_errors.hpp.
struct spawn_error {
  spawn_errc code{spawn_errc::cannot_start};  ///< why
  std::string program;                        ///< the program asked for
  int error_number{0};                        ///< errno of the call that failed
  friend bool operator==(const spawn_error&, const spawn_error&) = default;
};

/// A child process started by the sweep. Destroyed while still running, it
/// is stopped first: no child outlives its owner. Movable, not copyable.
class child_process {
 public:
  /// Starts `program` with `args` (argv[1...]); a program named without a
  /// folder is looked for in PATH. stdin reads /dev/null; stdout goes to
  /// /dev/null or, with keep_output, to memory; stderr to memory. The child
  /// inherits the environment and starts with the default dispositions of
  /// SIGINT and SIGTERM. The error says why it could not be started.
  [[nodiscard]] static result<child_process, spawn_error> spawn(const std::string& program,
                                                                const std::vector<std::string>& args, bool keep_output);

  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  /// Takes the other's process and files; the other holds nothing after.
  child_process(child_process&& other) noexcept
      : pid_(std::exchange(other.pid_, -1)),
        errors_(std::exchange(other.errors_, -1)),
        output_(std::exchange(other.output_, -1)),
        started_(other.started_),
        ended_(other.ended_),
        exit_(other.exit_) {}
  child_process& operator=(child_process&&) = delete;
  /// Stops the process when it still runs (stop()), then closes its files in memory.
  ~child_process() {
    if (pid_ > 0 && !exit_) {
      static_cast<void>(stop());
    }
    for (const int fd : {errors_, output_}) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
  }

  /// Its process id; -1 once moved from.
  [[nodiscard]] pid_t pid() const noexcept { return pid_; }

  /// Its exit once it has ended (reaped here), nothing while it runs. Does not block.
  [[nodiscard]] std::optional<child_exit> poll();

  /// Waits for its end, polling every 10 ms; nothing when `stop` asks to
  /// stop first, the process left running.
  template <stop_request Stop>
  [[nodiscard]] std::optional<child_exit> wait_unless_stopped(const Stop& stop) {
    while (!poll()) {
      if (stop.stop_requested()) {
        return std::nullopt;
      }
      pause_briefly();
    }
    return exit_;
  }

  /// Stops it: SIGTERM, then SIGKILL after five seconds; reaps it and
  /// returns how it ended (at once when it already has).
  child_exit stop();

  /// Seconds from the spawn to the reaping (or to now, while it runs).
  [[nodiscard]] double seconds() const;

  /// The first line it wrote on stderr (within its first 4 KiB), without
  /// the line end; nothing when it wrote nothing or that line is empty.
  [[nodiscard]] std::optional<std::string> first_error_line() const;

  /// What it wrote on stdout, up to `limit` bytes; empty without keep_output.
  [[nodiscard]] std::string output(std::size_t limit) const { return detail::read_back(output_, limit); }

 private:
  child_process() = default;

  pid_t pid_{-1};
  int errors_{-1};
  int output_{-1};
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point ended_;
  std::optional<child_exit> exit_;
};

/// Removes the temporary files that a stopped process of the library left
/// in `folder`: a killed `measure` leaves `.iteragpu-<pid>-<n>.partial` (and,
/// killed at the wrong instant, its `-link` probe), which io.hpp's new_file
/// removes only when it runs to its end. Returns how many were removed; a
/// folder that cannot be read gives 0.
std::size_t remove_partial_files(const std::filesystem::path& folder, pid_t pid);

/// The path of the running program (/proc/self/exe), to start its own
/// `measure` and `environment` subcommands as fresh processes; nothing when
/// the link cannot be read.
[[nodiscard]] std::optional<std::string> running_program();

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/process.ipp"
#endif

#endif  // ITERAGPU_SWEEP_PROCESS_HPP
