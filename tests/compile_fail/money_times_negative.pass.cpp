// Twin of money_times_negative.fail.cpp: the same price times an unsigned count.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto price = iteragpu::pricing::money::from_cents(std::uint64_t{168000});
constexpr auto total = price * 2U;
static_assert(total.cents() == 336000);
