// Boost.JSON's try_value_to() over the library's typed readers
// (tag_invoke in memory/files/), and the failure kinds as std::error_code
// (error_code.hpp). A converted value is taken out with value() after
// has_value(): g++ 13 at -O3 sees a null pointer in the unchecked
// operator* of boost::system::result (and so in value_to) and
// -Wnull-dereference fails the build.
#include <iteragpu/error_code.hpp>

#include <string>
#include <utility>
#include <string_view>
#include <system_error>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/memory/files/measurement_file.hpp>
#include <iteragpu/memory/files/snapshot.hpp>

namespace {

using iteragpu::to_error_code;
using iteragpu::memory::measurement_file;
using iteragpu::memory::measurement_file_errc;
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
  const std::error_code first = to_error_code(measurement_file_errc::not_an_object);
  BOOST_TEST(first.value() == 1);
  BOOST_TEST(static_cast<bool>(first));
  BOOST_TEST(std::string_view(first.category().name()) == "iteragpu.measurement_file");
  BOOST_TEST(first.message() == "not_an_object");
  const std::error_code last = to_error_code(measurement_file_errc::field_not_bytes_or_null);
  BOOST_TEST(last.value() == 8);
  BOOST_TEST(last.message() == "field_not_bytes_or_null");
  // One category object per enumeration: equal codes compare equal, and
  // the same value of another enumeration does not.
  BOOST_TEST((first == to_error_code(measurement_file_errc::not_an_object)));
  BOOST_TEST((first != to_error_code(snapshot_errc::not_an_object)));
  BOOST_TEST(std::string_view(to_error_code(snapshot_errc::unknown_value).category().name()) == "iteragpu.snapshot");
  BOOST_TEST(to_error_code(snapshot_errc::unknown_value).message() == "unknown_value");
}

BOOST_AUTO_TEST_CASE(try_value_to_reads_a_measurement_file_as_read_measurement_file_does) {
  const auto document = document_of(ITERAGPU_TEST_SOURCE_DIR "/data/fits/measurement-v2-outside.json");
  auto converted = boost::json::try_value_to<measurement_file>(document);
  BOOST_TEST_REQUIRE(converted.has_value());
  const measurement_file value = std::move(converted).value();
  const auto read = iteragpu::memory::read_measurement_file(document);
  BOOST_TEST_REQUIRE(read.has_value());
  BOOST_TEST((value == *read));
  BOOST_TEST(value.phases.size() == 3U);
  BOOST_TEST(value.peak_reserved_bytes() == 1900U);
}

BOOST_AUTO_TEST_CASE(a_refused_measurement_file_is_the_kind_as_a_code) {
  const auto no_rows = boost::json::parse(R"({"schema_version": 2, "phases": []})");
  const auto refused = boost::json::try_value_to<measurement_file>(no_rows);
  BOOST_TEST_REQUIRE(refused.has_error());
  BOOST_TEST((refused.error() == to_error_code(measurement_file_errc::no_phases)));
  BOOST_TEST(refused.error().message() == "no_phases");
  const auto negative = boost::json::parse(R"({"schema_version": 1, "phases": [{"peak_reserved_bytes": -1}]})");
  BOOST_TEST((boost::json::try_value_to<measurement_file>(negative).error() ==
              to_error_code(measurement_file_errc::field_not_bytes)));
  const auto number = boost::json::try_value_to<measurement_file>(boost::json::value(3));
  BOOST_TEST_REQUIRE(number.has_error());
  BOOST_TEST(number.error().message() == "not_an_object");
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
