// A catalog of 100,002 rows (33,334 GPUs of three packages, 4.9 MB, well
// within the 16 MiB a catalog may have) is read whole. Its time is bounded
// generously by the CTest test that runs this suite alone (a few seconds
// allowed; bench/catalog_load measures it).
#include <cstddef>
#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>
#include <iteragpu/report/catalog_errors.hpp>

namespace {

// GPU ids g0 ... g33333, three rows each, the 30-day row first so that no
// GPU's rows arrive in the order of the durations.
std::string large_catalog(std::size_t gpus) {
  std::string text(iteragpu::pricing::catalog_header);
  text += '\n';
  for (std::size_t g = 0; g < gpus; ++g) {
    std::string row_start = "acme,USD,2026-09-24,g";
    row_start.append(std::to_string(g)).append(",GPU number ").append(std::to_string(g)).append(",80,1,");
    text.append(row_start).append("30,9000\n").append(row_start).append("3,1000\n").append(row_start).append("7,2000\n");
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_at_scale)

BOOST_AUTO_TEST_CASE(a_catalog_of_100002_rows_is_read_and_every_gpu_found) {
  const std::string text = large_catalog(33'334);
  BOOST_TEST(text.size() < std::size_t{16} << 20U);
  const auto parsed = iteragpu::pricing::parse_catalog(text, "large.csv");
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : iteragpu::report::describe(parsed.error())));
  BOOST_TEST(parsed->package_count() == 100'002U);
  BOOST_TEST(parsed->offers().size() == 33'334U);
  const auto* last = parsed->find("g33333");
  BOOST_REQUIRE(last != nullptr);
  BOOST_TEST(last->lines[0] == 100'002U);  // its 3-day row, the second of its three
  BOOST_TEST(last->lot_price(iteragpu::pricing::package_days{30})->cents() == 9000U);
  BOOST_TEST(parsed->find("g33334") == nullptr);
}

BOOST_AUTO_TEST_CASE(a_duplicate_near_the_end_of_a_large_catalog_is_found) {
  std::string text = large_catalog(33'334);
  text += "acme,USD,2026-09-24,g5,GPU number 5,80,1,7,2000\n";
  const auto parsed = iteragpu::pricing::parse_catalog(text, "large.csv");
  BOOST_REQUIRE(!parsed.has_value());
  BOOST_TEST(iteragpu::report::describe(parsed.error()) ==
             "large.csv:100004:42: a second g5 row for 7 days; expected one row per GPU and duration (the first is "
             "on line 19)");
}

BOOST_AUTO_TEST_SUITE_END()
