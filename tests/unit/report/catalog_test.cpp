// A catalog's GPUs by id, as the messages list them.
#include <iteragpu/report/catalog.hpp>

#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>

namespace report = iteragpu::report;

BOOST_AUTO_TEST_SUITE(catalog_words)

BOOST_AUTO_TEST_CASE(gpu_ids_are_listed_with_commas) {
  std::string text(iteragpu::pricing::catalog_header);
  text += '\n';
  for (const char* gpu : {"b200,NVIDIA B200,180", "h100,NVIDIA H100,80"}) {
    for (const char* package : {",1,3,100\n", ",1,7,200\n", ",1,30,800\n"}) {
      text += std::string("acme,USD,2026-09-24,") + gpu + package;
    }
  }
  const auto catalog = iteragpu::pricing::parse_catalog(text, "c.csv");
  BOOST_TEST_REQUIRE(catalog.has_value());
  BOOST_TEST(report::gpu_ids(*catalog) == "b200, h100");
  // The table names both GPUs and the currency of the lot price.
  std::ostringstream table;
  report::write_catalog_table(table, *catalog, "c.csv");
  BOOST_TEST(table.str().find("lot price (USD)") != std::string::npos);
  BOOST_TEST(table.str().find("NVIDIA H100") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
