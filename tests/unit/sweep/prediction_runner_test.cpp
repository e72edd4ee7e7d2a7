// The runner of a predict-only sweep: every device reads the capacity
// asked for, and points finish in the order they started.
#include <iteragpu/sweep/prediction_runner.hpp>

#include <cstdint>
#include <optional>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;

BOOST_AUTO_TEST_SUITE(sweep_prediction_runner)

BOOST_AUTO_TEST_CASE(points_finish_in_the_order_they_started) {
  sw::prediction_runner<> runner(std::uint64_t{85'899'345'920}, std::uint64_t{1'000'000});
  BOOST_TEST(runner.host_available().value() == 1'000'000U);
  const auto reading = runner.read_device(iteragpu::memory::device_index{0});
  BOOST_TEST_REQUIRE(reading.has_value());
  BOOST_TEST(reading->total_bytes.value() == 85'899'345'920U);
  sw::sweep_point p;
  for (const std::size_t index : {4U, 1U, 7U}) {
    p.index = index;
    BOOST_TEST(runner.start(p, iteragpu::memory::device_index{0}).has_value());
  }
  BOOST_TEST(runner.wait_any().value().index == 4U);
  BOOST_TEST(runner.wait_any().value().index == 1U);
  runner.stop_all();
  BOOST_TEST(!runner.wait_any().has_value());  // 7 was dropped with stop_all
  BOOST_TEST(!runner.interrupted());
}

BOOST_AUTO_TEST_SUITE_END()
