#ifndef ITERAGPU_SWEEP_PROCESS_HPP
#define ITERAGPU_SWEEP_PROCESS_HPP

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

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
inline void pause_briefly() noexcept {
  const timespec step{0, 10'000'000};  // 10 ms
  nanosleep(&step, nullptr);
}

/// How a child process ended. Both are nothing when it could not be waited
/// for (waitpid() found no such child).
struct child_exit {
  std::optional<int> exit_code;  ///< its exit status, when it exited
  std::optional<int> signal;     ///< the signal that ended it, when one did
};

namespace detail {

[[nodiscard]] inline std::string read_back(int fd, std::size_t limit) {
  std::string text;
  if (fd < 0 || ::lseek(fd, 0, SEEK_SET) != 0) {
    return text;
  }
  text.resize(limit);
  std::size_t got = 0;
  while (got < limit) {
    const auto n = ::read(fd, &text[got], limit - got);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

[[nodiscard]] inline child_exit decode(int status) noexcept {
  if (WIFEXITED(status)) {  // NOLINT(hicpp-signed-bitwise)
    return {WEXITSTATUS(status), std::nullopt};  // NOLINT(hicpp-signed-bitwise)
  }
  return {std::nullopt, WTERMSIG(status)};  // NOLINT(hicpp-signed-bitwise)
}

}  // namespace detail

/// Why a child process could not be started (see spawn_error).
enum class spawn_error_kind {
  no_memory_file,  ///< memfd_create() failed for its output
  cannot_start     ///< posix_spawnp() failed
};

/// A child process that could not be started: why, the program, and the
/// error number of the call that failed. Words: report/sweep_errors.hpp.
struct spawn_error {
  spawn_error_kind kind{spawn_error_kind::cannot_start};  ///< why
  std::string program;                                    ///< the program asked for
  int error_number{0};                                    ///< errno of the call that failed
  /// Equal when every member is equal.
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
                                                                const std::vector<std::string>& args,
                                                                bool keep_output) {
    child_process c;
    c.errors_ = ::memfd_create("iteragpu-stderr", MFD_CLOEXEC);
    c.output_ = keep_output ? ::memfd_create("iteragpu-stdout", MFD_CLOEXEC) : -1;
    if (c.errors_ < 0 || (keep_output && c.output_ < 0)) {
      return unexpected{spawn_error{spawn_error_kind::no_memory_file, program, errno}};
    }
    std::vector<std::string> words;
    words.reserve(args.size() + 1);
    words.push_back(program);
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& w : words) {
      argv.push_back(w.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (keep_output) {
      posix_spawn_file_actions_adddup2(&actions, c.output_, 1);
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&actions, c.errors_, 2);
    // The child starts with the default dispositions of SIGINT and SIGTERM,
    // whatever handlers the sweep has installed (exec resets handlers, but
    // not ignored signals).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    c.started_ = std::chrono::steady_clock::now();
    pid_t spawned = -1;
    // posix_spawnp: a program named without a folder is looked for in PATH.
    const int failed = ::posix_spawnp(&spawned, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed != 0) {
      return unexpected{spawn_error{spawn_error_kind::cannot_start, program, failed}};
    }
    c.pid_ = spawned;
    return c;
  }

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
  [[nodiscard]] std::optional<child_exit> poll() {
    if (!exit_) {
      int status = 0;
      const pid_t got = ::waitpid(pid_, &status, WNOHANG);
      if (got == pid_) {
        ended_ = std::chrono::steady_clock::now();
        exit_ = detail::decode(status);
      } else if (got < 0 && errno == ECHILD) {
        ended_ = std::chrono::steady_clock::now();
        exit_ = child_exit{};
      }
    }
    return exit_;
  }

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
  child_exit stop() {
    if (poll()) {
      return *exit_;
    }
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!poll() && std::chrono::steady_clock::now() < deadline) {
      pause_briefly();
    }
    if (!exit_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      ended_ = std::chrono::steady_clock::now();
      exit_ = detail::decode(status);
    }
    return *exit_;
  }

  /// Seconds from the spawn to the reaping (or to now, while it runs).
  [[nodiscard]] double seconds() const {
    const auto end = exit_ ? ended_ : std::chrono::steady_clock::now();
    return std::chrono::duration<double>(end - started_).count();
  }

  /// The first line it wrote on stderr (within its first 4 KiB), without
  /// the line end; nothing when it wrote nothing or that line is empty.
  [[nodiscard]] std::optional<std::string> first_error_line() const {
    std::string text = detail::read_back(errors_, 4096);
    text.resize(std::min(text.find('\n'), text.size()));
    if (text.empty()) {
      return std::nullopt;
    }
    return text;
  }

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
inline std::size_t remove_partial_files(const std::filesystem::path& folder, pid_t pid) {
  const std::string prefix = ".iteragpu-" + to_decimal_string(static_cast<std::uint64_t>(pid)) + "-";
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(folder, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(prefix) && (name.ends_with(".partial") || name.ends_with(".partial-link"))) {
      found.push_back(it->path());
    }
  }
  std::size_t removed = 0;
  for (const auto& path : found) {
    if (std::filesystem::remove(path, ec)) {
      ++removed;
    }
  }
  return removed;
}

/// The path of the running program (/proc/self/exe), to start its own
/// `measure` and `environment` subcommands as fresh processes; nothing when
/// the link cannot be read.
[[nodiscard]] inline std::optional<std::string> running_program() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return std::nullopt;
  }
  return path.string();
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_PROCESS_HPP
