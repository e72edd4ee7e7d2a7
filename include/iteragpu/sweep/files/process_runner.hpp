#ifndef ITERAGPU_SWEEP_FILES_PROCESS_RUNNER_HPP
#define ITERAGPU_SWEEP_FILES_PROCESS_RUNNER_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>


#include "iteragpu/memory/device.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/stop.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The point runner of a measurement sweep: a policy object that runs each
/// point as a fresh process of a program with `environment` and `measure`
/// subcommands (mesure_memoire's), and reads their JSON back.
namespace iteragpu::sweep {

namespace detail {

/// The device that `environment --device D` printed in `output` (JSON, read
/// by files::device_from()), or why it cannot be read: no JSON, or no free
/// memory reported.
[[nodiscard]] result<device_reading, std::string> device_in_output(std::string_view output, device_index d);

}  // namespace detail

/// The point runner of a measurement sweep (a point_runner): each
/// point is a fresh process. `PROGRAM environment --device D` reads the
/// device just before, then `PROGRAM measure ... --output
/// FOLDER/point-N.measurement.json` measures it. PROGRAM is this program
/// (/proc/self/exe) unless --point-program names another with the same
/// two subcommands. Every wait ends early when `Stop` asks to stop.
template <stop_request Stop = never_stop>
class process_runner {
 public:
  /// `program`: the program to start; `folder`: the sweep's folder, where
  /// the results go; `plan_size`: the points of its plan, for the file
  /// names; `stop`: asked in every wait; `host_rule`: whether
  /// host_available() reads the host's memory.
  process_runner(std::string program, std::filesystem::path folder, std::size_t plan_size, Stop stop = Stop{},
                 bool host_rule = true)
      : program_(std::move(program)),
        folder_(std::move(folder)),
        plan_size_(plan_size),
        stop_(std::move(stop)),
        host_rule_(host_rule) {}

  /// The host's available memory now (read_mem_available()); nothing
  /// without the host rule, or when /proc/meminfo cannot be read.
  [[nodiscard]] std::optional<std::uint64_t> host_available() const {
    return host_rule_ ? read_mem_available() : std::nullopt;
  }

  /// Runs `PROGRAM environment --device D` and reads the device from its
  /// JSON output (files::device_from()). The error says why the device
  /// cannot be read: the process could not start, was interrupted, exited
  /// with a code other than 0, printed no JSON, or reports no free memory.
  [[nodiscard]] result<device_reading, std::string> read_device(device_index d) const {
    auto child = child_process::spawn(program_, {"environment", "--device", device_name(d)}, true);
    if (!child.has_value()) {
      return unexpected{report::words_of(child.error())};
    }
    const auto ended = child->wait_unless_stopped(stop_);
    if (!ended) {
      return unexpected{std::string("interrupted")};
    }
    if (ended->exit_code != 0) {
      const auto line = child->first_error_line();
      return unexpected{"`environment` " +
                        (ended->exit_code ? "exited " + std::to_string(*ended->exit_code)
                                          : end_without_exit_text(ended->signal)) +
                        (line ? ": " + escaped(*line) : std::string())};
    }
    return detail::device_in_output(child->output(std::size_t{1} << 20U), d);
  }

  /// Starts `PROGRAM measure --device D` with the point's flags and
  /// `--output FOLDER/point-N.measurement.json`, its output discarded, and
  /// returns at once; the error says why it could not be started.
  [[nodiscard]] result<void, std::string> start(const sweep_point& p, device_index d) {
    std::vector<std::string> args{"measure", "--device", device_name(d)};
    for (auto& word : measure_flags(p)) {
      args.push_back(std::move(word));
    }
    args.emplace_back("--output");
    args.push_back((folder_ / measurement_name(p.index, plan_size_)).string());
    auto child = child_process::spawn(program_, args, false);
    if (!child.has_value()) {
      return unexpected{report::words_of(child.error())};
    }
    running_.push_back(running{p.index, std::move(*child)});
    return {};
  }

  /// Waits, polling every 10 ms, until a started point's process ends, and
  /// returns it with its partial files removed and, after exit 0, its
  /// result read (or why it could not be). Nothing when no point runs or the
  /// sweep is interrupted; a process ended by SIGINT or SIGTERM is taken for
  /// the user's interruption when the sweep's own signal follows within half
  /// a second, and is not returned.
  [[nodiscard]] std::optional<finished_run> wait_any() {
    while (!running_.empty() && !stop_.stop_requested()) {
      for (auto it = running_.begin(); it != running_.end(); ++it) {
        const auto ended = it->child.poll();
        if (!ended) {
          continue;
        }
        if (stopped_by_the_user(*ended)) {
          return std::nullopt;
        }
        auto run = finished(*it, *ended);
        running_.erase(it);
        return run;
      }
      pause_briefly();
    }
    return std::nullopt;
  }

  /// Stops every started point's process (child_process::stop()) and
  /// removes its partial files.
  void stop_all() {
    for (auto& r : running_) {
      static_cast<void>(r.child.stop());
      static_cast<void>(remove_partial_files(folder_, r.child.pid()));
    }
    running_.clear();
  }

  /// Whether the sweep was asked to stop (the stop request says so).
  [[nodiscard]] bool interrupted() const { return stop_.stop_requested(); }

 private:
  struct running {
    std::size_t index{0};
    child_process child;
  };

  // A terminal's Ctrl-C reaches the point's process too, which may end
  // before the sweep has seen its own signal: such a point was stopped, not
  // failed, and stays to run again.
  [[nodiscard]] bool stopped_by_the_user(const child_exit& ended) const {
    const int signal = ended.signal.value_or(0);
    if (signal == SIGINT || signal == SIGTERM) {
      for (int i = 0; i < 50 && !stop_.stop_requested(); ++i) {
        pause_briefly();
      }
    }
    return stop_.stop_requested();
  }

  [[nodiscard]] finished_run finished(running& r, const child_exit& ended) const {
    finished_run run;
    run.index = r.index;
    run.process = {ended.exit_code, ended.signal, r.child.first_error_line(), r.child.seconds()};
    // A killed process may leave its temporary file behind.
    static_cast<void>(remove_partial_files(folder_, r.child.pid()));
    if (ended.exit_code == 0) {
      const auto file = folder_ / measurement_name(r.index, plan_size_);
      auto figures = files::read_measurement(file);
      if (figures.has_value()) {
        run.measured = std::move(*figures);
      } else {
        run.problem = "its result " + quoted(file.filename().string()) + " could not be read: " + report::words_of(figures.error());
      }
    }
    return run;
  }
  std::string program_;
  std::filesystem::path folder_;
  std::size_t plan_size_;
  [[no_unique_address]] Stop stop_;
  bool host_rule_;
  std::list<running> running_;
};

static_assert(point_runner<process_runner<>>);

}  // namespace iteragpu::sweep

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/sweep/files/impl/process_runner.ipp"
#endif

#endif  // ITERAGPU_SWEEP_FILES_PROCESS_RUNNER_HPP
