#ifndef ITERAGPU_CLI_REAL_ALLOCATOR_HPP
#define ITERAGPU_CLI_REAL_ALLOCATOR_HPP

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iteragpu/memory/trace.hpp"
#include "iteragpu/result.hpp"

/// \file
/// PyTorch's own caching allocator making a trace's requests, for
/// `mesure_memoire replay --on-gpu`: the requests as the oracle makes them
/// (tests/oracle/oracle.py), made in a process of their own per setting and
/// capacity, whose PYTORCH_CUDA_ALLOC_CONF is set before LibTorch is loaded.
/// This side needs no LibTorch: the LibTorch module of mesure_memoire
/// (mesure_memoire_torch.cpp) makes the calls, in a build whose LibTorch has
/// CUDA; elsewhere the module says why it cannot.
namespace iteragpu::cli {

/// One request, as the module reads it.
struct real_allocator_request {
  enum kind_type : std::uint32_t { alloc = 0, free = 1, empty_cache = 2 };
  std::uint32_t kind{alloc};  ///< alloc, free or empty_cache
  std::uint32_t stream{0};    ///< alloc: the trace's streams numbered in order of appearance (0 the first)
  std::uint64_t size{0};      ///< alloc: the bytes asked for
  std::uint64_t block{0};     ///< alloc: the block's number; free: the number of the block freed
  std::uint64_t event{0};     ///< alloc: its index in the trace's events
  /// Equal when every member is equal.
  friend bool operator==(const real_allocator_request&, const real_allocator_request&) = default;
};

/// What the module found, as it writes it back.
struct real_allocator_figures {
  enum status_type : std::int32_t { done = 0, unavailable = 1, failed = 2 };
  std::int32_t status{failed};       ///< done, unavailable (no CUDA LibTorch, no GPU) or failed
  std::uint32_t refused{0};          ///< 1 when a request was refused: the run stopped there
  std::uint64_t peak_allocated{0};   ///< max_memory_allocated
  std::uint64_t peak_reserved{0};    ///< max_memory_reserved
  std::uint64_t alloc_retries{0};    ///< num_alloc_retries
  std::uint64_t ooms{0};             ///< num_ooms
  std::uint64_t refused_request{0};  ///< the index of the refused request among the requests
  std::uint64_t refused_event{0};    ///< its index in the trace's events
  std::uint64_t refused_size{0};     ///< the bytes it asked for
  std::uint64_t capacity{0};         ///< the allowance set_per_process_memory_fraction gave (0: none asked)
  std::uint64_t total_memory{0};     ///< the card's totalGlobalMem
  std::array<char, 512> message{};   ///< unavailable, failed: why; done: the device's name and LibTorch's version
};

/// The module's entry point: makes `count` requests and fills `figures`.
using real_allocator_entry = void(const real_allocator_request* requests, std::size_t count, std::uint64_t capacity,
                                  real_allocator_figures* figures);

/// Its name in the module.
inline constexpr const char* real_allocator_symbol = "iteragpu_real_allocator_replay";

/// The requests of a trace, as the oracle makes them: each `alloc` with its
/// size on its stream, each `free_completed` of a block an earlier `alloc`
/// made, and an emptyCache before a request wherever the trace released
/// segments since the previous one (and at the end).
[[nodiscard]] inline std::vector<real_allocator_request> real_allocator_requests_of(
    std::span<const memory::trace_event> events) {
  std::vector<real_allocator_request> requests;
  std::map<std::uint64_t, std::uint64_t> live;     // address -> block
  std::map<std::uint64_t, std::uint32_t> streams;  // the trace's stream -> its number
  std::uint64_t next = 0;
  bool released = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    using memory::trace_action;
    if (e.action == trace_action::segment_free || e.action == trace_action::segment_unmap) {
      released = true;
      continue;
    }
    if (e.action != trace_action::alloc && e.action != trace_action::free_completed) {
      continue;
    }
    if (released) {
      requests.push_back({.kind = real_allocator_request::empty_cache});
      released = false;
    }
    if (e.action == trace_action::alloc) {
      const auto stream = streams.emplace(e.stream, static_cast<std::uint32_t>(streams.size())).first->second;
      live[e.address] = next;
      requests.push_back(
          {.kind = real_allocator_request::alloc, .stream = stream, .size = e.size, .block = next, .event = i});
      ++next;
    } else if (const auto found = live.find(e.address); found != live.end()) {
      requests.push_back({.kind = real_allocator_request::free, .block = found->second});
      live.erase(found);
    }
  }
  if (released) {
    requests.push_back({.kind = real_allocator_request::empty_cache});
  }
  return requests;
}

