// The calcul_forfaits command line: the input is the words after the
// program name, separated by NUL bytes; the shipped catalog is the default.
// Whatever the words, the program either succeeds (exit 0, output, no error
// text) or rejects them the documented way (exit 2, nothing on stdout, one
// line on stderr); any other exception is a bug. The command writes no
// file, so a fuzzed --catalog can only name files to read.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <cli/calcul_forfaits_command.hpp>
#include <cli/common.hpp>

#include "command_contract.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::array<std::filesystem::path, 1> shipped{std::filesystem::path{ITERAGPU_FUZZ_CATALOG}};
  const std::vector<std::string> words = fuzz::as_words(fuzz::as_text(data, size));
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_calcul_forfaits(words, out, err, shipped);
  static_cast<void>(fuzz::check_command_outcome(code, out.str(), err.str(), "calcul_forfaits: "));
  fuzz::check_flag_value_rule(iteragpu::cli::calcul_forfaits_description(), words, code, err.str());
  return 0;
}
