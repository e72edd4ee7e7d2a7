// A measurement's rows and figures as JSON: the six byte counts by name, the
// phase and repeat, absent values as null.
#include <iteragpu/report/measurement.hpp>

#include <cstdint>
#include <optional>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(measurement_json)

BOOST_AUTO_TEST_CASE(a_row_has_its_phase_repeat_and_six_byte_counts) {
  mem::phase_row row;
  row.phase = mem::phase_kind::warm_forward;
  row.repeat = 2;
  row.peak_reserved_bytes = 20'971'520;
  row.end_allocated_bytes = 6'291'456;
  const auto o = report::byte_fields_json(row);
  BOOST_TEST(o.size() == 8U);  // phase, repeat and the six counts
  BOOST_TEST(o.at("phase").as_string() == "warm_forward");
  BOOST_TEST(o.at("repeat").to_number<int>() == 2);
  BOOST_TEST(o.at("peak_reserved_bytes").to_number<std::uint64_t>() == 20'971'520U);
  BOOST_TEST(o.at("end_allocated_bytes").to_number<std::uint64_t>() == 6'291'456U);
  BOOST_TEST(o.at("baseline_reserved_bytes").to_number<std::uint64_t>() == 0U);
  mem::phase_row load;  // model_load has no repeat
  BOOST_TEST(report::byte_fields_json(load).at("repeat").is_null());
}

BOOST_AUTO_TEST_CASE(workspaces_and_optional_counts) {
  const auto w = report::workspaces_json(
      mem::prediction::blas_workspaces{iteragpu::byte_count{33'554'432}, iteragpu::byte_count{1'048'576}});
  BOOST_TEST(w.at("cublas_bytes").to_number<std::uint64_t>() == 33'554'432U);
  BOOST_TEST(w.at("cublaslt_bytes").to_number<std::uint64_t>() == 1'048'576U);
  BOOST_TEST(report::optional_json(std::optional<std::uint64_t>{}, nullptr).is_null());
  BOOST_TEST(report::optional_json(std::optional<std::uint64_t>{7}, nullptr).to_number<std::uint64_t>() == 7U);
}

BOOST_AUTO_TEST_SUITE_END()