/// How `replay --on-gpu` reaches LibTorch: the module's possible places,
/// none in a build without LibTorch, and what the build says of its runtime.
struct real_allocator_access {
  std::vector<std::filesystem::path> modules;  ///< where the LibTorch module may be, first found is used
  std::string build_runtime;                   ///< the build's GPU runtime, as --version says it
};

namespace detail::real_allocator {

// In the child: what the module made of the requests.
inline real_allocator_figures run_in_child(std::span<const real_allocator_request> requests,
                                           const std::string& alloc_conf, std::uint64_t capacity,
                                           const real_allocator_access& access) {
  real_allocator_figures figures{};
  const auto say = [&figures](std::int32_t status, std::string_view text) {
    figures.status = status;
    const std::size_t n = text.size() < figures.message.size() - 1 ? text.size() : figures.message.size() - 1;
    text.copy(figures.message.data(), n);
    figures.message.at(n) = '\0';
    return figures;
  };
  // Before LibTorch is loaded: its allocator reads these when it starts.
  // This process is the fork of one thread: nothing else reads the environment.
  ::unsetenv("PYTORCH_ALLOC_CONF");  // NOLINT(concurrency-mt-unsafe)
  if (alloc_conf.empty()) {
    ::unsetenv("PYTORCH_CUDA_ALLOC_CONF");  // NOLINT(concurrency-mt-unsafe)
  } else {
    ::setenv("PYTORCH_CUDA_ALLOC_CONF", alloc_conf.c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
  }
  std::error_code error;
  for (const auto& candidate : access.modules) {
    if (!std::filesystem::exists(candidate, error)) {
      continue;
    }
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();  // NOLINT(concurrency-mt-unsafe)
      return say(real_allocator_figures::unavailable,
                 std::string("LibTorch could not be loaded (") + (why != nullptr ? why : "dlopen failed") + ")");
    }
    auto* entry = reinterpret_cast<real_allocator_entry*>(::dlsym(handle, real_allocator_symbol));  // NOLINT
    if (entry == nullptr) {
      return say(real_allocator_figures::unavailable, "the LibTorch module has no real allocator entry");
    }
    entry(requests.data(), requests.size(), capacity, &figures);
    return figures;
  }
  return say(real_allocator_figures::unavailable,
             "this build has no LibTorch with CUDA (its GPU runtime: " + access.build_runtime + ")");
}

}  // namespace detail::real_allocator

/// Makes `requests` to PyTorch's caching allocator in a new process (a
/// fork of this one, which never loads LibTorch) under `alloc_conf`, with
/// set_per_process_memory_fraction giving `capacity` bytes when it is not
/// zero; the child's own output is discarded, its figures come back
/// through a pipe. A failure of the fork or the pipe is a failed status.
[[nodiscard]] inline real_allocator_figures run_real_allocator(std::span<const real_allocator_request> requests,
                                                               const std::string& alloc_conf, std::uint64_t capacity,
                                                               const real_allocator_access& access) {
  real_allocator_figures figures{};
  std::array<int, 2> ends{};
  if (::pipe(ends.data()) != 0) {
    return figures;
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return figures;
  }
  if (child == 0) {
    ::close(ends[0]);
    // LibTorch's warnings (a missing driver, say) would not be one line.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
    if (const int quiet = ::open("/dev/null", O_WRONLY); quiet >= 0) {
      ::dup2(quiet, STDOUT_FILENO);
      ::dup2(quiet, STDERR_FILENO);
    }
    const auto found = detail::real_allocator::run_in_child(requests, alloc_conf, capacity, access);
    const auto* bytes = reinterpret_cast<const char*>(&found);  // NOLINT
    std::size_t written = 0;
    while (written < sizeof found) {
      const auto n = ::write(ends[1], bytes + written, sizeof found - written);  // NOLINT
      if (n <= 0 && errno != EINTR) {
        break;
      }
      written += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    ::_exit(0);
  }
  ::close(ends[1]);
  auto* bytes = reinterpret_cast<char*>(&figures);  // NOLINT
  std::size_t read = 0;
  while (read < sizeof figures) {
    const auto n = ::read(ends[0], bytes + read, sizeof figures - read);  // NOLINT
    if (n == 0 || (n < 0 && errno != EINTR)) {
      break;
    }
    read += n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  ::close(ends[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (read != sizeof figures) {
    figures = real_allocator_figures{};
    const std::string_view why = "the process making the requests ended without its figures (a crash of LibTorch?)";
    why.copy(figures.message.data(), why.size());
  }
  return figures;
}

/// The module's message as text.
[[nodiscard]] inline std::string message_of(const real_allocator_figures& figures) {
  const auto& m = figures.message;
  std::size_t n = 0;
  while (n < m.size() && m.at(n) != '\0') {
    ++n;
  }
  return {m.data(), n};
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_REAL_ALLOCATOR_HPP
