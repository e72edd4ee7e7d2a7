// Writes the bash completion scripts of mesure_memoire and calcul_forfaits
// from their option descriptions: completions MESURE_MEMOIRE_FILE
// CALCUL_FORFAITS_FILE. Run by the build; the scripts are installed in
// share/bash-completion/completions/.
#include <cstddef>
#include <exception>
#include <fstream>
#include <iostream>
#include <span>
#include <string>

#include <cli/programs.hpp>

int main(int argc, char** argv) {
  namespace cli = iteragpu::cli;
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() != 3) {
    std::cerr << "usage: completions MESURE_MEMOIRE_FILE CALCUL_FORFAITS_FILE\n";
    return cli::exit_usage;
  }
  try {
    const auto write = [](const char* path, const std::string& text) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      return static_cast<bool>(out);
    };
    const auto mesure = cli::mesure_memoire_commands();
    const auto forfaits = cli::calcul_forfaits_commands();
    if (!write(words[1], cli::bash_completion("mesure_memoire", mesure)) ||
        !write(words[2], cli::bash_completion("calcul_forfaits", forfaits))) {
      std::cerr << "completions: cannot write the scripts\n";
      return cli::exit_internal_error;
    }
  } catch (const std::exception& e) {
    std::cerr << "completions: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
  return cli::exit_success;
}
