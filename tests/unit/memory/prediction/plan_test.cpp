// A plan's need: the predicted peak reserved plus the memory outside the
// allocator; and the dimensions a search may grow.
#include <iteragpu/memory/prediction/plan.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;
namespace pred = iteragpu::memory::prediction;

BOOST_AUTO_TEST_SUITE(prediction_plan)

BOOST_AUTO_TEST_CASE(the_need_is_the_peak_plus_the_outside_memory_unless_past_64_bits) {
  std::vector<mem::phase_row> rows(3);
  rows[0].peak_reserved_bytes = 2'097'152;
  rows[1].peak_reserved_bytes = 23'068'672;  // the largest: 22 MiB
  rows[2].peak_reserved_bytes = 20'971'520;
  BOOST_TEST(pred::peak_reserved(rows) == 23'068'672U);
  const auto need = pred::need_of(rows, iteragpu::byte_count{1'000'000}).value();
  BOOST_TEST(need.bytes.value == 24'068'672U);
  BOOST_TEST(need.source == std::string(pred::plan_need_source));
  // 22 MiB + (2^64 - 1) does not fit.
  BOOST_TEST(!pred::need_of(rows, iteragpu::byte_count{UINT64_MAX}).has_value());
}

BOOST_AUTO_TEST_CASE(dimensions_by_name_and_in_the_shape) {
  BOOST_TEST((pred::parse_plan_dimension("context") == pred::plan_dimension::context));
  BOOST_TEST(!pred::parse_plan_dimension("depth").has_value());
  BOOST_TEST(pred::name_of(pred::plan_dimension::width) == "width");
  mem::synthetic_shape shape{2, 128, 64};
  pred::dimension_of(shape, pred::plan_dimension::context) = 256;
  pred::dimension_of(shape, pred::plan_dimension::batch) *= 4;
  BOOST_TEST((shape == mem::synthetic_shape{8, 256, 64}));
}

BOOST_AUTO_TEST_SUITE_END()
