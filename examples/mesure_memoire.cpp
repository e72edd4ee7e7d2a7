// mesure_memoire: the weight estimate, the GPU environment report and the
// phase-by-phase measurement, each a subcommand.
#include <array>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <iteragpu/cli/dispatch.hpp>
#include <iteragpu/cli/estimate_command.hpp>

int main(int argc, char** argv) {
  namespace cli = iteragpu::cli;
  static constexpr std::array commands{
      cli::subcommand{"estimate", "weight memory from a parameter count (no GPU)", &cli::run_estimate},
  };
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return cli::dispatch("mesure_memoire", commands, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "mesure_memoire: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
