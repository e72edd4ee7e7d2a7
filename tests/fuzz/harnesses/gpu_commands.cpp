// The `mesure_memoire environment`, `measure` and `plan` command lines, in a
// build that cannot reach a GPU: the input's first byte picks the command,
// the rest is its words separated by NUL bytes. Whatever the words, each
// command keeps the contract of tests/fuzz (exit 0 with whole lines, or exit
// 2 with one displayable line and nothing on stdout), refuses a flag given as
// a value, and `measure` never succeeds without a GPU: it exits 2 and leaves
// no file. The files an `environment --output` writes land in a scratch
// folder, emptied after every input.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <cli/gpu_commands.hpp>
#include <cli/plan_command.hpp>
#include <iteragpu/memory/gpu_runtime.hpp>

#include "command_contract.hpp"
#include "fuzz_input.hpp"

namespace {

// The working folder of every input: a fresh folder of this process.
const std::filesystem::path& scratch() {
  static const std::filesystem::path folder = [] {
    auto path = std::filesystem::temp_directory_path() / ("iteragpu-fuzz-gpu-commands-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    std::filesystem::current_path(path);
    return path;
  }();
  return folder;
}

std::size_t files_in(const std::filesystem::path& folder) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    static_cast<void>(entry);
    ++n;
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  if (bytes.empty()) {
    return 0;
  }
  const auto& folder = scratch();
  const auto rest = bytes.subspan(1);
  const std::vector<std::string> words = fuzz::as_words(fuzz::as_text(rest.data(), rest.size()));
  iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
  std::ostringstream out;
  std::ostringstream err;
  switch (bytes.front() % 3U) {
    case 0: {
      const int code = iteragpu::cli::run_environment(runtime, words, out, err);
      static_cast<void>(fuzz::check_command_outcome(code, out.str(), err.str(), "mesure_memoire environment: ", true));
      fuzz::check_flag_value_rule(iteragpu::cli::environment_description(), words, code, err.str());
      break;
    }
    case 1: {
      const int code = iteragpu::cli::run_measure(runtime, words, out, err);
      static_cast<void>(fuzz::check_command_outcome(code, out.str(), err.str(), "mesure_memoire measure: "));
      fuzz::check_flag_value_rule(iteragpu::cli::measure_description(), words, code, err.str());
      fuzz::require(code == iteragpu::cli::exit_usage || out.str().starts_with("usage: mesure_memoire measure "),
                    "without a GPU, measure only ever shows its help or refuses");
      fuzz::require(files_in(folder) == 0, "measure without a GPU writes no file, not even a temporary");
      break;
    }
    default: {
      const int code = iteragpu::cli::run_plan(words, out, err);
      const auto report = fuzz::check_command_outcome(code, out.str(), err.str(), "mesure_memoire plan: ");
      fuzz::check_flag_value_rule(iteragpu::cli::plan_description(), words, code, err.str());
      if (report) {
        fuzz::require(report->contains("phases") && report->at("phases").as_array().size() >= 5,
                      "a plan has at least five rows");
      }
      break;
    }
  }
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    std::filesystem::remove_all(entry.path());
  }
  return 0;
}
