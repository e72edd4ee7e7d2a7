#ifndef ITERAGPU_IMPL_UNITS_IPP
#define ITERAGPU_IMPL_UNITS_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/units.hpp"

// The bodies of the functions that <iteragpu/units.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE std::string gib_two_places(byte_count bytes, bool round_up) {
  constexpr std::uint64_t mask = gibibyte - 1U;
  constexpr std::uint64_t hundred = 100;
  std::uint64_t whole = bytes.value >> 30U;
  const std::uint64_t scaled = (bytes.value & mask) * hundred;
  std::uint64_t hundredths = scaled >> 30U;
  if (round_up && (scaled & mask) != 0U) {
    ++hundredths;
    if (hundredths == hundred) {  // whole < 2^34 here, so the carry cannot overflow
      hundredths = 0;
      ++whole;
    }
  }
  return to_decimal_string(whole) + (hundredths < 10U ? ".0" : ".") + to_decimal_string(hundredths);
}

}  // namespace iteragpu

#endif  // ITERAGPU_IMPL_UNITS_IPP
