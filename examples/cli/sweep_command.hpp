#ifndef ITERAGPU_CLI_SWEEP_COMMAND_HPP
#define ITERAGPU_CLI_SWEEP_COMMAND_HPP

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/common.hpp"
#include "cli/documents.hpp"
#include "cli/gpu_commands.hpp"
#include "cli/sweep_flags.hpp"
#include "cli/sweep_process_runner.hpp"
#include "cli/sweep_process_state.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/sweep/files/report_files.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/prediction_runner.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire sweep`: a plan of points, each run as a fresh process of
/// `mesure_memoire measure` (or predicted only), one record file per point,
/// then summary.csv, plot.svg and index.html. The flags are in
/// sweep_flags.hpp, the interruption and the terminal in
/// sweep_process_state.hpp; the sweep
/// itself (plan, runners, records, folder, report) is iteragpu/sweep/.
/// Nothing here includes LibTorch: the orchestration never loads it, only
/// the `measure` and `environment` processes it starts do.
namespace iteragpu::cli {

namespace detail {

// Runs `pending` with the runner the options ask for and reports on `err`.
// Returns the exit code of an interrupted or failed run, nothing when it
// ran to its end.
template <class Runner>
[[nodiscard]] std::optional<int> run_pending(const sweep_options& o, const sweep::sweep_folder& folder,
                                             const std::vector<sweep::sweep_point>& pending, Runner& runner,
                                             std::optional<std::size_t> terminal, std::ostream& err,
                                             std::string_view command) {
  std::vector<sweep::point_record> failures;
  for (const auto& r : folder.records) {
    if (r && sweep::stops_larger_points(r->outcome)) {
      failures.push_back(*r);
    }
  }
  sweep::sweep_settings settings;
  settings.kind = o.predict_only ? sweep::record_kind::prediction : sweep::record_kind::measurement;
  settings.devices = o.predict_only ? std::vector<device_index>{device_index{0}} : o.devices;
  settings.workspaces = o.workspaces;
  settings.outside_allocator = o.outside;
  sweep::folder_sink sink(folder.path, folder.points.size());
  sweep::progress_display progress(err, terminal.has_value(), pending.size(), terminal.value_or(80), o.predict_only);
  const auto ran = sweep::run_points(pending, std::move(failures), settings, runner, sink, progress);
  progress.close();
  if (!ran.has_value()) {
    err << command << ": a record could not be written: " << report::words_of(ran.error()) << "; the sweep stopped\n";
    return exit_internal_error;
  }
  if (ran->interrupted) {
    const int code = interrupted_exit_code();
    err << command << ": interrupted by signal " << (code - 128) << "; the running points were stopped and their "
        << "partial files removed; records kept by this run: " << ran->recorded << ", in "
        << quoted(folder.path.string()) << "; run the rest with --resume " << quoted(folder.path.string()) << '\n';
    return code;
  }
  return std::nullopt;
}

inline constexpr std::string_view sweep_command = "mesure_memoire sweep";

// Asks a fresh `environment` about each device: one that cannot be measured
// is bad input, as every point would fail. Returns the exit code of an
// interruption.
[[nodiscard]] inline std::optional<int> check_devices(const sweep_options& o, const process_runner<signal_stop>& runner,
                                                      std::string_view nothing_done) {
  for (const device_index d : o.devices) {
    if (auto reading = runner.read_device(d); !reading.has_value()) {
      if (interrupt_requested()) {
        return interrupted_exit_code();
      }
      throw usage_error((o.devices_listed ? "--devices: " : "--device: ") + reading.error().message + "; " +
                        std::string(nothing_done));
    }
  }
  return std::nullopt;
}

[[nodiscard]] inline std::string program_of(const sweep_options& o) {
  return o.program.value_or(sweep::running_program().value_or(""));
}

// --plan-only or a new sweep: checks the new folder (and the devices), then
// makes it and writes points.tsv. Returns an exit code when that is all.
[[nodiscard]] inline std::optional<int> plan_new_folder(const sweep_options& o, std::ostream& out, std::ostream& err) {
  auto plan = sweep::make_plan(o.axes);
  if (!plan.has_value()) {
    throw usage_error("--batch/--context/--width/--dtype: " + report::words_of(plan.error()));
  }
  if (auto fresh = sweep::check_new_folder(o.folder); !fresh.has_value()) {
    throw usage_error("--output-dir: " + report::words_of(fresh.error(), "; --resume continues a sweep"));
  }
  if (o.what == sweep_options::mode::full && !o.predict_only) {
    const process_runner<signal_stop> probe(program_of(o), folder_of(o.folder), plan->size());
    const interrupt_guard guard;
    if (auto stopped = check_devices(o, probe, "nothing was run (--predict-only plans without a GPU)")) {
      return stopped;
    }
  }
  if (auto made = sweep::create_new_folder(o.folder); !made.has_value()) {
    throw usage_error("--output-dir: " + report::words_of(made.error()));
  }
  if (auto written = write_new_file(o.folder / sweep::points_file, sweep::points_tsv(*plan)); !written.has_value()) {
    err << sweep_command << ": " << describe(written.error()) << "\n";
    return exit_internal_error;
  }
  out << "planned " << plan->size() << (plan->size() == 1 ? " point in " : " points in ")
      << escaped((o.folder / sweep::points_file).string()) << '\n';
  return o.what == sweep_options::mode::plan_only ? std::optional<int>(exit_success) : std::nullopt;
}

// The sweep's folder read back, and the points it still has to run.
struct sweep_work {
  sweep::sweep_folder folder;
  std::vector<sweep::sweep_point> pending;
};

// Reads the folder, refuses what cannot be run, adopts measurements left
// without their record. An exit code when there is nothing to run.
[[nodiscard]] inline result<sweep_work, int> work_of(const sweep_options& o, std::ostream& out, std::ostream& err) {
  auto loaded = sweep::load_folder(o.folder);
  if (!loaded.has_value()) {
    throw usage_error(std::string(o.what == sweep_options::mode::resume ? "--resume: " : "--output-dir: ") +
                      report::words_of(loaded.error()));
  }
  sweep_work work{std::move(*loaded), {}};
  const auto wanted = o.predict_only ? sweep::record_kind::prediction : sweep::record_kind::measurement;
  if (auto other = sweep::other_record_kind(work.folder, wanted)) {
    throw usage_error(quoted(o.folder.string()) + ": its records are " + std::string(sweep::name_of(*other)) +
                      "s; resume it " + (o.predict_only ? "with --device" : "with --predict-only") +
                      " (a sweep is one or the other)");
  }
  const std::size_t size = work.folder.points.size();
  if (o.point && *o.point >= size) {
    throw usage_error("--run-point: " + to_decimal_string(*o.point) + " is past the plan's last point " +
                      to_decimal_string(size - 1) + "; expected 0 to " + to_decimal_string(size - 1));
  }
  if (o.point && work.folder.records[*o.point]) {
    out << "point " << *o.point << " already has its result (" << sweep::name_of(work.folder.records[*o.point]->outcome)
        << "); left alone\n";
    return unexpected{exit_success};
  }
  if (!o.predict_only) {
    if (auto adopted = sweep::adopt_orphans(work.folder, o.workspaces, o.outside); !adopted.has_value()) {
      err << sweep_command << ": " << report::words_of(adopted.error(), program_documents) << '\n';
      return unexpected{exit_internal_error};
    }
  }
  for (const auto& p : work.folder.points) {
    if (!work.folder.records[p.index] && (!o.point || *o.point == p.index)) {
      work.pending.push_back(p);
    }
  }
  return work;
}

// Runs the pending points; an exit code when the run did not end.
[[nodiscard]] inline std::optional<int> run_work(const sweep_options& o, const sweep_work& work,
                                                 std::optional<std::size_t> terminal, std::ostream& err) {
  if (work.pending.empty()) {
    return std::nullopt;
  }
  const interrupt_guard guard;
  if (o.predict_only) {
    sweep::prediction_runner<signal_stop> runner(o.memory_bytes, o.host_memory_bytes);
    return run_pending(o, work.folder, work.pending, runner, terminal, err, sweep_command);
  }
  process_runner<signal_stop> runner(program_of(o), work.folder.path, work.folder.points.size());
  if (o.what != sweep_options::mode::full) {
    if (auto stopped = check_devices(o, runner, "nothing was run")) {
      return stopped;
    }
  }
  return run_pending(o, work.folder, work.pending, runner, terminal, err, sweep_command);
}

// The counts of the outcomes, and the report once every point has a result.
[[nodiscard]] inline int finish(const sweep_options& o, const std::filesystem::path& folder, std::ostream& out,
                                std::ostream& err) {
  auto reloaded = sweep::load_folder(folder);
  if (!reloaded.has_value()) {
    err << sweep_command << ": " << report::words_of(reloaded.error()) << '\n';
    return exit_internal_error;
  }
  if (o.point) {
    const auto& r = reloaded->records[*o.point];
    out << "point " << *o.point << ": " << (r ? sweep::outcome_text(*r) : std::string("no result")) << '\n';
    return exit_success;
  }
  std::map<std::string_view, std::size_t> counts;
  std::size_t missing = 0;
  for (const auto& r : reloaded->records) {
    ++(r ? counts[sweep::name_of(r->outcome)] : missing);
  }
  out << "points:";
  for (const auto& [name, n] : counts) {
    out << ' ' << name << ' ' << n << ',';
  }
  out << " without a result " << missing << '\n';
  if (missing > 0) {
    return exit_success;
  }
  if (sweep::file_exists(folder / "summary.csv")) {
    out << "every point has its result; the report is already in " << escaped(folder.string()) << '\n';
    return exit_success;
  }
  auto written = sweep::write_report({*reloaded}, folder, "mesure_memoire");
  if (!written.has_value()) {
    err << sweep_command << ": " << describe(written.error()) << '\n';
    return exit_internal_error;
  }
  for (const auto& path : *written) {
    out << "wrote " << escaped(path.string()) << '\n';
  }
  return exit_success;
}

}  // namespace detail

/// The sweep command with the progress display chosen by the caller:
/// `terminal` is the terminal's width when stderr is one (the bar), nothing
/// for one line per point. A new sweep or --plan-only plans a new folder;
/// then the points without a result run (with --run-point, that point
/// alone, whose outcome is printed), and once every point has a result the
/// report is written in the folder (unless summary.csv is already there).
/// Exit 0 when the sweep ran to its end, 2 for bad input, 1 for a file that
/// could not be written, 128 + the signal's number when interrupted.
[[nodiscard]] inline int run_sweep_with(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                        std::optional<std::size_t> terminal) {
  // Once the folder is settled, the files a run writes there are complete
  // whatever becomes of standard output: the message of a failed one names it.
  std::string kept;
  return guarded(detail::sweep_command, out, err, kept, [&]() -> int {
    const auto description = sweep_description();
    if (help_requested(args)) {
      out << sweep_usage << description << '\n';
      return exit_success;
    }
    const sweep_options o = parse_sweep_options(parse_arguments(description, args));
    const std::string folder_files =
        "the files of the sweep folder " + quoted(o.folder.string()) +
        " (points.tsv, the point records and, once every point has one, summary.csv, plot.svg and index.html)";
    if (o.what == sweep_options::mode::plan_only || o.what == sweep_options::mode::full) {
      if (auto done = detail::plan_new_folder(o, out, err)) {
        if (*done == exit_success) {
          kept = folder_files;
        }
        return *done;
      }
    }
    auto work = detail::work_of(o, out, err);
    if (!work.has_value()) {
      return work.error();
    }
    kept = folder_files;
    if (auto stopped = detail::run_work(o, *work, terminal, err)) {
      return *stopped;
    }
    return detail::finish(o, work->folder.path, out, err);
  });
}

/// The sweep command as the program runs it: the bar when stderr is a
/// terminal (run_sweep_with() with stderr_terminal_columns()).
[[nodiscard]] inline int run_sweep(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return run_sweep_with(args, out, err, stderr_terminal_columns());
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SWEEP_COMMAND_HPP
