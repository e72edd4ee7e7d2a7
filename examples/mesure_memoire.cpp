// mesure_memoire: the weight estimate, the plan, the GPU environment report
// and the phase-by-phase measurement, each a subcommand.
//
// Only `environment` and `measure` need LibTorch. In a build with LibTorch
// they live in a module loaded at run time (mesure_memoire_torch.cpp), so
// that every other command starts in milliseconds and never loads LibTorch.
#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <dlfcn.h>

#include <cli/collect_command.hpp>
#include <cli/dispatch.hpp>
#include <cli/estimate_command.hpp>
#include <cli/extrapolate_command.hpp>
#include <cli/gpu_commands.hpp>
#include <cli/plan_command.hpp>
#include <cli/programs.hpp>
#include <cli/replay_command.hpp>
#include <cli/replay_on_gpu.hpp>
#include <cli/sweep_command.hpp>
#include <iteragpu/memory/gpu_runtime.hpp>

namespace {

namespace cli = iteragpu::cli;

constexpr cli::build_facts build{ITERAGPU_LIBTORCH_TEXT, ITERAGPU_GPU_RUNTIME_TEXT};

#if defined(ITERAGPU_TORCH_MODULE)
// The module's entry point (see mesure_memoire_torch.cpp).
using torch_command = int(const char* command, int argc, const char* const* argv);

// The module beside the program (a build tree), else in the install's
// library folder. Nothing when it cannot be loaded: the reason is kept.
struct torch_module {
  torch_command* run{nullptr};
  std::string problem;
};

torch_module load_torch_module() {
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  std::string problem;
  for (const char* relative : {ITERAGPU_TORCH_MODULE, ITERAGPU_TORCH_MODULE_FROM_BIN}) {
    const auto candidate = (exe.parent_path() / relative).lexically_normal();
    if (!std::filesystem::exists(candidate, error)) {
      continue;
    }
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      return {nullptr, why != nullptr ? why : "dlopen failed"};
    }
    // A loaded module stays loaded: LibTorch does not support being unloaded.
    auto* entry = reinterpret_cast<torch_command*>(::dlsym(handle, "iteragpu_mesure_memoire_torch"));  // NOLINT
    return {entry, entry == nullptr ? "the module has no entry point" : ""};
  }
  return {nullptr, "the LibTorch module " + std::string(ITERAGPU_TORCH_MODULE) + " is not beside the program"};
}

int through_torch(const char* command, std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const auto module = load_torch_module();
  if (module.run == nullptr) {
    // Without its LibTorch the build is one that cannot reach a GPU.
    const std::string reason = "LibTorch could not be loaded (" + iteragpu::escaped(module.problem) + ")";
    iteragpu::memory::unavailable_runtime runtime{reason};
    return std::string_view(command) == "environment" ? cli::run_environment(runtime, args, out, err)
                                                      : cli::run_measure(runtime, args, out, err);
  }
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args) {
    argv.push_back(a.c_str());
  }
  out.flush();
  return module.run(command, static_cast<int>(argv.size()), argv.data());
}

int environment(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return through_torch("environment", args, out, err);
}
int measure(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return through_torch("measure", args, out, err);
}
#else
int environment(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
  return cli::run_environment(runtime, args, out, err);
}
int measure(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
  return cli::run_measure(runtime, args, out, err);
}
#endif

// `extrapolate --largest` reads the shipped catalog: beside an install
// first, then in the source tree this program was built from.
int extrapolate(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const auto defaults = cli::default_catalog_candidates(ITERAGPU_DATA_DIR_FROM_BIN, ITERAGPU_SOURCE_CATALOG);
  return cli::run_extrapolate(args, out, err, defaults);
}

// Where `replay --on-gpu` finds the LibTorch module: beside the program,
// else in the install's library folder; nowhere in a build without LibTorch.
cli::real_allocator_access real_allocator_access() {
  cli::real_allocator_access access;
  access.build_runtime = build.gpu_runtime;
#if defined(ITERAGPU_TORCH_MODULE)
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  for (const char* relative : {ITERAGPU_TORCH_MODULE, ITERAGPU_TORCH_MODULE_FROM_BIN}) {
    access.modules.push_back((exe.parent_path() / relative).lexically_normal());
  }
#endif
  return access;
}

// `replay --gpu` reads the same catalog.
int replay(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const auto defaults = cli::default_catalog_candidates(ITERAGPU_DATA_DIR_FROM_BIN, ITERAGPU_SOURCE_CATALOG);
  return cli::run_replay(args, out, err, defaults, [&](const cli::replay_command_options& options, std::ostream& o) {
    return cli::run_replay_on_gpu(options, o, defaults, real_allocator_access());
  });
}

}  // namespace

// The runner of each command that cli::mesure_memoire_commands() lists.
cli::command_function runner_of(std::string_view name) {
  if (name == "estimate") {
    return &cli::run_estimate;
  }
  if (name == "plan") {
    return &cli::run_plan;
  }
  if (name == "environment") {
    return &environment;
  }
  if (name == "measure") {
    return &measure;
  }
  if (name == "compare") {
    return &cli::run_compare;
  }
  if (name == "sweep") {
    return &cli::run_sweep;
  }
  if (name == "collect") {
    return &cli::run_collect;
  }
  if (name == "replay") {
    return &replay;
  }
  if (name == "extrapolate") {
    return &extrapolate;
  }
  return nullptr;
}

int main(int argc, char** argv) {
  try {
    std::vector<cli::subcommand> commands;
    for (const auto& c : cli::mesure_memoire_commands()) {
      commands.push_back(cli::subcommand{c.name, c.summary, runner_of(c.name)});
    }
    const std::span<char*> words(argv, static_cast<std::size_t>(argc));
    const std::vector<std::string> args(std::next(words.begin()), words.end());
    if (cli::version_requested(args)) {
      cli::write_version(std::cout, "mesure_memoire", build);
      return cli::delivered("mesure_memoire", std::cout, std::cerr, cli::exit_success);
    }
    return cli::dispatch("mesure_memoire", commands, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "mesure_memoire: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
