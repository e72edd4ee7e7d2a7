// expect: (use of deleted function|deleted)
// A price times a signed factor does not compile: -2 lots are no count.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto price = iteragpu::pricing::money::from_cents(std::uint64_t{168000});
const auto wrong = price * -2;
