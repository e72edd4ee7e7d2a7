// Boost.JSON's try_value_to() over the library's typed readers
// (tag_invoke in memory/files/), and the failure kinds as std::error_code
// (error_code.hpp). A converted value is taken out with value() after
// has_value(): g++ 13 at -O3 sees a null pointer in the unchecked
// operator* of boost::system::result (and so in value_to) and
// -Wnull-dereference fails the build.
#include <iteragpu/error_code.hpp>

#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/memory/files/measurement_file.hpp>
#include <iteragpu/memory/files/snapshot.hpp>

namespace {

using iteragpu::to_error_code;
using iteragpu::memory::measured_run;
using iteragpu::memory::measurement_read_errc;
using iteragpu::memory::snapshot;
using iteragpu::memory::snapshot_errc;

boost::json::value document_of(const std::string& path) {
  const auto text = iteragpu::read_whole_file(path);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + path);
  return boost::json::parse(*text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_conversion)

BOOST_AUTO_TEST_CASE(a_failure_kind_is_an_error_code_that_is_never_success) {
  const std::error_code first = to_error_code(measurement_read_errc::does_not_exist);
  BOOST_TEST(first.value() == 1);
  BOOST_TEST(static_cast<bool>(first));
  BOOST_TEST(std::string_view(first.category().name()) == "iteragpu.measurement");
  BOOST_TEST(first.message() == "does_not_exist");
  const std::error_code last = to_error_code(measurement_read_errc::bad_field);
  BOOST_TEST(last.value() == 14);
  BOOST_TEST(last.message() == "bad_field");
  // One category object per enumeration: equal codes compare equal, and
  // the same value of another enumeration does not.
  BOOST_TEST((first == to_error_code(measurement_read_errc::does_not_exist)));
  BOOST_TEST((first != to_error_code(snapshot_errc::not_an_object)));
  BOOST_TEST(std::string_view(to_error_code(snapshot_errc::unknown_value).category().name()) == "iteragpu.snapshot");
  BOOST_TEST(to_error_code(snapshot_errc::unknown_value).message() == "unknown_value");
}

BOOST_AUTO_TEST_CASE(try_value_to_reads_a_measurement_file_as_measurement_from_json_does) {
  const auto document = document_of(ITERAGPU_TEST_SOURCE_DIR "/data/fits/measurement-v2-outside.json");
  auto converted = boost::json::try_value_to<measured_run>(document);
  BOOST_TEST_REQUIRE(converted.has_value());
  const measured_run value = std::move(converted).value();
  const auto read = iteragpu::memory::measurement_from_json(document);
  BOOST_TEST_REQUIRE(read.has_value());
  BOOST_TEST(value.schema_version == read->schema_version);
  BOOST_TEST(value.phases.size() == 5U);
  BOOST_TEST(value.configuration.width == 16U);
  BOOST_TEST((value.seconds == read->seconds));
  BOOST_TEST((value.gpu_seconds == read->gpu_seconds));
  BOOST_TEST(iteragpu::memory::peak_reserved_bytes(value.phases) == 1900U);
  BOOST_TEST(
      (iteragpu::memory::need_of_measurement(value).value() == iteragpu::memory::need_of_measurement(*read).value()));
}

BOOST_AUTO_TEST_CASE(a_refused_measurement_file_is_the_kind_as_a_code) {
  const auto no_rows = boost::json::parse(R"({"schema_version": 2, "phases": []})");
  const auto refused = boost::json::try_value_to<measured_run>(no_rows);
  BOOST_TEST_REQUIRE(refused.has_error());
  BOOST_TEST((refused.error() == to_error_code(measurement_read_errc::bad_field)));
  BOOST_TEST(refused.error().message() == "bad_field");
  const auto plan = boost::json::parse(R"({"kind": "plan", "schema_version": 1})");
  BOOST_TEST(
      (boost::json::try_value_to<measured_run>(plan).error() == to_error_code(measurement_read_errc::other_output)));
  const auto version = boost::json::parse(R"({"schema_version": 3})");
  BOOST_TEST(boost::json::try_value_to<measured_run>(version).error().message() == "unknown_schema_version");
  const auto number = boost::json::try_value_to<measured_run>(boost::json::value(3));
  BOOST_TEST_REQUIRE(number.has_error());
  BOOST_TEST(number.error().message() == "top_level");
}

BOOST_AUTO_TEST_CASE(try_value_to_reads_a_snapshot_as_snapshot_from_does) {
  const auto document = boost::json::parse(R"({
    "segments": [{"device": 0, "address": 4096, "total_size": 2097152, "stream": 0, "segment_type": "small",
                  "blocks": [{"size": 1024, "requested_size": 1000, "state": "active_allocated"}]}],
    "device_traces": [[{"action": "segment_alloc", "addr": 4096, "size": 2097152, "stream": 0},
                       {"action": "alloc", "addr": 4096, "size": 1000, "stream": 0}]]
  })");
  auto converted = boost::json::try_value_to<snapshot>(document);
  BOOST_TEST_REQUIRE(converted.has_value());
  const snapshot value = std::move(converted).value();
  const auto read = iteragpu::memory::snapshot_from(document);
  BOOST_TEST_REQUIRE(read.has_value());
  BOOST_TEST((value == *read));
  BOOST_TEST_REQUIRE(value.devices.size() == 1U);
  BOOST_TEST(value.devices[0].events.size() == 2U);
  const auto weird = boost::json::parse(R"({"device_traces": [[{"action": "alloc", "addr": "x", "size": 5}]]})");
  BOOST_TEST((boost::json::try_value_to<snapshot>(weird).error() == to_error_code(snapshot_errc::wrong_type)));
}

BOOST_AUTO_TEST_SUITE_END()
