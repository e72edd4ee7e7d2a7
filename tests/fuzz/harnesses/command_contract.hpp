#ifndef ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP
#define ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include <iteragpu/cli/common.hpp>

#include "fuzz_input.hpp"

namespace fuzz {

// The contract of every command: either exit 2 with nothing on stdout and one
// line on stderr that starts with `prefix`, or exit 0 with whole lines on
// stdout and nothing on stderr. Returns the JSON object when stdout holds one.
inline std::optional<boost::json::object> check_command_outcome(int code, const std::string& printed,
                                                                const std::string& complaint,
                                                                std::string_view prefix) {
  if (code == iteragpu::cli::exit_usage) {
    require(printed.empty(), "bad input prints nothing on stdout");
    require(is_one_line(complaint), "bad input gives one line on stderr");
    require(complaint.starts_with(prefix), "the line names the command");
    return std::nullopt;
  }
  require(code == iteragpu::cli::exit_success, "exit code is 0 or 2");
  require(complaint.empty(), "success prints nothing on stderr");
  require(!printed.empty() && printed.back() == '\n', "success prints whole lines");
  if (printed.front() != '{') {
    return std::nullopt;
  }
  boost::system::error_code ec;
  auto report = boost::json::parse(printed, ec);
  require(!ec && report.is_object(), "--json prints one JSON object");
  boost::json::object object = std::move(report.as_object());
  return object;
}

}  // namespace fuzz

#endif  // ITERAGPU_FUZZ_COMMAND_CONTRACT_HPP
