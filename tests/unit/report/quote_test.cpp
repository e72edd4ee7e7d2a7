// The notes under a quote: the illustrative prices named first where the
// catalog is illustrative, and the unit cost's absence said.
#include <iteragpu/report/quote.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;

BOOST_AUTO_TEST_SUITE(quote_notes)

BOOST_AUTO_TEST_CASE(the_notes_follow_the_catalog_and_the_unit_cost) {
  iteragpu::pricing::package_quote q{};
  q.snapshot.provider = "acme";
  const std::vector<std::string_view> plain{report::availability_note, report::billing_note, report::no_unit_cost_note};
  BOOST_TEST(report::quote_notes(q) == plain, boost::test_tools::per_element());
  q.snapshot.provider = std::string(iteragpu::pricing::illustrative_provider);
  const auto notes = report::quote_notes(q);
  BOOST_TEST_REQUIRE(notes.size() == 4U);
  BOOST_TEST(notes.front() == report::illustrative_note);
  BOOST_TEST(notes.back() == report::no_unit_cost_note);
}

BOOST_AUTO_TEST_SUITE_END()
