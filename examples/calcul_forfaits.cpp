// calcul_forfaits: the whole price of a fixed-duration GPU package from a
// catalog, and the cost per accepted result.
#include <cstddef>
#include <exception>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <cli/calcul_forfaits_command.hpp>
#include <cli/programs.hpp>

int main(int argc, char** argv) {
  namespace cli = iteragpu::cli;
  try {
    const std::span<char*> words(argv, static_cast<std::size_t>(argc));
    const std::vector<std::string> args(std::next(words.begin()), words.end());
    if (cli::version_requested(args)) {
      cli::write_version(std::cout, cli::calcul_forfaits_program, {"not used", "none"});
      return cli::delivered(cli::calcul_forfaits_program, std::cout, std::cerr, cli::exit_success);
    }
    // The shipped catalog: beside an install first, then in the source tree
    // this program was built from (both paths come from the build).
    const auto defaults = cli::default_catalog_candidates(ITERAGPU_DATA_DIR_FROM_BIN, ITERAGPU_SOURCE_CATALOG);
    return cli::run_calcul_forfaits(args, std::cout, std::cerr, defaults);
  } catch (const std::exception& e) {
    std::cerr << "calcul_forfaits: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
