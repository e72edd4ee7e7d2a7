#ifndef ITERAGPU_SWEEP_SCHEDULER_HPP
#define ITERAGPU_SWEEP_SCHEDULER_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The sweep itself, written once over three policy objects: a point runner
/// (a program's may start a fresh process that measures each point; the
/// prediction one runs nothing; a test's returns chosen outcomes), a sink
/// that keeps each record, and a progress observer. Points run in plan
/// order, at most one at a time on each device.
namespace iteragpu::sweep {

/// The device as a fresh process described it just before a point (for a
/// prediction, the capacity given).
struct device_reading {
  std::optional<std::string> gpu_name;       ///< the GPU's name; nothing when none is reported
  std::optional<std::uint64_t> free_bytes;   ///< nothing: no limit is known (a prediction without --memory-gib)
  std::optional<std::uint64_t> total_bytes;  ///< the device's memory; nothing when none is reported
};

/// A point's process that has ended.
struct finished_run {
  std::size_t index{0};                      ///< the index of its point
  process_figures process;                   ///< how it ended, its first line on stderr, its wall time
  std::optional<measured_figures> measured;  ///< exit 0: its result, read back
  std::string problem;                       ///< exit 0 with a result that could not be read: why
};

/// Why a point runner could not read a device or start a point. Words, on
/// purpose: they become the reason of the point's failed record, written as
/// they are (a runner's reasons are its own: a process that would not start,
/// an output that was not JSON...).
struct runner_error {
  std::string message;  ///< one line
  /// Equal when the words are.
  friend bool operator==(const runner_error&, const runner_error&) = default;
};

/// What the sweep asks of a point runner. start() launches a point on a
/// device and returns at once; wait_any() blocks until one launched point
/// ends, or returns nothing when the sweep was interrupted; stop_all() stops
/// what still runs and removes its partial files. host_available() is the
/// host's available memory now (nothing: no host rule), read_device() the
/// device's state now, interrupted() whether the sweep was asked to stop.
/// The errors of read_device() and start() are runner_error values.
template <class R>
concept point_runner = requires(R& r, const sweep_point& p, device_index d) {
  { r.host_available() } -> std::same_as<std::optional<std::uint64_t>>;
  { r.read_device(d) } -> std::same_as<result<device_reading, runner_error>>;
  { r.start(p, d) } -> std::same_as<result<void, runner_error>>;
  { r.wait_any() } -> std::same_as<std::optional<finished_run>>;
  { r.stop_all() } -> std::same_as<void>;
  { r.interrupted() } -> std::same_as<bool>;
};

/// What the sweep asks of a record sink: keep() stores a record and returns
/// a `result<void, E>`, the error type `E` its own; its error stops the
/// sweep and is returned by run_points().
template <class S>
concept record_sink = requires(S& s, const point_record& r) {
  typename decltype(s.keep(r))::error_type;
  { s.keep(r) } -> std::same_as<result<void, typename decltype(s.keep(r))::error_type>>;
};

/// The error type of a sink's keep().
template <record_sink S>
using sink_error_t = typename decltype(std::declval<S&>().keep(std::declval<const point_record&>()))::error_type;

/// The runner reported the end of a point that was not running (a runner
/// that breaks its contract): the index it gave.
struct unknown_point_error {
  std::size_t index{0};  ///< the point index the runner gave
  /// Equal when the indices are.
  friend constexpr bool operator==(unknown_point_error, unknown_point_error) = default;
};

/// Why run_points() stopped before its last point: the sink's error for a
/// record it could not keep, or a runner that reported a point that was
/// not running.
template <class SinkError>
using sweep_error = std::variant<SinkError, unknown_point_error>;

/// What the sweep asks of a progress observer: started() hears of each point
/// started on a device, finished() of each record before it is kept.
template <class P>
concept progress_observer = requires(P& p, const sweep_point& point, device_index d, const point_record& r) {
  p.started(point, d);
  p.finished(r);
};

/// What every point of a run shares: the kind of its records, the devices
/// it runs on, and the figures of the prediction and the device rule.
struct sweep_settings {
  record_kind kind{record_kind::measurement};          ///< measured or predicted records
  std::vector<device_index> devices{device_index{0}};  ///< one point at a time on each
  /// The GPU libraries' workspaces the prediction assumes: the card's
  /// (memory::prediction::h200_pytorch_2_11 for an H200 with PyTorch 2.11);
  /// none unless given, for the library assumes no card.
  memory::prediction::blas_workspaces workspaces{};
  /// The memory outside the allocator that the device rule adds to the
  /// predicted peak reserved: the card's
  /// (memory::prediction::h200_pytorch_2_11_outside_allocator); none unless given.
  byte_count outside_allocator{};
};

/// How a run of run_points() ended.
struct sweep_summary {
  std::size_t recorded{0};  ///< records kept by this run
  bool interrupted{false};  ///< stopped by a signal; the points not recorded stay to run
};

namespace detail {

enum class preparation { recorded, ready, abandoned };

// The record a finished process gives its point.
void complete(point_record& r, const finished_run& run);

}  // namespace detail

namespace detail {

// The state of one sweep: the points running on each device, the failures
// that cut larger points off, and what was kept.
template <point_runner R, record_sink S, progress_observer P>
class sweep_loop {
 public:
  sweep_loop(const sweep_settings& settings, std::vector<point_record> failures, R& runner, S& sink, P& progress)
      : settings_(settings),
        failures_(std::move(failures)),
        runner_(runner),
        sink_(sink),
        progress_(progress),
        running_(settings.devices.size()) {}

