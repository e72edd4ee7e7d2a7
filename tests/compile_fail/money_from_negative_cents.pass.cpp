// Twin of money_from_negative_cents.fail.cpp: an unsigned count of cents.
#include <iteragpu/pricing/money.hpp>

constexpr auto one_cent = iteragpu::money::from_cents(1U);
static_assert(one_cent.cents() == 1);
