// measurement.hpp brings both the memory measurement and the sweep.
#include <iteragpu/measurement.hpp>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(measurement_umbrella)

BOOST_AUTO_TEST_CASE(names_of_memory_and_sweep) {
  BOOST_TEST(iteragpu::memory::name_of(iteragpu::memory::phase_kind::warm_forward) == "warm_forward");
  BOOST_TEST(iteragpu::sweep::fit_to("abcdef", 3) == "abc");
}

BOOST_AUTO_TEST_SUITE_END()
