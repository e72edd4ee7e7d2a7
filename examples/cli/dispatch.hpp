#ifndef ITERAGPU_CLI_DISPATCH_HPP
#define ITERAGPU_CLI_DISPATCH_HPP

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "cli/common.hpp"

/// \file
/// A program of several subcommands: `program COMMAND [FLAGS]`.
namespace iteragpu::cli {

/// A command's entry point: the words after its name, its output and its error stream; returns the
/// exit code.
using command_function = int (*)(std::span<const std::string> args, std::ostream& out, std::ostream& err);

/// A subcommand of a program.
struct subcommand {
  std::string_view name;     ///< the word that names it
  std::string_view summary;  ///< one line for the program's help
  command_function run;      ///< what runs it
};

/// The program's help: its usage, the subcommands with their summaries, the exit codes.
inline void write_program_help(std::ostream& out, std::string_view program, std::span<const subcommand> commands) {
  out << "usage: " << program << " COMMAND [FLAGS]\n\ncommands:\n";
  for (const auto& c : commands) {
    out << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ') << c.summary << '\n';
  }
  out << "\n"
      << program << " COMMAND --help shows the flags of one command; " << program
      << " --version the versions it was built with.\n"
      << "exit codes: 0 success, 1 internal error, 2 bad input or no LibTorch/GPU, 3 failure while measuring,\n"
         "  4 replay: the self-check found the replay differs from the recorded segment events,\n"
         "  5 measure, environment: another process took the --output name (the result is kept under a new name),\n"
         "  6 replay --on-gpu: PyTorch's own allocator and the simulation differ,\n"
         "  130, 143 sweep: stopped by SIGINT or SIGTERM (docs/conventions.md)\n";
}

/// `program COMMAND [FLAGS]`: runs the named subcommand with the remaining
/// words; the program's own --help lists the commands.
[[nodiscard]] inline int dispatch(std::string_view program, std::span<const subcommand> commands,
                                  std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << program << ": missing COMMAND; expected one of:";
    for (const auto& c : commands) {
      err << ' ' << c.name;
    }
    err << " (or --help)\n";
    return exit_usage;
  }
  if (args.front() == "--help" || args.front() == "-h") {
    write_program_help(out, program, commands);
    return delivered(program, out, err, exit_success);
  }
  for (const auto& c : commands) {
    if (args.front() == c.name) {
      return c.run(args.subspan(1), out, err);
    }
  }
  err << program << ": unknown command " << quoted(args.front()) << "; expected one of:";
  for (const auto& c : commands) {
    err << ' ' << c.name;
  }
  err << '\n';
  return exit_usage;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_DISPATCH_HPP
