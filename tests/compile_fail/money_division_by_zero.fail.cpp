// expect: non-.*constexpr.* function .*money_constant_divides_by_zero
// A unit cost over zero accepted results cannot be a constant.
#include <cstdint>

#include <iteragpu/pricing/money.hpp>

constexpr auto unit_cost = iteragpu::pricing::divide(iteragpu::pricing::money::from_cents(std::uint64_t{336000}), 0U);
