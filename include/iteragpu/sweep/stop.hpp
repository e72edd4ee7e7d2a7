#ifndef ITERAGPU_SWEEP_STOP_HPP
#define ITERAGPU_SWEEP_STOP_HPP

#include <concepts>

/// \file
/// How the sweep hears that it should stop: a stop request is any object
/// that answers `stop_requested()` (std::stop_token does). The sweep's long
/// loops (waiting for a point's process, starting the next point) ask it;
/// the library never installs a signal handler: a program that wants Ctrl-C
/// to stop a sweep sets its own flag from its own handler and passes an
/// object that reads it.
namespace iteragpu::sweep {

/// What the sweep asks of a stop request: whether it should stop now. It is
/// asked often (every 10 ms while a process runs), so it must be cheap.
template <class S>
concept stop_request = requires(const S& s) {
  { s.stop_requested() } -> std::convertible_to<bool>;
};

/// The stop request of a sweep that runs to its end: never asks to stop.
struct never_stop {
  /// Always false.
  [[nodiscard]] static constexpr bool stop_requested() noexcept { return false; }
};

static_assert(stop_request<never_stop>);

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_STOP_HPP
