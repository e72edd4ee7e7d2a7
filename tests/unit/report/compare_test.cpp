// The words of a document that is no measurement: what was expected, and
// the other outputs by the names a caller gives them.
#include <iteragpu/report/compare.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(compare_words)

BOOST_AUTO_TEST_CASE(documents_are_named_by_default_or_by_the_caller) {
  BOOST_TEST(report::expected_measurement() == "expected a measurement file (schema_version 1 or 2)");
  report::document_names names;
  names.measurement = "the baseline";
  names.quote = "a quote (calcul_forfaits --json)";
  BOOST_TEST(report::expected_measurement(names) == "expected the baseline");
  BOOST_TEST(report::describe(mem::other_output_kind::quote, names) == "a quote (calcul_forfaits --json)");
  BOOST_TEST(report::describe(mem::other_output_kind::plan) == "the prediction of a plan");
  BOOST_TEST(report::describe(mem::other_output_kind::environment) == "an environment report");
}

BOOST_AUTO_TEST_SUITE_END()
