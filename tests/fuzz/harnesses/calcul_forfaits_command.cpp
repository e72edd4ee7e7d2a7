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

#include <iteragpu/cli/calcul_forfaits_command.hpp>
#include <iteragpu/cli/common.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::array<std::filesystem::path, 1> shipped{std::filesystem::path{ITERAGPU_FUZZ_CATALOG}};
  const std::vector<std::string> words = fuzz::as_words(fuzz::as_text(data, size));
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_calcul_forfaits(words, out, err, shipped);
  const std::string printed = out.str();
  const std::string complaint = err.str();
  if (code == iteragpu::cli::exit_usage) {
    fuzz::require(printed.empty(), "bad input prints nothing on stdout");
    fuzz::require(fuzz::is_one_line(complaint), "bad input gives one line on stderr");
    fuzz::require(complaint.starts_with("calcul_forfaits: "), "the line names the program");
    return 0;
  }
  fuzz::require(code == iteragpu::cli::exit_success, "exit code is 0 or 2");
  fuzz::require(complaint.empty(), "success prints nothing on stderr");
  fuzz::require(!printed.empty() && printed.back() == '\n', "success prints whole lines");
  if (printed.front() == '{') {
    boost::system::error_code ec;
    const auto report = boost::json::parse(printed, ec);
    fuzz::require(!ec && report.is_object(), "--json prints one JSON object");
  }
  return 0;
}
