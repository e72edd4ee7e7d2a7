// parse_unsigned against an independent oracle: digits only, no
// sign, no spaces; the value is the digits read in base 10, or too_large
// past 2^64 - 1.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <iteragpu/parse.hpp>

#include "fuzz_input.hpp"

namespace {

using iteragpu::number_errc;

[[nodiscard]] number_errc expected_error(std::string_view text) {
  if (text.empty()) {
    return number_errc::empty;
  }
  if (!std::all_of(text.begin(), text.end(), iteragpu::is_digit)) {
    return number_errc::not_a_number;
  }
  return number_errc::too_large;
}

// The digits without leading zeros ("0" for zero).
[[nodiscard]] std::string_view significant(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view{"0"} : digits.substr(first);
}

[[nodiscard]] bool fits_64_bits(std::string_view digits) {
  constexpr std::string_view max = "18446744073709551615";
  const auto s = significant(digits);
  return s.size() < max.size() || (s.size() == max.size() && s <= max);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  const auto parsed = iteragpu::parse_unsigned(text);
  const bool well_formed = !text.empty() && std::all_of(text.begin(), text.end(), iteragpu::is_digit);
  if (parsed) {
    fuzz::require(well_formed && fits_64_bits(text), "accepted only digits that fit 64 bits");
    fuzz::require(std::to_string(parsed.value()) == significant(text), "the value is the digits in base 10");
  } else {
    fuzz::require(!well_formed || !fits_64_bits(text), "rejected only bad or too large input");
    fuzz::require(parsed.error() == expected_error(text), "the error names the first thing wrong");
  }
  return 0;
}
