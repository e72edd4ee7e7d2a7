// The estimator's arithmetic, pinned at compile time.
#include <cstdint>
#include <limits>

#include <iteragpu/memory/estimate.hpp>

namespace {

using iteragpu::memory::bytes_per_parameter;
using iteragpu::memory::estimate_errc;
using iteragpu::memory::estimate_weights;
using iteragpu::exact_decimal;
using iteragpu::memory::parameter_count;
using iteragpu::memory::storage_bits;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

// Bits are rounded up to whole bytes.
static_assert(bytes_per_parameter(storage_bits{1}) == 1);
static_assert(bytes_per_parameter(storage_bits{4}) == 1);
static_assert(bytes_per_parameter(storage_bits{8}) == 1);
static_assert(bytes_per_parameter(storage_bits{9}) == 2);
static_assert(bytes_per_parameter(storage_bits{12}) == 2);
static_assert(bytes_per_parameter(storage_bits{16}) == 2);
static_assert(bytes_per_parameter(storage_bits{32}) == 4);
static_assert(bytes_per_parameter(storage_bits{64}) == 8);
static_assert(bytes_per_parameter(storage_bits{65}) == 9);
static_assert(bytes_per_parameter(storage_bits{u64_max}) == u64_max / 8 + 1);

// One parameter.
static_assert(estimate_weights(parameter_count{1}, storage_bits{1})->weight_bytes.value == 1);
static_assert(estimate_weights(parameter_count{1}, storage_bits{65})->weight_bytes.value == 9);
static_assert(estimate_weights(parameter_count{1}, storage_bits{8})->weight_gib().text() ==
              "0.000000000931322574615478515625");
static_assert(estimate_weights(parameter_count{1}, storage_bits{8})->weight_gb().text() == "0.000000001");

// Seven billion parameters at every width the issue names.
constexpr parameter_count seven_billion{7'000'000'000};
static_assert(estimate_weights(seven_billion, storage_bits{4})->weight_bytes.value == 7'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{8})->weight_bytes.value == 7'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{12})->weight_bytes.value == 14'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{16})->weight_bytes.value == 14'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{32})->weight_bytes.value == 28'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{64})->weight_bytes.value == 56'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{65})->weight_bytes.value == 63'000'000'000);
static_assert(estimate_weights(seven_billion, storage_bits{16})->weight_gib().text() == "13.03851604461669921875");
static_assert(estimate_weights(seven_billion, storage_bits{16})->weight_gb().text() == "14");
static_assert(estimate_weights(seven_billion, storage_bits{65})->weight_gib().text() == "58.673322200775146484375");

// The reserve is added exactly.
static_assert(iteragpu::memory::estimate_memory(seven_billion, storage_bits{16}, exact_decimal::from_integer(4))
                  ->total_gib.text() == "17.03851604461669921875");
static_assert(iteragpu::memory::estimate_memory(seven_billion, storage_bits{16},
                                                exact_decimal::parse("0.96148395538330078125").value())
                  ->total_gib.text() == "14");

// The largest products that fit, and the first ones that do not.
static_assert(estimate_weights(parameter_count{u64_max}, storage_bits{8})->weight_bytes.value == u64_max);
static_assert(estimate_weights(parameter_count{u64_max}, storage_bits{8})->weight_gib().text() ==
              "17179869183.999999999068677425384521484375");
static_assert(estimate_weights(parameter_count{u64_max / 2}, storage_bits{16})->weight_bytes.value == u64_max - 1);
static_assert(estimate_weights(parameter_count{u64_max / 2 + 1}, storage_bits{16}).error() ==
              estimate_errc::weight_bytes_overflow);
static_assert(estimate_weights(parameter_count{u64_max / 9}, storage_bits{65})->weight_bytes.value ==
              18'446'744'073'709'551'609U);
static_assert(estimate_weights(parameter_count{u64_max / 9 + 1}, storage_bits{65}).error() ==
              estimate_errc::weight_bytes_overflow);
static_assert(estimate_weights(parameter_count{8}, storage_bits{u64_max}).error() ==
              estimate_errc::weight_bytes_overflow);

// Zero is not a count.
static_assert(estimate_weights(parameter_count{0}, storage_bits{16}).error() == estimate_errc::zero_parameters);
static_assert(estimate_weights(parameter_count{1}, storage_bits{0}).error() == estimate_errc::zero_bits);

// The shifts of exact_decimal are checked at compile time: each halving adds
// one decimal digit, and 10^19 is the largest power of ten in 64 bits.
template <unsigned Shift>
constexpr bool binary_shift_compiles = requires { exact_decimal::from_binary_fraction<Shift>(1); };
template <unsigned Exponent>
constexpr bool decimal_exponent_compiles = requires { exact_decimal::from_decimal_fraction<Exponent>(1); };
static_assert(binary_shift_compiles<exact_decimal::max_fraction_digits>);
static_assert(!binary_shift_compiles<exact_decimal::max_fraction_digits + 1>);
static_assert(decimal_exponent_compiles<19>);
static_assert(!decimal_exponent_compiles<20>);
static_assert(exact_decimal::from_binary_fraction<40>(1).text() == "0.0000000000009094947017729282379150390625");
static_assert(exact_decimal::from_binary_fraction<0>(7).text() == "7");
static_assert(exact_decimal::from_decimal_fraction<19>(u64_max).text() == "1.8446744073709551615");
static_assert(exact_decimal::from_decimal_fraction<0>(7).text() == "7");

// Exact decimals: parsing and addition.
static_assert(exact_decimal::parse("4").value() == exact_decimal::from_integer(4));
static_assert(exact_decimal::parse("4.500").value().text() == "4.5");
static_assert(exact_decimal::parse("0.0").value().text() == "0");
static_assert(exact_decimal::parse("-1").error() == iteragpu::decimal_errc::malformed);
static_assert(exact_decimal::parse("1e3").error() == iteragpu::decimal_errc::malformed);
static_assert(exact_decimal::parse(".5").error() == iteragpu::decimal_errc::malformed);
static_assert(exact_decimal::parse("5.").error() == iteragpu::decimal_errc::malformed);
static_assert(exact_decimal::parse(" 5").error() == iteragpu::decimal_errc::malformed);
static_assert(exact_decimal::parse("").error() == iteragpu::decimal_errc::empty);
static_assert(exact_decimal::parse("18446744073709551616").error() == iteragpu::decimal_errc::too_large);
static_assert(exact_decimal::parse("0.12345678901234567890123456789012345678901").error() ==
              iteragpu::decimal_errc::too_many_fraction_digits);
static_assert(checked_add(exact_decimal::parse("0.75").value(), exact_decimal::parse("0.25").value()).value() ==
              exact_decimal::from_integer(1));
static_assert(checked_add(exact_decimal::from_integer(u64_max), exact_decimal::parse("0.5").value()).has_value());
static_assert(!checked_add(exact_decimal::parse("18446744073709551615.5").value(), exact_decimal::parse("0.5").value())
                   .has_value());
static_assert(!checked_add(exact_decimal::from_integer(u64_max), exact_decimal::from_integer(1)).has_value());

}  // namespace
