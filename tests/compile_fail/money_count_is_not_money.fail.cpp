// expect: (no match|could not convert|cannot convert|conversion from)
// A count is not money: adding lots to a price does not compile.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto price = iteragpu::pricing::money::from_cents(std::uint64_t{168000});
constexpr auto wrong = price + std::uint64_t{2};
