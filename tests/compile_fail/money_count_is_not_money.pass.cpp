// Twin of money_count_is_not_money.fail.cpp: a price times a count of lots.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto price = iteragpu::pricing::money::from_cents(std::uint64_t{168000});
constexpr auto total = price * std::uint64_t{2};
static_assert(total.cents() == 336000);
