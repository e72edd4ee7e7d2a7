// A catalog's fault in words: FILE:LINE:COLUMN, what was found, and what is
// accepted there.
#include <iteragpu/pricing/catalog_errors.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>

namespace pricing = iteragpu::pricing;

BOOST_AUTO_TEST_SUITE(catalog_error_words)

BOOST_AUTO_TEST_CASE(a_fault_is_its_place_what_was_found_and_what_is_accepted) {
  const std::string text =
      std::string(iteragpu::pricing::catalog_header) + "\nacme,USD,2026-09-24,b200,NVIDIA B200,180,2,5,72000\n";
  const auto parsed = iteragpu::pricing::parse_catalog(text, "c.csv");
  BOOST_TEST_REQUIRE(!parsed.has_value());
  const auto& e = parsed.error();
  BOOST_TEST(pricing::expected_words(e) == "3, 7 or 30 (days of a package)");
  BOOST_TEST(pricing::found_words(e).find('5') != std::string::npos);
  // Days start at byte 44 of line 2 (text_position_test counts them).
  BOOST_TEST(pricing::describe(e) ==
             "c.csv:2:44: " + pricing::found_words(e) + "; expected " + pricing::expected_words(e));
}

BOOST_AUTO_TEST_SUITE_END()
