// memory.hpp brings the measurement's vocabulary: devices, dtypes and the
// estimate, among the rest.
#include <iteragpu/memory.hpp>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(memory_umbrella)

BOOST_AUTO_TEST_CASE(names_of_several_memory_headers) {
  BOOST_TEST(mem::parse_device("cuda:3").value().value == 3);
  BOOST_TEST(mem::bytes_per_element(mem::parse_element_type("float16").value()) == 2U);
  // 10^9 parameters of 16 bits: 2 x 10^9 bytes.
  const auto e = mem::estimate_weights(mem::parameter_count{1'000'000'000}, mem::storage_bits{16});
  BOOST_TEST(e.value().weight_bytes.value == 2'000'000'000U);
}

BOOST_AUTO_TEST_SUITE_END()
