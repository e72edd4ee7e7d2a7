#ifndef ITERAGPU_TESTS_RUN_COMMAND_HPP
#define ITERAGPU_TESTS_RUN_COMMAND_HPP

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <cli/dispatch.hpp>

// Runs a command function in-process and keeps what it printed.
struct command_outcome {
  int exit_code{-1};
  std::string out;
  std::string err;
};

template <class Command>
command_outcome run_command(Command command, std::initializer_list<const char*> words) {
  const std::vector<std::string> args(words.begin(), words.end());
  std::ostringstream out;
  std::ostringstream err;
  command_outcome outcome;
  outcome.exit_code = command(args, out, err);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

inline bool is_one_line(const std::string& text) {
  return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

#endif  // ITERAGPU_TESTS_RUN_COMMAND_HPP
