// A fault's place in a catalog: its line and the byte it starts at on that
// line, both from 1.
#include <iteragpu/pricing/text_position.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/pricing/catalog.hpp>

namespace {

using iteragpu::pricing::text_position;

text_position position_of(const std::string& row) {
  const std::string text = std::string(iteragpu::pricing::catalog_header) + "\n" + row + "\n";
  const auto parsed = iteragpu::pricing::parse_catalog(text, "c.csv");
  BOOST_TEST_REQUIRE(!parsed.has_value());
  return parsed.error().position;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(text_positions)

BOOST_AUTO_TEST_CASE(a_position_is_the_line_and_the_first_byte_of_the_field) {
  BOOST_TEST((text_position{} == text_position{1, 1}));
  // "acme," is bytes 1-5: the currency starts at byte 6 of line 2.
  BOOST_TEST((position_of("acme,EUR,2026-09-24,b200,NVIDIA B200,180,2,3,72000") == text_position{2, 6}));
  // acme, (5) USD, (9) 2026-09-24, (20) b200, (25) NVIDIA B200, (37) 180, (41) 2, (43): days at byte 44.
  BOOST_TEST((position_of("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,5,72000") == text_position{2, 44}));
  BOOST_TEST(!(text_position{2, 44} == text_position{44, 2}));
}

BOOST_AUTO_TEST_SUITE_END()
