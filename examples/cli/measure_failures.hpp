#ifndef ITERAGPU_CLI_MEASURE_FAILURES_HPP
#define ITERAGPU_CLI_MEASURE_FAILURES_HPP

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "cli/common.hpp"
#include "cli/output.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/report/measure_failure.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/text.hpp"

/// \file
/// How `mesure_memoire measure` ends when it does not finish: the exit code
/// and one line for each failure, and the allocator snapshot of
/// --memory-snapshot, started before the first phase and written after the
/// last, a failed one included.
namespace iteragpu::cli {

/// The exit code of a measurement of the synthetic network that did not
/// happen or did not finish: bad input (exit 2), or a failed phase (exit 3).
[[nodiscard]] constexpr int exit_code_of(memory::synthetic_errc kind) noexcept {
  switch (kind) {
    case memory::synthetic_errc::shape_too_large:
    case memory::synthetic_errc::device_unavailable:
    case memory::synthetic_errc::cannot_measure:
      return exit_usage;
    case memory::synthetic_errc::phase_failed:
      return exit_measurement;
  }
  return exit_internal_error;
}

/// Says on `err` why the synthetic network was not measured; its exit code.
[[nodiscard]] inline int report_failure(std::string_view command, const memory::synthetic_error& failure,
                                        std::ostream& err) {
  const std::string_view flag =
      failure.code == memory::synthetic_errc::shape_too_large ? "--batch/--context/--width: " : "";
  err << command << ": " << flag << report::describe(failure) << '\n';
  return exit_code_of(failure.code);
}

/// --memory-snapshot: reserves the file and starts recording the allocator's
/// history, before the first phase; refused where the runtime cannot record.
template <memory::environment_runtime Runtime>
[[nodiscard]] std::optional<new_file> start_memory_snapshot(Runtime& runtime, const std::optional<std::string>& path) {
  if (!path) {
    return std::nullopt;
  }
  if constexpr (memory::memory_history_recording<Runtime>) {
    new_file file = reserve_output("memory-snapshot", *path);
    if (auto started = runtime.start_memory_history(memory::memory_snapshot_entries); !started) {
      throw usage_error("--memory-snapshot: " + report::describe(started.error()));
    }
    return file;
  } else {
    static_cast<void>(runtime);
    throw usage_error(
        "--memory-snapshot: this build cannot record the allocator's history (it needs a LibTorch 2.1 or newer with "
        "a GPU runtime); leave the flag out");
  }
}

/// Writes the snapshot, if one was started: exit_success, or
/// exit_internal_error with one line when it could not be written.
template <memory::environment_runtime Runtime>
[[nodiscard]] int finish_memory_snapshot(Runtime& runtime, std::string_view command, std::optional<new_file> file,
                                         std::ostream& err) {
  if (!file) {
    return exit_success;
  }
  if constexpr (memory::memory_history_recording<Runtime>) {
    const auto pickled = runtime.memory_snapshot();
    if (!pickled) {
      err << command << ": --memory-snapshot: " << escaped(report::describe(pickled.error()))
          << "; no snapshot was written\n";
      return exit_internal_error;
    }
    return commit_output(command, std::move(*file), *pickled, err) == exit_success ? exit_success : exit_internal_error;
  } else {
    static_cast<void>(runtime);
    static_cast<void>(command);
    static_cast<void>(err);
    return exit_success;
  }
}

/// The exit code of a TorchScript measurement that did not happen or did
/// not finish: the module's refusals are bad input (exit 2), a failed phase exit 3.
[[nodiscard]] constexpr int exit_code_of(memory::torchscript_errc kind) noexcept {
  switch (kind) {
    case memory::torchscript_errc::device_unavailable:
    case memory::torchscript_errc::cannot_measure:
    case memory::torchscript_errc::refused:
      return exit_usage;
    case memory::torchscript_errc::phase_failed:
      return exit_measurement;
  }
  return exit_internal_error;
}

/// The flag that carried what the module of `run` refused, as a message
/// starts with it (`--input: `); nothing for a failure of the GPU.
[[nodiscard]] constexpr std::string_view flag_of(const memory::torchscript_error& failure,
                                                 const memory::torchscript_run& run) noexcept {
  if (failure.code != memory::torchscript_errc::refused && failure.code != memory::torchscript_errc::phase_failed) {
    return "";
  }
  switch (failure.error ? failure.error->code : memory::torchscript_run_errc::phase_failed) {
    case memory::torchscript_run_errc::not_loadable:
      return run.format == memory::model_format::torchscript ? "--torchscript: " : "--aoti: ";
    case memory::torchscript_run_errc::wrong_inputs:
    case memory::torchscript_run_errc::inputs_refused:
      return "--input: ";
    case memory::torchscript_run_errc::nothing_to_train:
      return "--train: ";
    case memory::torchscript_run_errc::phase_failed:
      break;
  }
  return "";
}

/// Says on `err` why the module of `run` was not measured; its exit code.
[[nodiscard]] inline int report_failure(std::string_view command, const memory::torchscript_run& run,
                                        const memory::torchscript_error& failure, std::ostream& err) {
  err << command << ": " << flag_of(failure, run) << report::describe(failure, run) << '\n';
  return exit_code_of(failure.code);
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_MEASURE_FAILURES_HPP
