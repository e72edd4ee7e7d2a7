// mesure_memoire: the weight estimate, the GPU environment report and the
// phase-by-phase measurement, each a subcommand.
#include <array>
#include <cstddef>
#include <exception>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <iteragpu/cli/collect_command.hpp>
#include <iteragpu/cli/dispatch.hpp>
#include <iteragpu/cli/estimate_command.hpp>
#include <iteragpu/cli/gpu_commands.hpp>
#include <iteragpu/cli/sweep_command.hpp>

#if defined(ITERAGPU_EXAMPLE_WITH_TORCH)
#include <iteragpu/torch/runtime.hpp>
using gpu_runtime = iteragpu::torch_adapter::libtorch_runtime;
[[nodiscard]] gpu_runtime make_runtime() { return gpu_runtime{}; }
#else
using gpu_runtime = iteragpu::unavailable_runtime;
[[nodiscard]] gpu_runtime make_runtime() { return gpu_runtime{iteragpu::built_without_libtorch}; }
#endif

namespace {

int environment(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  auto runtime = make_runtime();
  return iteragpu::cli::run_environment(runtime, args, out, err);
}

int measure(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  auto runtime = make_runtime();
  return iteragpu::cli::run_measure(runtime, args, out, err);
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = iteragpu::cli;
  static constexpr std::array commands{
      cli::subcommand{"estimate", "weight memory from a parameter count (no GPU)", &cli::run_estimate},
      cli::subcommand{"environment", "versions and visible GPUs, as JSON (a diagnostic)", &environment},
      cli::subcommand{"measure", "memory and time of the synthetic network, phase by phase, on one GPU", &measure},
      cli::subcommand{"sweep", "measure over lists of shapes, a fresh process per point; or plan, or predict", &cli::run_sweep},
      cli::subcommand{"collect", "merge sweep folders into one summary, plot and page", &cli::run_collect},
  };
  try {
    const std::span<char*> words(argv, static_cast<std::size_t>(argc));
    const std::vector<std::string> args(std::next(words.begin()), words.end());
    return cli::dispatch("mesure_memoire", commands, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "mesure_memoire: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
