#ifndef ITERAGPU_CLI_OUTCOME_HPP
#define ITERAGPU_CLI_OUTCOME_HPP

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

/// \file
/// How every command of the example programs ends: the documented exit
/// codes, the usage error that carries a bad input's message, and the check
/// that what was printed reached standard output.
namespace iteragpu::cli {

/// Exit codes of every program, documented in docs/conventions.md.
inline constexpr int exit_success = 0;
inline constexpr int exit_internal_error = 1;  ///< a bug, an unexpected system failure, or output not delivered
inline constexpr int exit_usage = 2;           ///< bad input, or no LibTorch / no GPU for `measure`
inline constexpr int exit_measurement = 3;     ///< a failure while measuring; the phase is named
/// The output's name was taken by another process while the command worked:
/// the result is kept under a new name of its own, which the message gives.
inline constexpr int exit_output_name_taken = 5;

/// Bad input: the message names the input and what is accepted.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Output that could not be delivered is an error: flushes `out` and, when
/// the stream failed (a full disk, /dev/full, a closed pipe), says so on
/// `err` and turns the exit code into exit_internal_error. `kept` names
/// what the command wrote elsewhere and is complete (a folder of files);
/// empty: nothing usable was delivered.
[[nodiscard]] inline int delivered(std::string_view command, std::ostream& out, std::ostream& err, int code,
                                   std::string_view kept = {}) {
  out.flush();
  if (!out) {
    err << command << ": the output could not be written to standard output; "
        << (kept.empty() ? std::string("nothing usable was delivered")
                         : "what was written is complete: " + std::string(kept))
        << '\n';
    return exit_internal_error;
  }
  return code;
}

/// Runs `body`, turning a usage error into one line on `err` and exit 2, and
/// checking that what it printed on `out` was delivered; `kept`, which the
/// body may fill, names the files it wrote (see delivered()).
template <class Body>
[[nodiscard]] int guarded(std::string_view command, std::ostream& out, std::ostream& err, const std::string& kept,
                          Body&& body) {
  int code = exit_usage;
  try {
    code = body();
  } catch (const usage_error& e) {
    err << command << ": " << e.what() << '\n';
  }
  return delivered(command, out, err, code, kept);
}

/// guarded() for a command that writes no file: a failed standard output
/// means nothing usable was delivered.
template <class Body>
[[nodiscard]] int guarded(std::string_view command, std::ostream& out, std::ostream& err, Body&& body) {
  return guarded(command, out, err, std::string(), std::forward<Body>(body));
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_OUTCOME_HPP
