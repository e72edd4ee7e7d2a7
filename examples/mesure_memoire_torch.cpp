// The LibTorch half of mesure_memoire: `environment` and `measure` over
// LibTorch's runtime, in a module that mesure_memoire loads at run time only
// for those two commands.
#include <exception>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <cli/gpu_commands.hpp>
#include <iteragpu/torch/runtime.hpp>

extern "C" __attribute__((visibility("default"))) int iteragpu_mesure_memoire_torch(const char* command, int argc,
                                                                                    const char* const* argv) {
  namespace cli = iteragpu::cli;
  try {
    const std::span<const char* const> words(argv, static_cast<std::size_t>(argc));
    const std::vector<std::string> args(words.begin(), words.end());
    auto runtime = iteragpu::torch_adapter::open_libtorch_runtime();
    if (std::string_view(command) == "environment") {
      return cli::run_environment(runtime, args, std::cout, std::cerr);
    }
    return cli::run_measure(runtime, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "mesure_memoire: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
