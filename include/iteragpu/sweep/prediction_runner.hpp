#ifndef ITERAGPU_SWEEP_PREDICTION_RUNNER_HPP
#define ITERAGPU_SWEEP_PREDICTION_RUNNER_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/stop.hpp"

/// \file
/// The point runner of a predict-only sweep: runs nothing, so that every
/// point's record holds the prediction alone and the rules skip what the
/// capacity given cannot hold.
namespace iteragpu::sweep {

/// The point runner of a predict-only sweep (a point_runner): nothing runs;
/// the device is the capacity given (none: no device limit), the host the
/// host memory given (none: no host rule).
/// wait_any() returns nothing once `Stop` asks to stop.
template <stop_request Stop = never_stop>
class prediction_runner {
 public:
  /// `capacity` and `host` in bytes; nothing: no device limit, no host
  /// rule. `stop`: asked before each point is returned.
  prediction_runner(std::optional<std::uint64_t> capacity, std::optional<std::uint64_t> host, Stop stop = Stop{})
      : capacity_(capacity), host_(host), stop_(std::move(stop)) {}

  /// The host memory given; nothing: no host rule.
  [[nodiscard]] std::optional<std::uint64_t> host_available() const { return host_; }
  /// The capacity given as the device's free and total memory, with no GPU name.
  [[nodiscard]] result<device_reading, runner_error> read_device(device_index /*device*/) const {
    return device_reading{std::nullopt, capacity_, capacity_};
  }
  /// Notes the point; nothing runs, and nothing fails.
  [[nodiscard]] result<void, runner_error> start(const sweep_point& p, device_index /*device*/) {
    started_.push_back(p.index);
    return {};
  }
  /// The first point noted and not yet returned, with no figures; nothing
  /// when none is left or the sweep was asked to stop.
  [[nodiscard]] std::optional<finished_run> wait_any() {
    if (started_.empty() || stop_.stop_requested()) {
      return std::nullopt;
    }
    finished_run run;
    run.index = started_.front();
    started_.erase(started_.begin());
    return run;
  }
  /// Forgets the points noted.
  void stop_all() { started_.clear(); }
  /// Whether the sweep was asked to stop (the stop request says so).
  [[nodiscard]] bool interrupted() const { return stop_.stop_requested(); }

 private:
  std::optional<std::uint64_t> capacity_;
  std::optional<std::uint64_t> host_;
  [[no_unique_address]] Stop stop_;
  std::vector<std::size_t> started_;
};

static_assert(point_runner<prediction_runner<>>);

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_PREDICTION_RUNNER_HPP
