#ifndef ITERAGPU_CLI_COMMON_HPP
#define ITERAGPU_CLI_COMMON_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "iteragpu/parse.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// Shared pieces of the example programs' command lines: exit codes, strict
/// value parsing and one Boost.Program_options style for every command.
namespace iteragpu::cli {

/// Exit codes of every program, documented in the README.
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

namespace po = boost::program_options;

/// A flag that takes one word, kept as text: every value is parsed by the
/// library's strict parsers, never by a lexical cast (which would take "-1"
/// for an unsigned 18446744073709551615). untyped_value also spares the
/// typed_value<std::string> code that trips GCC 12's -Wnull-dereference.
[[nodiscard]] inline const po::value_semantic* text_value() { return new po::untyped_value(false); }

/// Whether `flag` was given: present with a value, and for a switch
/// (bool_switch) set.
[[nodiscard]] inline bool given(const po::variables_map& values, std::string_view flag) {
  const auto found = values.find(std::string(flag));
  if (found == values.end() || found->second.empty()) {
    return false;
  }
  const auto* flag_switch = boost::any_cast<bool>(&found->second.value());
  return flag_switch == nullptr || *flag_switch;
}

/// The text of an optional flag, or `fallback` when it is absent.
[[nodiscard]] inline std::string optional_text(const po::variables_map& values, std::string_view flag,
                                               std::string_view fallback) {
  const auto found = values.find(std::string(flag));
  return found == values.end() || found->second.empty() ? std::string(fallback) : found->second.as<std::string>();
}

/// Long options only, `--flag value` or `--flag=value`; no abbreviations (a
/// prefix of a flag is an unknown flag, not a guess).
inline constexpr int command_line_style =
    po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent |
    po::command_line_style::long_allow_next;

/// A Program_options error in words of our own. Boost's what() is not used
/// for the errors that name a flag: it fills its message template by
/// search-and-replace until no placeholder is left, which never ends when the
/// flag the user typed contains one (`--x%canonical_option%`), and it prints
/// the user's text unescaped.
[[nodiscard]] inline std::string describe_parse_error(const po::error& e) {
  const auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
  if (named == nullptr) {
    return e.what();
  }
  const std::string flag = quoted(named->get_option_name());
  if (dynamic_cast<const po::unknown_option*>(&e) != nullptr) {
    return "unknown flag " + flag + "; see --help for the accepted flags";
  }
  if (dynamic_cast<const po::multiple_occurrences*>(&e) != nullptr) {
    return flag + " is given more than once; each flag is accepted once";
  }
  if (const auto* syntax = dynamic_cast<const po::invalid_syntax*>(&e)) {
    switch (syntax->kind()) {
      case po::invalid_syntax::missing_parameter:
        return flag + " needs a value (--flag VALUE or --flag=VALUE)";
      case po::invalid_syntax::empty_adjacent_parameter:
        return flag + " has nothing after '='; expected --flag=VALUE";
      case po::invalid_syntax::extra_parameter:
        return flag + " takes no value";
      case po::invalid_syntax::long_not_allowed:
      case po::invalid_syntax::long_adjacent_not_allowed:
      case po::invalid_syntax::short_adjacent_not_allowed:
      case po::invalid_syntax::unrecognized_line:
        break;
    }
  }
  return "cannot use " + flag + "; flags are --name VALUE or --name=VALUE (see --help)";
}

/// A word that is one of the command's own flags (`--device`,
/// `--device=...`, or -h), for the check below.
[[nodiscard]] inline std::optional<std::string> flag_named_by(const po::options_description& options,
                                                              std::string_view word) {
  if (word == "-h") {
    return std::string(word);
  }
  if (!word.starts_with("--")) {
    return std::nullopt;
  }
  const std::string name(word.substr(2, word.find('=') == std::string_view::npos ? std::string_view::npos
                                                                                 : word.find('=') - 2));
  // Boost matches an empty name against every option without a short name
  // (and throws ambiguous_option), and "---h" against the short name "-h":
  // neither is one of our flags.
  if (name.empty() || name.starts_with('-') || options.find_nothrow(name, false) == nullptr) {
    return std::nullopt;
  }
  return "--" + name;
}

/// A flag that takes a value, followed by another of the command's flags:
/// the value was forgotten (`--output --device cuda:0` must not write a file
/// named --device). `--output=--device` names such a file on purpose and is
/// accepted.
inline void refuse_flags_as_values(const po::options_description& options, std::span<const std::string> args) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    const auto flag = flag_named_by(options, args[i]);
    if (!flag || args[i].find('=') != std::string::npos || flag == "-h") {
      continue;
    }
    const auto* option = options.find_nothrow(flag->substr(2), false);
    if (option->semantic()->max_tokens() == 0) {
      continue;
    }
    if (const auto next = flag_named_by(options, args[i + 1])) {
      throw usage_error(*flag + " needs a value; got the flag " + *next);
    }
  }
}