  using stop = sweep_error<sink_error_t<S>>;

  [[nodiscard]] result<sweep_summary, stop> run(const std::vector<sweep_point>& pending) {
    while (true) {
      for (std::size_t slot = 0; slot < running_.size(); ++slot) {
        if (auto filled = fill(slot, pending); !filled.has_value()) {
          return stopped_by(filled.error());
        }
      }
      if (runner_.interrupted()) {
        return interrupted();
      }
      if (busy_ == 0) {
        return summary_;
      }
      auto ended = runner_.wait_any();
      if (!ended) {
        return interrupted();
      }
      if (auto kept = finish(*ended); !kept.has_value()) {
        return stopped_by(kept.error());
      }
    }
  }

 private:
  [[nodiscard]] result<sweep_summary, stop> stopped_by(stop why) {
    runner_.stop_all();
    return unexpected{std::move(why)};
  }

  [[nodiscard]] sweep_summary interrupted() {
    runner_.stop_all();
    summary_.interrupted = true;
    return summary_;
  }

  [[nodiscard]] result<void, stop> keep(const point_record& r) {
    progress_.finished(r);
    if (stops_larger_points(r.outcome)) {
      failures_.push_back(r);
    }
    auto kept = sink_.keep(r);
    if (!kept.has_value()) {
      return unexpected{stop{std::in_place_index<0>, std::move(kept).error()}};
    }
    ++summary_.recorded;
    return {};
  }

  // Starts points on a free slot until one runs or none is left; the
  // points that cannot run are recorded on the way.
  [[nodiscard]] result<void, stop> fill(std::size_t slot, const std::vector<sweep_point>& pending) {
    while (!running_[slot] && next_ < pending.size() && !runner_.interrupted()) {
      const sweep_point& p = pending[next_];
      const device_index d = settings_.devices[slot];
      point_record r;
      const auto prepared = prepare(p, d, r);
      if (prepared == preparation::abandoned) {
        return {};
      }
      ++next_;
      if (prepared == preparation::ready) {
        auto started = runner_.start(p, d);
        if (started.has_value()) {
          progress_.started(p, d);
          running_[slot] = std::move(r);
          ++busy_;
          continue;
        }
        r.outcome = outcome_kind::failed;
        r.reason = "could not start: " + started.error().message;
      }
      if (auto kept = keep(r); !kept.has_value()) {
        return kept;
      }
    }
    return {};
  }

  [[nodiscard]] result<void, stop> finish(const finished_run& ended) {
    auto slot = std::find_if(running_.begin(), running_.end(),
                             [&](const std::optional<point_record>& s) { return s && s->point.index == ended.index; });
    if (slot == running_.end()) {
      return unexpected{stop{unknown_point_error{ended.index}}};
    }
    point_record r = std::move(**slot);
    slot->reset();
    --busy_;
    complete(r, ended);
    return keep(r);
  }

