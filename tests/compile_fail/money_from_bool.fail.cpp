// expect: (use of deleted function|deleted)
// true is no count of cents, though it converts to 1.
#include <iteragpu/pricing/money.hpp>

constexpr auto wrong = iteragpu::pricing::money::from_cents(true);
