// The weights' estimate at run time: the same figures as the constant one,
// and an overflow reported rather than wrapped.
#include <iteragpu/memory/estimate.hpp>

#include <cstdint>
#include <limits>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(estimate)

BOOST_AUTO_TEST_CASE(runtime_estimate_matches_the_constant_one) {
  // Values from a run-time source, not a constant expression.
  volatile std::uint64_t parameters = 7'000'000'000;
  volatile std::uint64_t bits = 16;
  const auto e = iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{parameters},
                                                    iteragpu::memory::storage_bits{bits});
  BOOST_REQUIRE(e.has_value());
  BOOST_TEST(e->bytes_per_parameter == 2U);
  BOOST_TEST(e->weight_bytes.value == 14'000'000'000U);
  BOOST_TEST(e->weight_gib().to_string() == "13.03851604461669921875");
  BOOST_TEST(e->weight_gb().to_string() == "14");
}

BOOST_AUTO_TEST_CASE(runtime_overflow_is_an_error_instead_of_a_wrapped_count) {
  volatile std::uint64_t parameters = std::numeric_limits<std::uint64_t>::max() / 2 + 1;
  const auto e = iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{parameters},
                                                    iteragpu::memory::storage_bits{16});
  BOOST_REQUIRE(!e.has_value());
  BOOST_TEST((e.error() == iteragpu::memory::estimate_errc::weight_bytes_overflow));
  volatile std::uint64_t reserve = std::numeric_limits<std::uint64_t>::max();
  const auto total = iteragpu::memory::estimate_memory(iteragpu::memory::parameter_count{8'589'934'592},
                                                       iteragpu::memory::storage_bits{8},
                                                       iteragpu::exact_decimal::from_integer(reserve));
  BOOST_REQUIRE(!total.has_value());
  BOOST_TEST((total.error() == iteragpu::memory::estimate_errc::total_overflow));
}

BOOST_AUTO_TEST_SUITE_END()
