#ifndef ITERAGPU_CLI_SWEEP_PROCESS_RUNNER_HPP
#define ITERAGPU_CLI_SWEEP_PROCESS_RUNNER_HPP

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "cli/documents.hpp"
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
#include "iteragpu/units.hpp"

/// \file
/// The point runner of `mesure_memoire sweep`: a policy object that runs
/// each point as a fresh process of a program with `environment` and
/// `measure` subcommands (mesure_memoire's), and reads their JSON back. The
/// library's scheduler (iteragpu/sweep/scheduler.hpp) takes it as it takes
/// any point_runner.
namespace iteragpu::cli {

namespace detail {

/// The device that `environment --device D` printed in `output` (JSON, read
/// by sweep::files::device_from()), or why it cannot be read: no JSON, or no
/// free memory reported.
[[nodiscard]] inline result<sweep::device_reading, sweep::runner_error> device_in_output(std::string_view output,
                                                                                         memory::device_index d) {
  boost::system::error_code ec;
  const auto doc = boost::json::parse(output, ec);
  if (ec) {
    return unexpected{sweep::runner_error{"`environment` printed no JSON: " + ec.message()}};
  }
  auto reading = sweep::files::device_from(doc);
  if (!reading.has_value()) {
    return unexpected{
        sweep::runner_error{device_name(d) + " cannot be measured: " + report::words_of(reading.error())}};
  }
  return *reading;
}

}  // namespace detail

/// The words a point gives `measure` after `--device`: `--batch`,
/// `--context`, `--width`, `--dtype`, `--warmup` and `--repeats` with their
/// values.
[[nodiscard]] inline std::vector<std::string> measure_flags(const sweep::sweep_point& p) {
  return {"--batch",  to_decimal_string(p.shape.batch), "--context", to_decimal_string(p.shape.context),
          "--width",  to_decimal_string(p.shape.width), "--dtype",   std::string(name_of(p.dtype)),
          "--warmup", to_decimal_string(p.warmup),      "--repeats", p.repeats.text()};
}

/// The point runner of a measurement sweep (a point_runner): each
/// point is a fresh process. `PROGRAM environment --device D` reads the
/// device just before, then `PROGRAM measure ... --output
/// FOLDER/point-N.measurement.json` measures it. PROGRAM is this program
/// (/proc/self/exe) unless --point-program names another with the same
/// two subcommands. Every wait ends early when `Stop` asks to stop.
template <sweep::stop_request Stop = sweep::never_stop>
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

  /// The host's available memory now (sweep::read_mem_available()); nothing
  /// without the host rule, or when /proc/meminfo cannot be read.
  [[nodiscard]] std::optional<std::uint64_t> host_available() const {
    return host_rule_ ? sweep::read_mem_available() : std::nullopt;
  }

  /// Runs `PROGRAM environment --device D` and reads the device from its
  /// JSON output (sweep::files::device_from()). The error says why the device
  /// cannot be read: the process could not start, was interrupted, exited
  /// with a code other than 0, printed no JSON, or reports no free memory.
  [[nodiscard]] result<sweep::device_reading, sweep::runner_error> read_device(memory::device_index d) const {
    auto child = sweep::child_process::spawn(program_, {"environment", "--device", device_name(d)}, true);
    if (!child.has_value()) {
      return unexpected{sweep::runner_error{report::words_of(child.error())}};
    }
    const auto ended = child->wait_unless_stopped(stop_);
    if (!ended) {
      return unexpected{sweep::runner_error{"interrupted"}};
    }
    if (ended->exit_code != 0) {
      const auto line = child->first_error_line();
      return unexpected{sweep::runner_error{"`environment` " +
                                            (ended->exit_code ? "exited " + std::to_string(*ended->exit_code)
                                                              : sweep::end_without_exit_text(ended->signal)) +
                                            (line ? ": " + escaped(*line) : std::string())}};
    }
    return detail::device_in_output(child->output(std::size_t{mebibyte}), d);
  }

  /// Starts `PROGRAM measure --device D` with the point's flags and
  /// `--output FOLDER/point-N.measurement.json`, its output discarded, and
  /// returns at once; the error says why it could not be started.
  [[nodiscard]] result<void, sweep::runner_error> start(const sweep::sweep_point& p, memory::device_index d) {
    std::vector<std::string> args{"measure", "--device", device_name(d)};
    for (auto& word : measure_flags(p)) {
      args.push_back(std::move(word));
    }
    args.emplace_back("--output");
    args.push_back((folder_ / sweep::measurement_name(p.index, plan_size_)).string());
    auto child = sweep::child_process::spawn(program_, args, false);
    if (!child.has_value()) {
      return unexpected{sweep::runner_error{report::words_of(child.error())}};
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
  [[nodiscard]] std::optional<sweep::finished_run> wait_any() {
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
      sweep::pause_briefly();
    }
    return std::nullopt;
  }

  /// Stops every started point's process (sweep::child_process::stop()) and
  /// removes its partial files.
  void stop_all() {
    for (auto& r : running_) {
      static_cast<void>(r.child.stop());
      static_cast<void>(sweep::remove_partial_files(folder_, r.child.pid()));
    }
    running_.clear();
  }

  /// Whether the sweep was asked to stop (the stop request says so).
  [[nodiscard]] bool interrupted() const { return stop_.stop_requested(); }

 private:
  struct running {
    std::size_t index{0};
    sweep::child_process child;
  };

  // A terminal's Ctrl-C reaches the point's process too, which may end
  // before the sweep has seen its own signal: such a point was stopped, not
  // failed, and stays to run again.
  [[nodiscard]] bool stopped_by_the_user(const sweep::child_exit& ended) const {
    const int signal = ended.signal.value_or(0);
    if (signal == SIGINT || signal == SIGTERM) {
      for (int i = 0; i < 50 && !stop_.stop_requested(); ++i) {
        sweep::pause_briefly();
      }
    }
    return stop_.stop_requested();
  }

  [[nodiscard]] sweep::finished_run finished(running& r, const sweep::child_exit& ended) const {
    sweep::finished_run run;
    run.index = r.index;
    run.process = {ended.exit_code, ended.signal, r.child.first_error_line(), r.child.seconds()};
    // A killed process may leave its temporary file behind.
    static_cast<void>(sweep::remove_partial_files(folder_, r.child.pid()));
    if (ended.exit_code == 0) {
      const auto file = folder_ / sweep::measurement_name(r.index, plan_size_);
      auto figures = sweep::files::read_measurement(file);
      if (figures.has_value()) {
        run.measured = std::move(*figures);
      } else {
        run.problem = "its result " + quoted(file.filename().string()) +
                      " could not be read: " + report::words_of(figures.error(), program_documents);
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

static_assert(sweep::point_runner<process_runner<>>);

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SWEEP_PROCESS_RUNNER_HPP
