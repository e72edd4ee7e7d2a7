// expect: (use of deleted function|deleted)
// A quotient over -1 would divide by 2^64 - 1; it does not compile.
#include <iteragpu/pricing/money.hpp>

constexpr auto wrong = iteragpu::pricing::fractional_cents::quotient(iteragpu::pricing::money::from_cents(336000), -1);
