// The six byte counts of a row, in the order their names are listed: the
// prediction's check compares them field by field.
#include <iteragpu/memory/prediction/check.hpp>

#include <cstddef>
#include <string_view>

#include <boost/test/unit_test.hpp>

namespace pred = iteragpu::memory::prediction;

BOOST_AUTO_TEST_SUITE(prediction_check)

BOOST_AUTO_TEST_CASE(byte_fields_come_in_the_order_of_their_names) {
  iteragpu::memory::phase_row row;
  row.baseline_allocated_bytes = 1;
  row.baseline_reserved_bytes = 2;
  row.end_allocated_bytes = 3;
  row.end_reserved_bytes = 4;
  row.peak_allocated_bytes = 5;
  row.peak_reserved_bytes = 6;
  const auto fields = pred::byte_fields(row);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    BOOST_TEST(fields[i] == i + 1U);
  }
  BOOST_TEST(pred::byte_field_names[0] == "baseline_allocated_bytes");
  BOOST_TEST(pred::byte_field_names[5] == "peak_reserved_bytes");
}

BOOST_AUTO_TEST_SUITE_END()
