// expect: non-.*constexpr.* function .*money_constant_is_negative
// Money has no way in from a negative constant: -1 would wrap to 2^64 - 1 cents.
#include <iteragpu/pricing/money.hpp>

constexpr auto negative = iteragpu::pricing::money::from_cents(-1);
