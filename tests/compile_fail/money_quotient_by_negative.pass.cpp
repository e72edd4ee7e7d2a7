// Twin of money_quotient_by_negative.fail.cpp: the same over an unsigned count.
#include <iteragpu/pricing/money.hpp>

constexpr auto unit_cost =
    iteragpu::pricing::fractional_cents::quotient(iteragpu::pricing::money::from_cents(336000), 3U);
static_assert(unit_cost.value().text() == "112000.0000");
