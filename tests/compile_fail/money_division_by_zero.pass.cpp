// Twin of money_division_by_zero.fail.cpp: the same total over 3 results.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto unit_cost = iteragpu::pricing::divide(iteragpu::pricing::money::from_cents(std::uint64_t{336000}), 3U);
static_assert(unit_cost.text() == "112000.0000");
