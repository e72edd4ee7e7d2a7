// The catalog's words under their earlier name: the same functions as
// pricing/catalog_errors.hpp's, where they live.
#include <iteragpu/report/catalog_errors.hpp>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>

BOOST_AUTO_TEST_SUITE(catalog_error_words_in_report)

BOOST_AUTO_TEST_CASE(the_report_names_are_the_catalogs_own_words) {
  const auto parsed = iteragpu::pricing::parse_catalog("", "c.csv");
  BOOST_TEST_REQUIRE(!parsed.has_value());
  BOOST_TEST(iteragpu::report::describe(parsed.error()) == iteragpu::pricing::describe(parsed.error()));
  BOOST_TEST(iteragpu::report::found_words(parsed.error()) == "an empty file");
}

BOOST_AUTO_TEST_SUITE_END()
