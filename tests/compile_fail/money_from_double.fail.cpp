// expect: (use of deleted function|deleted)
// Money has no way in from floating point: 12.5 cents cannot be written.
#include <iteragpu/pricing/money.hpp>

const auto from_double = iteragpu::pricing::money::from_cents(12.5);
