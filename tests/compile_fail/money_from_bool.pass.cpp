// Twin of money_from_bool.fail.cpp: one cent written as a count.
#include <iteragpu/pricing/money.hpp>

constexpr auto one_cent = iteragpu::pricing::money::from_cents(1U);
static_assert(one_cent.cents() == 1U);
