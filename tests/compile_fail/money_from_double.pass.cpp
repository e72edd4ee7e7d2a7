// Twin of money_from_double.fail.cpp: the same amount in whole cents, or
// from text.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto from_integer = iteragpu::pricing::money::from_cents(std::uint64_t{1250});
static_assert(from_integer == iteragpu::pricing::money::parse_dollars("12.50").value());
