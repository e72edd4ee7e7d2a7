// Twin of decimal_from_double.fail.cpp: the same comparison between decimals.
#include <iteragpu/units.hpp>

constexpr auto from_text = iteragpu::exact_decimal::from_integer(1) == iteragpu::exact_decimal::parse("0.5").value();
static_assert(!from_text);
