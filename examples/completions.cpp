// Writes the bash completion scripts of mesure_memoire and calcul_forfaits
// from their option descriptions: completions MESURE_MEMOIRE_FILE
// CALCUL_FORFAITS_FILE CATALOG (the shipped catalog, whose GPU ids --gpu
// completes, for both programs). Run by the build; the scripts are installed in
// share/bash-completion/completions/.
#include <cstddef>
#include <exception>
#include <fstream>
#include <iostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <cli/programs.hpp>

int main(int argc, char** argv) {
  namespace cli = iteragpu::cli;
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() != 4) {
    std::cerr << "usage: completions MESURE_MEMOIRE_FILE CALCUL_FORFAITS_FILE CATALOG\n";
    return cli::exit_usage;
  }
  try {
    const auto write = [](const char* path, const std::string& text) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      return static_cast<bool>(out);
    };
    const auto catalog = iteragpu::pricing::parse_catalog(cli::read_catalog_text(words[3]), words[3]);
    if (!catalog.has_value()) {
      std::cerr << "completions: " << words[3] << " is not a valid catalog\n";
      return cli::exit_internal_error;
    }
    std::set<std::string> unique;
    for (const auto& offer : catalog->offers()) {
      unique.insert(offer.id);
    }
    const std::vector<std::string> ids(unique.begin(), unique.end());
    const auto mesure = cli::mesure_memoire_commands();
    const auto forfaits = cli::calcul_forfaits_commands();
    if (!write(words[1], cli::bash_completion("mesure_memoire", mesure, ids)) ||
        !write(words[2], cli::bash_completion("calcul_forfaits", forfaits, ids))) {
      std::cerr << "completions: cannot write the scripts\n";
      return cli::exit_internal_error;
    }
  } catch (const std::exception& e) {
    std::cerr << "completions: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
  return cli::exit_success;
}
