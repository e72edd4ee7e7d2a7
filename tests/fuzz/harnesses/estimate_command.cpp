// The `mesure_memoire estimate` command line: the input is the words after
// `estimate`, separated by NUL bytes. Whatever the words, the command either succeeds
// (exit 0, output, no error text) or rejects them the documented way (exit
// 2, nothing on stdout, one line on stderr); any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <cli/common.hpp>
#include <cli/estimate_command.hpp>
#include <iteragpu/units.hpp>

#include "command_contract.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> words = fuzz::as_words(fuzz::as_text(data, size));
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_estimate(words, out, err);
  const auto report = fuzz::check_command_outcome(code, out.str(), err.str(), "mesure_memoire estimate: ");
  fuzz::check_flag_value_rule(iteragpu::cli::estimate_description(), words, code, err.str());
  if (report) {
    const auto* total = report->if_contains("total_gib");
    fuzz::require(total != nullptr && total->is_string(), "the JSON carries total_gib as a string");
    const auto& text = total->as_string();
    fuzz::require(iteragpu::exact_decimal::parse({text.data(), text.size()}).has_value(),
                  "total_gib is an exact decimal");
  }
  return 0;
}
