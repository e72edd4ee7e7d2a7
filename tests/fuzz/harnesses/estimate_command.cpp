// The `mesure_memoire estimate` command line: the input is the words after
// `estimate`, separated by NUL bytes. Whatever the words, the command either succeeds
// (exit 0, output, no error text) or rejects them the documented way (exit
// 2, nothing on stdout, one line on stderr); any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <iteragpu/cli/common.hpp>
#include <iteragpu/cli/estimate_command.hpp>
#include <iteragpu/units.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> words = fuzz::as_words(fuzz::as_text(data, size));
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_estimate(words, out, err);
  const std::string printed = out.str();
  const std::string complaint = err.str();
  if (code == iteragpu::cli::exit_usage) {
    fuzz::require(printed.empty(), "bad input prints nothing on stdout");
    fuzz::require(fuzz::is_one_line(complaint), "bad input gives one line on stderr");
    fuzz::require(complaint.starts_with("mesure_memoire estimate: "), "the line names the command");
    return 0;
  }
  fuzz::require(code == iteragpu::cli::exit_success, "exit code is 0 or 2");
  fuzz::require(complaint.empty(), "success prints nothing on stderr");
  fuzz::require(!printed.empty() && printed.back() == '\n', "success prints whole lines");
  if (printed.front() == '{') {
    boost::system::error_code ec;
    const auto report = boost::json::parse(printed, ec);
    fuzz::require(!ec && report.is_object(), "--json prints one JSON object");
    const auto* total = report.as_object().if_contains("total_gib");
    fuzz::require(total != nullptr && total->is_string(), "the JSON carries total_gib as a string");
    const auto& text = total->as_string();
    fuzz::require(iteragpu::exact_decimal::parse({text.data(), text.size()}).has_value(),
                  "total_gib is an exact decimal");
  }
  return 0;
}