/// Parses `args` (the words after the program and subcommand names) against
/// `options`. Unknown flags, repeated flags, missing values, flags given as
/// values and stray words all become usage errors.
[[nodiscard]] inline po::variables_map parse_arguments(const po::options_description& options,
                                                       std::span<const std::string> args) {
  refuse_flags_as_values(options, args);
  // Stray words are routed to a positional name that no option owns, so
  // that the message can quote the first one.
  static constexpr const char* stray = "iteragpu-stray-word";
  po::positional_options_description positional;
  positional.add(stray, -1);
  po::variables_map values;
  try {
    const std::vector<std::string> words(args.begin(), args.end());
    const auto parsed = po::command_line_parser(words).options(options).positional(positional).style(command_line_style).run();
    for (const auto& option : parsed.options) {
      if (option.position_key >= 0 && !option.value.empty()) {
        throw usage_error("unexpected word " + quoted(option.value.front()) +
                          "; every value belongs to a --flag (see --help)");
      }
    }
    po::store(parsed, values);
    // po::notify is not called: it only checks `required()` and runs
    // notifiers, neither of which is used; flags check their own presence so
    // that the message says what is accepted.
  } catch (const po::error& e) {
    throw usage_error(describe_parse_error(e));
  }
  return values;
}


/// The value of `--flag` as an unsigned integer no smaller than `minimum`.
[[nodiscard]] inline std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t minimum,
                                                std::string_view accepted,
                                                std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max()) {
  const auto parsed = parse_unsigned(text);
  std::string reason;
  if (!parsed) {
    switch (parsed.error()) {
      case number_error::empty:
        reason = "an empty value";
        break;
      case number_error::not_a_number:
        reason = quoted(text) + " is not a whole number in digits";
        break;
      case number_error::too_large:
        reason = quoted(text) + " does not fit in 64 bits";
        break;
    }
  } else if (parsed.value() < minimum) {
    reason = quoted(text) + " is too small";
  } else if (parsed.value() > maximum) {
    reason = quoted(text) + " is too large";
  } else {
    return parsed.value();
  }
  throw usage_error("--" + std::string(flag) + ": " + reason + "; expected " + std::string(accepted));
}

/// What a flag that takes a positive integer accepts, as messages say it.
inline constexpr std::string_view accepted_positive =
    "a positive integer (digits only, 1 to 18446744073709551615)";
/// What a flag that takes a non-negative integer accepts, as messages say it.
inline constexpr std::string_view accepted_non_negative =
    "a non-negative integer (digits only, 0 to 18446744073709551615)";

/// The text of a flag that must be given.
[[nodiscard]] inline const std::string& required_text(const po::variables_map& values, std::string_view flag,
                                                      std::string_view accepted) {
  const auto found = values.find(std::string(flag));
  if (found == values.end() || found->second.empty()) {
    throw usage_error("--" + std::string(flag) + " is required; expected " + std::string(accepted));
  }
  return found->second.as<std::string>();
}

/// The value of a required `--flag`, a positive integer, or a usage_error naming it.
[[nodiscard]] inline std::uint64_t positive_flag(const po::variables_map& values, std::string_view flag) {
  return integer_flag(flag, required_text(values, flag, accepted_positive), 1, accepted_positive);
}

/// The value of a required `--flag`, a non-negative integer, or a usage_error naming it.
[[nodiscard]] inline std::uint64_t non_negative_flag(const po::variables_map& values, std::string_view flag) {
  return integer_flag(flag, required_text(values, flag, accepted_non_negative), 0, accepted_non_negative);
}

/// `text` as an exact decimal, or a usage_error naming `--flag` and why the text is refused.
[[nodiscard]] inline exact_decimal decimal_flag(std::string_view flag, std::string_view text) {
  const auto parsed = exact_decimal::parse(text);
  if (parsed) {
    return parsed.value();
  }
  std::string reason;
  switch (parsed.error()) {
    case decimal_error::empty:
      reason = "an empty value";
      break;
    case decimal_error::malformed:
      reason = quoted(text) + " is not a plain decimal";
      break;
    case decimal_error::too_many_fraction_digits:
      reason = quoted(text) + " has more than 40 digits after the point";
      break;
    case decimal_error::too_large:
      reason = quoted(text) + " has a whole part past 64 bits";
      break;
  }
  throw usage_error("--" + std::string(flag) + ": " + reason +
                    "; expected a non-negative decimal such as 0, 4 or 1.5 (no sign, no exponent)");
}

/// `--help` or `-h` anywhere among the words asks for the command's help.
[[nodiscard]] inline bool help_requested(std::span<const std::string> args) {
  return std::ranges::any_of(args, [](const std::string& a) { return a == "--help" || a == "-h"; });
}

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
        << (kept.empty() ? std::string("nothing usable was delivered") : "what was written is complete: " +
                                                                              std::string(kept))
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

#endif  // ITERAGPU_CLI_COMMON_HPP
