// expect: (use of deleted function|deleted)
// Money has no way in from a signed integer: -1 would wrap to 2^64 - 1 cents.
#include <iteragpu/pricing/money.hpp>

constexpr auto negative = iteragpu::money::from_cents(-1);
