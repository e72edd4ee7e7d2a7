#ifndef ITERAGPU_CLI_EXTRAPOLATE_RECORDING_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_RECORDING_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "cli/outcome.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/sweep/new_folder.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/stop.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire extrapolate --torchscript FILE --input SPEC... --sizes
/// N1,N2,... --traces FOLDER`: the snapshots recorded here rather than read.
/// Each size is a fresh process of `measure --torchscript ...
/// --memory-snapshot FOLDER/size-N.pickle --output
/// FOLDER/size-N.measurement.json`, B in each --input standing for the size;
/// the snapshots are then extrapolated as files given on the command line are.
namespace iteragpu::cli {

/// What `extrapolate --torchscript` records with.
struct extrapolate_recording {
  std::string model;                        ///< --torchscript
  std::vector<std::string> inputs;          ///< --input, B standing for the size
  bool train{false};                        ///< --train
  std::optional<std::string> input_high{};  ///< --input-high, passed on
  std::string folder;                       ///< --traces: a new folder
  std::optional<std::string> program{};     ///< --record-program; nothing: this program
};

/// The letter that stands for the size in an --input of `extrapolate --torchscript`.
inline constexpr std::string_view size_letter = "B";

/// `spec` with every dimension written B replaced by `n` (the dimensions
/// are the words between 'x' before the ':'); the rest as given.
[[nodiscard]] inline std::string input_at_size(std::string_view spec, std::uint64_t n) {
  const std::size_t colon = spec.find(':');
  const std::string_view shape = spec.substr(0, colon);
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t cross = shape.find('x', start);
    const std::string_view dim =
        shape.substr(start, cross == std::string_view::npos ? std::string_view::npos : cross - start);
    out += dim == size_letter ? to_decimal_string(n) : std::string(dim);
    if (cross == std::string_view::npos) {
      break;
    }
    out += 'x';
    start = cross + 1;
  }
  if (colon != std::string_view::npos) {
    out += spec.substr(colon);
  }
  return out;
}

/// Checks the --input of `extrapolate --torchscript`: each parses as
/// `measure` reads it once B is a number, and one at least holds B; a
/// usage_error names the first that does not.
inline void check_size_inputs(const std::vector<std::string>& inputs) {
  if (inputs.empty()) {
    throw usage_error("--torchscript needs --input, once per input of forward, B standing for the size; expected " +
                      std::string(report::accepted_input_spec) + " with B for one dimension, e.g. Bx128:int64");
  }
  bool sized = false;
  for (const auto& text : inputs) {
    const std::string at_one = input_at_size(text, 1);
    if (const auto spec = memory::parse_input_spec(at_one); !spec) {
      throw usage_error("--input: " + quoted(text) + " " + report::describe(spec.error()) + "; expected " +
                        std::string(report::accepted_input_spec) + ", B standing for the size");
    }
    sized = sized || at_one != text;
  }
  if (!sized) {
    throw usage_error("--input: no input has a dimension B; expected B where the size goes, e.g. Bx128:int64");
  }
}

/// The snapshot and measurement files of size `n` in `folder`.
[[nodiscard]] inline std::filesystem::path recorded_snapshot(const std::string& folder, std::uint64_t n) {
  return std::filesystem::path(folder) / ("size-" + to_decimal_string(n) + ".pickle");
}
[[nodiscard]] inline std::filesystem::path recorded_measurement(const std::string& folder, std::uint64_t n) {
  return std::filesystem::path(folder) / ("size-" + to_decimal_string(n) + ".measurement.json");
}

