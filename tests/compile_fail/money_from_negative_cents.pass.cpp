// Twin of money_from_negative_cents.fail.cpp: a signed constant that is not
// negative is a count of cents, its sign checked when compiled.
#include <iteragpu/pricing/money.hpp>

constexpr auto one_cent = iteragpu::pricing::money::from_cents(1);
static_assert(one_cent.cents() == 1);
