// The words of package searches: counts with their noun, and tables whose
// columns are as wide as their widest cell.
#include <iteragpu/report/fit.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>  // the header declares the JSON types only when the bodies are compiled once
#include <boost/test/unit_test.hpp>

namespace detail = iteragpu::report::detail;

BOOST_AUTO_TEST_SUITE(fit_words)

BOOST_AUTO_TEST_CASE(counts_take_the_singular_only_for_one) {
  BOOST_TEST(detail::plural(1, "GPU per lot", "GPUs per lot") == "1 GPU per lot");
  BOOST_TEST(detail::plural(0, "lot", "lots") == "0 lots");
  BOOST_TEST(detail::plural(8, "lot", "lots") == "8 lots");
  BOOST_TEST(std::string(detail::json_text("b200").c_str()) == "b200");
}

BOOST_AUTO_TEST_SUITE_END()
