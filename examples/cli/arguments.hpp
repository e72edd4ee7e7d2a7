#ifndef ITERAGPU_CLI_ARGUMENTS_HPP
#define ITERAGPU_CLI_ARGUMENTS_HPP

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/outcome.hpp"
#include "iteragpu/text.hpp"

/// \file
/// One Boost.Program_options style for every command: long flags only, each
/// value kept as text for the library's strict parsers, and Boost's errors
/// put in words of our own.
namespace iteragpu::cli {

namespace po = boost::program_options;

/// A flag's value kept as text, named in the help for what it takes (N, X,
/// FILE, ...) where Boost would print `arg`.
class named_text_value : public po::untyped_value {
 public:
  /// A value the help shows as `value_name`.
  explicit named_text_value(std::string_view value_name) : po::untyped_value(false), value_name_(value_name) {}
  /// The value's name in the help.
  [[nodiscard]] std::string name() const override { return value_name_; }

 private:
  std::string value_name_;
};

/// A flag that takes one word, kept as text: every value is parsed by the
/// library's strict parsers, never by a lexical cast (which would take "-1"
/// for an unsigned 18446744073709551615). untyped_value also spares the
/// typed_value<std::string> code that trips GCC 12's -Wnull-dereference.
/// `value_name` is what the help shows after the flag: N an integer, X a
/// decimal, FILE, PATH, DIR, ID, LIST.
[[nodiscard]] inline const po::value_semantic* text_value(std::string_view value_name) {
  return new named_text_value(value_name);
}

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
inline constexpr int command_line_style = po::command_line_style::allow_long |
                                          po::command_line_style::long_allow_adjacent |
                                          po::command_line_style::long_allow_next;

namespace detail {

/// The edit distance between two words: insertions, deletions, substitutions
/// and swaps of two neighbours each count one (a typo's usual forms).
[[nodiscard]] inline std::size_t typing_distance(std::string_view a, std::string_view b) {
  // Three rows of the optimal-string-alignment table: i-2, i-1 and i.
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace detail

/// The one flag of `options` that `typed` (a word such as `--capacity-gb` or
/// `--jsn=1`) is a likely typo of: at most two edits away, fewer edits than
/// half its length, and no other flag as close. Nothing when none or several
/// are that close: a guess between two flags would mislead.
[[nodiscard]] inline std::optional<std::string> nearest_flag(const po::options_description& options,
                                                             std::string_view typed) {
  std::string_view name = typed.substr(0, typed.find('='));
  while (name.starts_with('-')) {
    name.remove_prefix(1);
  }
  constexpr std::size_t most_edits = 2;
  std::optional<std::string> nearest;
  std::size_t nearest_distance = most_edits + 1;
  bool tied = false;
  for (const auto& option : options.options()) {
    const std::size_t distance = detail::typing_distance(name, option->long_name());
    if (distance == 0 || distance > most_edits || 2 * distance >= name.size()) {
      continue;
    }
    if (distance < nearest_distance) {
      nearest = "--" + option->long_name();
      nearest_distance = distance;
      tied = false;
    } else if (distance == nearest_distance) {
      tied = true;
    }
  }
  return tied ? std::nullopt : nearest;
}

/// The message for a word that names no flag of `options`: the flag as typed
/// (without its `=value`), and the flag it is a likely typo of, if one is.
[[nodiscard]] inline std::string unknown_flag_message(const po::options_description& options, std::string_view typed) {
  const std::string_view flag = typed.substr(0, typed.find('='));
  const auto guess = nearest_flag(options, flag);
  return "unknown flag " + iteragpu::quoted(flag) + (guess ? " (did you mean " + *guess + "?)" : std::string()) +
         "; see --help for the accepted flags";
}

/// A Program_options error in words of our own. Boost's what() is not used
/// for the errors that name a flag: it fills its message template by
/// search-and-replace until no placeholder is left, which never ends when the
/// flag the user typed contains one (`--x%canonical_option%`), and it prints
/// the user's text unescaped. `options` are the flags an unknown one is
/// compared with (see unknown_flag_message()).
[[nodiscard]] inline std::string describe_parse_error(const po::error& e, const po::options_description& options) {
  const auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
  if (named == nullptr) {
    return e.what();
  }
  const std::string flag = quoted(named->get_option_name());
  if (dynamic_cast<const po::unknown_option*>(&e) != nullptr) {
    return unknown_flag_message(options, named->get_option_name());
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
  const std::string name(
      word.substr(2, word.find('=') == std::string_view::npos ? std::string_view::npos : word.find('=') - 2));
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
    const auto parsed =
        po::command_line_parser(words).options(options).positional(positional).style(command_line_style).run();
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
    throw usage_error(describe_parse_error(e, options));
  }
  return values;
}

/// `--help` or `-h` anywhere among the words asks for the command's help.
[[nodiscard]] inline bool help_requested(std::span<const std::string> args) {
  return std::ranges::any_of(args, [](const std::string& a) { return a == "--help" || a == "-h"; });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_ARGUMENTS_HPP