  // Fills `r` for point `p` on device `d`: recorded (skipped or failed),
  // ready to start, or abandoned (interrupted while the device was read).
  [[nodiscard]] preparation prepare(const sweep_point& p, device_index d, point_record& r) {
    r.kind = settings_.kind;
    r.point = p;
    r.outside_allocator_bytes = settings_.outside_allocator.value;
    r.workspaces = settings_.workspaces;
    if (settings_.kind == record_kind::measurement) {
      r.device = d;
    }
    auto predicted = predict_point(p, settings_.workspaces);
    if (!predicted.has_value()) {
      return recorded(r, outcome_kind::skipped_unpredictable, "skipped: " + reason_of(predicted.error()));
    }
    r.prediction = std::move(*predicted);
    if (auto cut = cut_off_reason(p, failures_)) {
      return recorded(r, outcome_kind::skipped_after_failure, std::move(*cut));
    }
    if (auto host = host_reason(r)) {
      return recorded(r, outcome_kind::skipped_host_memory, std::move(*host));
    }
    auto reading = runner_.read_device(d);
    if (!reading.has_value()) {
      if (runner_.interrupted()) {
        return preparation::abandoned;
      }
      return recorded(r, outcome_kind::failed, "the device could not be read: " + reading.error().message);
    }
    r.gpu_name = reading->gpu_name;
    r.device_free_bytes = reading->free_bytes;
    r.device_total_bytes = reading->total_bytes;
    if (reading->free_bytes) {
      if (auto reason = device_skip_reason(*r.prediction, settings_.outside_allocator, *reading->free_bytes)) {
        return recorded(r, outcome_kind::skipped_device_memory, std::move(*reason));
      }
    }
    return preparation::ready;
  }

  [[nodiscard]] static preparation recorded(point_record& r, outcome_kind outcome, std::string reason) {
    r.outcome = outcome;
    r.reason = std::move(reason);
    return preparation::recorded;
  }

  // The host rule: the host's available memory less what the points still
  // running are predicted to take on the host.
  [[nodiscard]] std::optional<std::string> host_reason(point_record& r) const {
    const auto host = runner_.host_available();
    if (!host) {
      return std::nullopt;
    }
    std::uint64_t taken = 0;
    for (const auto& other : running_) {
      if (other && other->prediction) {
        taken += other->prediction->host.total;
      }
    }
    r.host_available_bytes = *host > taken ? *host - taken : 0;
    return host_skip_reason(r.prediction->host, *r.host_available_bytes);
  }

  const sweep_settings& settings_;
  std::vector<point_record> failures_;
  R& runner_;
  S& sink_;
  P& progress_;
  std::vector<std::optional<point_record>> running_;  // by device slot
  std::size_t busy_{0};
  std::size_t next_{0};
  sweep_summary summary_;
};

}  // namespace detail

/// Runs `pending` (points of the plan, in plan order) and keeps one record
/// per point. Before each point, in this order: a shape past what can be
/// indexed is skipped; a point at least as large on every axis as one that
/// failed with exit 3 (`failures` holds earlier ones) is skipped; then its
/// prediction against the host's available memory less what the points
/// still running are predicted to take on the host, and against the
/// device's free memory, decides whether it can fit. A point whose device
/// cannot be read, or that cannot be started, is recorded as failed. An
/// interruption stops the running points (the runner removes their partial
/// files); what was recorded stays. The error is the sink's for a record
/// it could not keep (or a runner that reported a point that was not
/// running): the sweep stops there, its running points stopped.
template <point_runner R, record_sink S, progress_observer P>
[[nodiscard]] result<sweep_summary, sweep_error<sink_error_t<S>>> run_points(const std::vector<sweep_point>& pending,
                                                                             std::vector<point_record> failures,
                                                                             const sweep_settings& settings, R& runner,
                                                                             S& sink, P& progress) {
  detail::sweep_loop<R, S, P> loop(settings, std::move(failures), runner, sink, progress);
  return loop.run(pending);
}

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/scheduler.ipp"
#endif

#endif  // ITERAGPU_SWEEP_SCHEDULER_HPP
