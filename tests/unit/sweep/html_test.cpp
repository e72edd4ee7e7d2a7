// The cells of index.html: text escaped for HTML, the reason column marked,
// empty cells empty.
#include <iteragpu/sweep/html.hpp>

#include <boost/test/unit_test.hpp>

namespace detail = iteragpu::sweep::detail;

BOOST_AUTO_TEST_SUITE(sweep_html)

BOOST_AUTO_TEST_CASE(cells_are_escaped_and_styled_by_their_column) {
  const detail::page_column name{0, "name", detail::cell_style::text};
  const detail::page_column reason{4, "reason", detail::cell_style::text};
  const detail::page_column count{1, "count", detail::cell_style::number};
  BOOST_TEST(detail::page_cell("", name) == "<td></td>");
  BOOST_TEST(detail::page_cell("a<b & c", name) == "<td class=\"text\">a&lt;b &amp; c</td>");
  BOOST_TEST(detail::page_cell("out of memory", reason) == "<td class=\"reason\">out of memory</td>");
  BOOST_TEST(detail::page_cell("12", count) == "<td>12</td>");
}

BOOST_AUTO_TEST_SUITE_END()
