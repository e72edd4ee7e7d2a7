#ifndef ITERAGPU_CLI_ENVIRONMENT_COMMAND_HPP
#define ITERAGPU_CLI_ENVIRONMENT_COMMAND_HPP

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/flags.hpp"
#include "cli/output.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/report/environment.hpp"

/// \file
/// `mesure_memoire environment`, written once over a GPU runtime object:
/// versions and the GPUs the runtime reports, as JSON.
namespace iteragpu::cli {

/// The flags of `mesure_memoire environment`, with its help.
[[nodiscard]] inline po::options_description environment_description() {
  po::options_description d(
      "mesure_memoire environment: versions and the GPUs the runtime reports (a diagnostic: exit 0 when no GPU "
      "is available)");
  d.add_options()                                                                                                  //
      ("device", text_value("cuda:N"), "the GPU to describe, cuda:N (default cuda:0)")                             //
      ("output", text_value("NEW_FILE"), "write the JSON to this new file instead of stdout (never overwritten)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// `mesure_memoire environment`: the environment report as JSON on `out` or in a new file; exit 0
/// even when no GPU is available.
template <memory::environment_runtime Runtime>
[[nodiscard]] int run_environment(Runtime& runtime, std::span<const std::string> args, std::ostream& out,
                                  std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire environment";
  return guarded(command, out, err, [&] {
    const auto description = environment_description();
    if (help_requested(args)) {
      out << "usage: mesure_memoire environment [--device cuda:N] [--output NEW_FILE]\n" << description << '\n';
      return exit_success;
    }
    const auto values = parse_arguments(description, args);
    const device_index device = device_flag(optional_text(values, "device", "cuda:0"));
    std::optional<new_file> output{};
    if (values.count("output") != 0) {
      output.emplace(reserve_output("output", required_text(values, "output", "a path to a new file")));
    }
    const std::string text = boost::json::serialize(report::to_json(runtime.environment(device))) + "\n";
    if (output) {
      return commit_output(command, std::move(*output), text, err);
    }
    out << text;
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_ENVIRONMENT_COMMAND_HPP
