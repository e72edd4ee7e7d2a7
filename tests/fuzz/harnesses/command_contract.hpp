#ifndef ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP
#define ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include <cli/common.hpp>
#include <iteragpu/text.hpp>

#include "fuzz_input.hpp"

namespace fuzz {

// The contract of every command: either exit 2 with nothing on stdout and one
// line on stderr that starts with `prefix`, or exit 0 with whole lines on
// stdout (none when the command may write its result to a file instead) and
// nothing on stderr. Returns the JSON object when stdout holds one.
inline std::optional<boost::json::object> check_command_outcome(int code, const std::string& printed,
                                                                const std::string& complaint, std::string_view prefix,
                                                                bool result_may_go_to_a_file = false) {
  if (code == iteragpu::cli::exit_usage) {
    require(printed.empty(), "bad input prints nothing on stdout");
    require(is_one_line(complaint), "bad input gives one line on stderr");
    require(complaint.starts_with(prefix), "the line names the command");
    require(iteragpu::check_display_text(complaint.substr(0, complaint.size() - 1)).has_value(),
            "the line is displayable text: every value of the user's went through the one escaper");
    return std::nullopt;
  }
  require(code == iteragpu::cli::exit_success, "exit code is 0 or 2");
  require(complaint.empty(), "success prints nothing on stderr");
  if (printed.empty()) {
    require(result_may_go_to_a_file, "success prints whole lines");
    return std::nullopt;
  }
  require(printed.back() == '\n', "success prints whole lines");
  if (printed.front() != '{') {
    return std::nullopt;
  }
  boost::system::error_code ec;
  auto report = boost::json::parse(printed, ec);
  require(!ec && report.is_object(), "--json prints one JSON object");
  boost::json::object object = std::move(report.as_object());
  return object;
}

// The flag-like-value rule: when a flag that takes a value is followed by
// another of the command's flags (and no --help or -h is among the words,
// which asks for the help first), the command refuses the words with
// "FLAG needs a value; got the flag OTHER". Checks it against the outcome.
inline void check_flag_value_rule(const boost::program_options::options_description& description,
                                  std::span<const std::string> words, int code, const std::string& complaint) {
  for (const auto& w : words) {
    if (w == "--help" || w == "-h") {
      return;
    }
  }
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    const auto flag = iteragpu::cli::flag_named_by(description, words[i]);
    if (!flag || words[i].find('=') != std::string::npos) {
      continue;
    }
    const auto* option = description.find_nothrow(flag->substr(2), false);
    if (option == nullptr || option->semantic()->max_tokens() == 0) {
      continue;
    }
    if (const auto next = iteragpu::cli::flag_named_by(description, words[i + 1])) {
      require(code == iteragpu::cli::exit_usage, "a flag given as a value is refused with exit 2");
      require(complaint.find(*flag + " needs a value; got the flag " + *next) != std::string::npos,
              "the refusal names the flag and the flag given as its value");
      return;
    }
  }
}

}  // namespace fuzz

#endif  // ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP
