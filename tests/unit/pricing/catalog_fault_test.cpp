// What a catalog's reader says is wrong: one fault per kind of mistake.
#include <iteragpu/pricing/catalog_fault.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>

namespace {

using iteragpu::pricing::catalog_errc;

// The catalog's header and one row (line 2) as given.
catalog_errc fault_of(const std::string& row) {
  const std::string text = std::string(iteragpu::pricing::catalog_header) + "\n" + row + "\n";
  const auto parsed = iteragpu::pricing::parse_catalog(text, "c.csv");
  BOOST_TEST_REQUIRE(!parsed.has_value());
  return parsed.error().code;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_faults)

BOOST_AUTO_TEST_CASE(each_mistake_of_a_row_has_its_fault) {
  BOOST_TEST((fault_of("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,5,72000") == catalog_errc::days));
  BOOST_TEST((fault_of("acme,EUR,2026-09-24,b200,NVIDIA B200,180,2,3,72000") == catalog_errc::currency));
  BOOST_TEST((fault_of("acme,USD,2026-02-30,b200,NVIDIA B200,180,2,3,72000") == catalog_errc::date_format));
  BOOST_TEST((fault_of("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,3") == catalog_errc::row_field_count));
  BOOST_TEST((fault_of("acme,USD,2026-09-24,b200,NVIDIA B200,180,0,3,72000") == catalog_errc::gpus_per_lot));
  const auto empty = iteragpu::pricing::parse_catalog("", "c.csv");
  BOOST_TEST_REQUIRE(!empty.has_value());
  BOOST_TEST((empty.error().code == catalog_errc::empty_file));
}

BOOST_AUTO_TEST_SUITE_END()