/// The words after the program of the `measure` that records size `n` on device `device`.
[[nodiscard]] inline std::vector<std::string> recording_args(const extrapolate_recording& r, std::size_t device,
                                                             std::uint64_t n) {
  std::vector<std::string> args{"measure", "--device", "cuda:" + to_decimal_string(device), "--torchscript", r.model};
  for (const auto& input : r.inputs) {
    args.emplace_back("--input");
    args.push_back(input_at_size(input, n));
  }
  if (r.train) {
    args.emplace_back("--train");
  }
  if (r.input_high) {
    args.emplace_back("--input-high");
    args.push_back(*r.input_high);
  }
  args.emplace_back("--memory-snapshot");
  args.push_back(recorded_snapshot(r.folder, n).string());
  args.emplace_back("--output");
  args.push_back(recorded_measurement(r.folder, n).string());
  return args;
}

/// Why recording stopped: the exit code to return and the message.
struct recording_error {
  int code{exit_internal_error};  ///< the exit code of the command
  std::string message;            ///< one line, without the command's name
};

/// Records one snapshot per size of `sizes` into the new folder of `r`, one
/// process after the other, and returns their paths in the order of
/// `sizes`; progress goes to `err`. A process that does not exit 0 ends
/// the recording: its exit code becomes the command's (2 for bad input or
/// no GPU, 3 for a failure while measuring) and its first line of errors is
/// quoted; the folder is removed when nothing was recorded in it. With
/// `up_to_failure` (the default sizes), a size whose `measure` fails while
/// measuring (3: it runs out of memory on this card) ends the recording
/// there instead, with the sizes before it when there are two or more.
/// A --record-program that is not an executable file is refused first (2).
[[nodiscard]] inline result<std::vector<std::string>, recording_error> record_sizes(
    const extrapolate_recording& r, std::size_t device, const std::vector<std::uint64_t>& sizes, bool up_to_failure,
    std::string_view command, std::ostream& err) {
  if (r.program && ::access(r.program->c_str(), X_OK) != 0) {
    return unexpected{recording_error{exit_usage, "--record-program: " + quoted(*r.program) +
                                                      " is not an executable file; expected a program with a "
                                                      "`measure` subcommand"}};
  }
  if (auto made = sweep::create_new_folder(r.folder); !made) {
    return unexpected{recording_error{exit_usage, "--traces: " + report::words_of(made.error())}};
  }
  const std::string program = r.program.value_or(sweep::running_program().value_or(""));
  std::vector<std::string> files;
  for (const auto n : sizes) {
    auto child = sweep::child_process::spawn(program, recording_args(r, device, n), false);
    std::optional<recording_error> failure;
    if (!child) {
      failure =
          recording_error{exit_internal_error, "size " + to_decimal_string(n) + ": " + report::words_of(child.error())};
    } else if (const auto ended = child->wait_unless_stopped(sweep::never_stop{}); ended && ended->exit_code != 0) {
      const auto line = child->first_error_line();
      const std::string how = ended->exit_code ? "exited " + std::to_string(*ended->exit_code)
                                               : sweep::end_without_exit_text(ended->signal);
      failure = recording_error{
          ended->exit_code.value_or(exit_internal_error),
          "size " + to_decimal_string(n) + ": `measure` " + how + (line ? ": " + escaped(*line) : std::string())};
    }
    if (failure && up_to_failure && failure->code == exit_measurement && files.size() >= 2) {
      err << command << ": " << failure->message << "; the sizes recorded before it are used\n";
      std::error_code ignored;
      std::filesystem::remove(recorded_snapshot(r.folder, n), ignored);
      std::filesystem::remove(recorded_measurement(r.folder, n), ignored);
      return files;
    }
    if (failure) {
      std::error_code ignored;
      if (std::filesystem::is_empty(r.folder, ignored) && !ignored) {
        std::filesystem::remove(r.folder, ignored);
      } else {
        failure->message += "; the sizes recorded before are kept in " + quoted(r.folder);
      }
      return unexpected{std::move(*failure)};
    }
    files.push_back(recorded_snapshot(r.folder, n).string());
    err << command << ": size " << n << " recorded: " << files.back() << '\n';
  }
  return files;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_RECORDING_HPP
