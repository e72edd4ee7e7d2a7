// pricing.hpp brings the catalog, money and the words of a catalog's faults.
#include <iteragpu/pricing.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(pricing_umbrella)

BOOST_AUTO_TEST_CASE(names_of_several_pricing_headers) {
  const auto parsed = iteragpu::pricing::parse_catalog("", "c.csv");
  BOOST_TEST_REQUIRE(!parsed.has_value());
  BOOST_TEST((parsed.error().code == iteragpu::pricing::catalog_errc::empty_file));
  BOOST_TEST(iteragpu::pricing::describe(parsed.error()).starts_with("c.csv:1:1: "));
  BOOST_TEST(iteragpu::pricing::money::from_cents(1234U).to_string() == "12.34");
}

BOOST_AUTO_TEST_SUITE_END()
