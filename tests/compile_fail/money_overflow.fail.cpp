// expect: non-.*constexpr.* function .*money_constant_overflows_64_bits
// A total past 64 bits of cents cannot be a constant.
#include <cstdint>
#include <limits>

#include <iteragpu/pricing/money.hpp>

constexpr auto lot = iteragpu::pricing::money::from_cents(std::numeric_limits<std::uint64_t>::max() / 2 + 1);
constexpr auto total = lot * 2U;
