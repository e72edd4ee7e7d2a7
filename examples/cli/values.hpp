#ifndef ITERAGPU_CLI_VALUES_HPP
#define ITERAGPU_CLI_VALUES_HPP

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "cli/arguments.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The values of flags, parsed strictly: integers within bounds, exact
/// decimals, required flags; each refusal a usage_error naming the flag and
/// what it accepts.
namespace iteragpu::cli {

/// The value of `--flag` as an unsigned integer no smaller than `minimum`.
[[nodiscard]] inline std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t minimum,
                                                std::string_view accepted,
                                                std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max()) {
  const auto parsed = parse_unsigned(text);
  std::string reason;
  if (!parsed) {
    switch (parsed.error()) {
      case number_errc::empty:
        reason = "an empty value";
        break;
      case number_errc::not_a_number:
        reason = quoted(text) + " is not a whole number in digits";
        break;
      case number_errc::too_large:
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
inline constexpr std::string_view accepted_positive = "a positive integer (digits only, 1 to 18446744073709551615)";
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

/// `text` as an exact decimal, or a usage_error naming `--flag`, why the
/// text is refused and what the flag accepts (`accepted`, as messages say it).
[[nodiscard]] inline exact_decimal decimal_flag(
    std::string_view flag, std::string_view text,
    std::string_view accepted = "a non-negative decimal such as 0, 4 or 1.5 (no sign, no exponent)") {
  const auto parsed = exact_decimal::parse(text);
  if (parsed) {
    return parsed.value();
  }
  std::string reason;
  switch (parsed.error()) {
    case decimal_errc::empty:
      reason = "an empty value";
      break;
    case decimal_errc::malformed:
      reason = quoted(text) + " is not a plain decimal";
      break;
    case decimal_errc::too_many_fraction_digits:
      reason = quoted(text) + " has more than 40 digits after the point";
      break;
    case decimal_errc::too_large:
      reason = quoted(text) + " has a whole part past 64 bits";
      break;
  }
  throw usage_error("--" + std::string(flag) + ": " + reason + "; expected " + std::string(accepted));
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_VALUES_HPP
