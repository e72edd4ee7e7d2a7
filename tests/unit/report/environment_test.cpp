// The environment report as JSON: absent values are null, the device asked
// for with its reason.
#include <iteragpu/report/environment.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/gpu_runtime.hpp>

namespace report = iteragpu::report;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(environment_json)

BOOST_AUTO_TEST_CASE(absent_values_are_null_and_the_reason_is_kept) {
  BOOST_TEST(report::optional_json(std::optional<std::string>{}).is_null());
  BOOST_TEST(report::optional_json(std::optional<std::string>{"2.11.0"}).as_string() == "2.11.0");
  BOOST_TEST(report::optional_json(std::optional<std::uint64_t>{42}).as_uint64() == 42U);
  const auto e = mem::unavailable_runtime{mem::built_without_libtorch}.environment(mem::device_index{0});
  const auto o = report::to_json(e);
  BOOST_TEST(o.at("libtorch").as_object().at("available").as_bool() == false);
  BOOST_TEST(o.at("libtorch").as_object().at("version").is_null());
  BOOST_TEST(o.at("gpus").as_array().empty());
  BOOST_TEST(o.at("cuda_build").is_null());
}

BOOST_AUTO_TEST_SUITE_END()
