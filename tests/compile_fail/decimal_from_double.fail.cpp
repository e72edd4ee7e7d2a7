// expect: (no match|cannot convert|could not convert|invalid conversion)
// An exact decimal has no way in from floating point.
#include <iteragpu/units.hpp>

constexpr auto from_double = iteragpu::exact_decimal::from_integer(1) == 0.5;
