// Twin of money_overflow.fail.cpp: the largest total that fits.
#include <cstdint>
#include <limits>

#include <iteragpu/pricing/money.hpp>

constexpr auto lot = iteragpu::pricing::money::from_cents(std::numeric_limits<std::uint64_t>::max() / 2);
constexpr auto total = lot * 2U;
static_assert(total.cents() == std::numeric_limits<std::uint64_t>::max() - 1);
