// core.hpp brings the arithmetic and text of the library: checked sums,
// parsing, units and the version, with nothing else to include.
#include <iteragpu/core.hpp>

#include <cstdint>
#include <string>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(core_umbrella)

BOOST_AUTO_TEST_CASE(the_core_names_work_together) {
  // "1073741824" parsed, doubled without overflow: 2^31 bytes, 2 GiB.
  const auto bytes = iteragpu::parse_unsigned("1073741824").value();
  const auto doubled = iteragpu::checked_add<std::uint64_t>(bytes, bytes).value();
  BOOST_TEST(iteragpu::to_gib(iteragpu::byte_count{doubled}).to_string() == "2");
  BOOST_TEST(std::string(iteragpu::library_name) == "iteragpu");
  BOOST_TEST(iteragpu::quoted("a b") == "'a b'");
}

BOOST_AUTO_TEST_SUITE_END()
