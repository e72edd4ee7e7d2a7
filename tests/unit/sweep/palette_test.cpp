// Series styles: seven colours, then the same colours with the next marker,
// so that 49 series are told apart.
#include <iteragpu/sweep/palette.hpp>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_palette)

BOOST_AUTO_TEST_CASE(styles_turn_the_marker_after_each_round_of_colours) {
  BOOST_TEST(sw::distinct_styles == 49U);  // 7 colours x 7 markers
  const auto first = sw::style_of(0);
  BOOST_TEST(first.colour == sw::okabe_ito[0]);
  BOOST_TEST((first.marker == sw::series_shapes[0]));
  // Series 7: colour 7 % 7 = 0 again, marker turned by 7 / 7 = 1.
  const auto eighth = sw::style_of(7);
  BOOST_TEST(eighth.colour == sw::okabe_ito[0]);
  BOOST_TEST((eighth.marker == sw::series_shapes[1]));
  // Series 9: colour 2, marker (2 + 1) % 7 = 3.
  BOOST_TEST(sw::style_of(9).colour == sw::okabe_ito[2]);
  BOOST_TEST((sw::style_of(9).marker == sw::series_shapes[3]));
  // After 49 the styles come round again.
  BOOST_TEST(sw::style_of(49).colour == first.colour);
  BOOST_TEST((sw::style_of(49).marker == first.marker));
}

BOOST_AUTO_TEST_SUITE_END()
