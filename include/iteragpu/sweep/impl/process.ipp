#ifndef ITERAGPU_SWEEP_IMPL_PROCESS_IPP
#define ITERAGPU_SWEEP_IMPL_PROCESS_IPP

#include <cerrno>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/process.hpp"

// The bodies of the functions that <iteragpu/sweep/process.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

ITERAGPU_INLINE void pause_briefly() noexcept {
  const timespec step{0, 10'000'000};  // 10 ms
  nanosleep(&step, nullptr);
}

}  // namespace iteragpu::sweep

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE std::string read_back(int fd, std::size_t limit) {
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

[[nodiscard]] ITERAGPU_INLINE child_exit decode(int status) noexcept {
  if (WIFEXITED(status)) {                       // NOLINT(hicpp-signed-bitwise)
    return {WEXITSTATUS(status), std::nullopt};  // NOLINT(hicpp-signed-bitwise)
  }
  return {std::nullopt, WTERMSIG(status)};  // NOLINT(hicpp-signed-bitwise)
}

}  // namespace iteragpu::sweep::detail

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE result<child_process, spawn_error> child_process::spawn(
    const std::string& program, const std::vector<std::string>& args, bool keep_output) {
  child_process c;
  c.errors_ = ::memfd_create("iteragpu-stderr", MFD_CLOEXEC);
  c.output_ = keep_output ? ::memfd_create("iteragpu-stdout", MFD_CLOEXEC) : -1;
  if (c.errors_ < 0 || (keep_output && c.output_ < 0)) {
    return unexpected{spawn_error{spawn_errc::no_memory_file, program, errno}};
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
    return unexpected{spawn_error{spawn_errc::cannot_start, program, failed}};
  }
  c.pid_ = spawned;
  return c;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<child_exit> child_process::poll() {
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

ITERAGPU_INLINE child_exit child_process::stop() {
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

[[nodiscard]] ITERAGPU_INLINE double child_process::seconds() const {
  const auto end = exit_ ? ended_ : std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - started_).count();
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> child_process::first_error_line() const {
  std::string text = first_line(detail::read_back(errors_, 4096));
  if (text.empty()) {
    return std::nullopt;
  }
  return text;
}

ITERAGPU_INLINE std::size_t remove_partial_files(const std::filesystem::path& folder, pid_t pid) {
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

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> running_program() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return std::nullopt;
  }
  return path.string();
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_PROCESS_IPP
