// Twin of money_from_signed_runtime.fail.cpp: the same at run time from an
// unsigned count, and the signed constant of the issue.
#include <iteragpu/pricing/money.hpp>

[[nodiscard]] iteragpu::pricing::money from_unsigned(unsigned cents) {
  return iteragpu::pricing::money::from_cents(cents);
}
constexpr auto lot = iteragpu::pricing::money::from_cents(168000);
static_assert(lot.cents() == 168000U);
