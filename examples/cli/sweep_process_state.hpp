#ifndef ITERAGPU_CLI_SWEEP_PROCESS_STATE_HPP
#define ITERAGPU_CLI_SWEEP_PROCESS_STATE_HPP

#include <csignal>
#include <cstddef>
#include <optional>

#include <sys/ioctl.h>
#include <unistd.h>

/// \file
/// What `mesure_memoire sweep` reads from the process it runs in: its
/// interruption by SIGINT or SIGTERM (the program's own handler only sets a
/// flag, and the sweep library hears of it through signal_stop, a stop
/// request of iteragpu/sweep/stop.hpp that reads the flag), and the width
/// of the terminal for the progress bar. The process-wide state lives
/// here, in the program, not in the library.
namespace iteragpu::cli {

/// The signal that asked the sweep to stop, 0 while none did. A plain
/// sig_atomic_t: the one thing a signal handler may write.
inline volatile std::sig_atomic_t interrupt_signal = 0;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

/// The handler interrupt_guard installs for SIGINT and SIGTERM (C linkage):
/// stores `signal` in interrupt_signal and does nothing else.
extern "C" inline void iteragpu_sweep_on_signal(int signal) { interrupt_signal = signal; }

/// While alive, SIGINT and SIGTERM set interrupt_signal instead of ending the
/// process; the previous handlers come back when it goes. The handlers are
/// installed without SA_RESTART, so that a blocking wait returns at once.
/// Neither copied nor moved.
class interrupt_guard {
 public:
  /// Sets interrupt_signal to 0, then installs the handler for SIGINT and
  /// SIGTERM, keeping the handlers it replaces.
  interrupt_guard() noexcept {
    interrupt_signal = 0;
    struct sigaction action{};
    action.sa_handler = &iteragpu_sweep_on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
  }
  interrupt_guard(const interrupt_guard&) = delete;
  interrupt_guard& operator=(const interrupt_guard&) = delete;
  interrupt_guard(interrupt_guard&&) = delete;
  interrupt_guard& operator=(interrupt_guard&&) = delete;
  /// Puts the previous handlers of SIGINT and SIGTERM back; interrupt_signal
  /// keeps its value.
  ~interrupt_guard() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
  }

 private:
  struct sigaction previous_int_{};
  struct sigaction previous_term_{};
};

/// Whether SIGINT or SIGTERM arrived while an interrupt_guard was alive
/// (interrupt_signal is not 0).
[[nodiscard]] inline bool interrupt_requested() noexcept { return interrupt_signal != 0; }

/// The exit code of an interrupted sweep, by the shell's convention for a
/// process ended by a signal: 128 + its number (130 for SIGINT, 143 for
/// SIGTERM).
[[nodiscard]] inline int interrupted_exit_code() noexcept { return 128 + static_cast<int>(interrupt_signal); }

/// The sweep's stop request in this program: asks to stop once SIGINT or
/// SIGTERM arrived under an interrupt_guard.
struct signal_stop {
  /// interrupt_requested().
  [[nodiscard]] static bool stop_requested() noexcept { return interrupt_requested(); }
};

/// The terminal's width in columns when stderr is one (80 when its width
/// cannot be read), nothing otherwise.
[[nodiscard]] inline std::optional<std::size_t> stderr_terminal_columns() {
  if (::isatty(STDERR_FILENO) == 0) {
    return std::nullopt;
  }
  winsize size{};
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return std::size_t{size.ws_col};
  }
  return std::size_t{80};
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SWEEP_PROCESS_STATE_HPP
