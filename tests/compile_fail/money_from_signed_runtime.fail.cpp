// expect: (not usable in a constant expression|not a constant expression)
// A signed count of cents known only at run time does not compile: its sign
// could not be checked when compiled.
#include <iteragpu/pricing/money.hpp>

[[nodiscard]] iteragpu::pricing::money from_signed(int cents) { return iteragpu::pricing::money::from_cents(cents); }
