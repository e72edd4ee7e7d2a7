// sweep.hpp brings the sweep's lists, progress and palette.
#include <iteragpu/sweep.hpp>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_umbrella)

BOOST_AUTO_TEST_CASE(names_of_several_sweep_headers) {
  BOOST_TEST(sw::parse_size_list("1..4").value().size() == 3U);  // 1, 2, 4
  BOOST_TEST(sw::format_duration(3723) == "1h02m03s");
  BOOST_TEST(sw::style_of(0).colour == sw::okabe_ito[0]);
}

BOOST_AUTO_TEST_SUITE_END()
