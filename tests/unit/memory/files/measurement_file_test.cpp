// A measurement file refused before its fields: no file, no text, not JSON,
// a key twice, not an object, no or an unknown schema version.
#include <iteragpu/memory/files/measurement_file.hpp>

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;
using mem::measurement_read_errc;

namespace {

measurement_read_errc refusal_of(std::string_view text) {
  const auto run = mem::measurement_from_text(text);
  BOOST_TEST_REQUIRE(!run.has_value());
  return run.error().code;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measurement_file)

BOOST_AUTO_TEST_CASE(a_document_is_refused_at_the_first_problem_found) {
  BOOST_TEST((refusal_of("  \n") == measurement_read_errc::empty));
  BOOST_TEST((refusal_of("{\"schema_version\": ") == measurement_read_errc::not_json));
  BOOST_TEST((refusal_of(R"({"a": 1, "a": 2})") == measurement_read_errc::duplicate_key));
  BOOST_TEST((refusal_of("[1, 2]") == measurement_read_errc::top_level));
  BOOST_TEST((refusal_of("{}") == measurement_read_errc::no_schema_version));
  BOOST_TEST(mem::name_of(measurement_read_errc::duplicate_key) == "duplicate_key");
  const auto missing = mem::read_measurement("/nonexistent-iteragpu-folder/m.json");
  BOOST_TEST_REQUIRE(!missing.has_value());
  BOOST_TEST((missing.error().code == measurement_read_errc::does_not_exist));
}

BOOST_AUTO_TEST_CASE(a_refusal_carries_the_data_of_its_code_and_no_other) {
  // The text stops after 19 of its 19 bytes: the object is not closed.
  const auto cut = mem::measurement_from_text("{\"schema_version\": ");
  BOOST_TEST_REQUIRE(!cut.has_value());
  const auto* stop = cut.error().what.get_if<mem::parse_stop>();
  BOOST_TEST_REQUIRE(stop != nullptr);
  BOOST_TEST(static_cast<bool>(stop->reason));
  BOOST_TEST(stop->offset == 19U);
  BOOST_TEST(stop->size == 19U);
  BOOST_TEST((cut.error().stage == mem::measurement_read_stage::text));
  BOOST_TEST(cut.error().file.empty());
  // The second "b" of the inner object, at /a/b.
  const auto twice = mem::measurement_from_text(R"({"a": {"b": 1, "b": 2}})");
  BOOST_TEST_REQUIRE(!twice.has_value());
  BOOST_TEST((twice.error().what == mem::measurement_read_data{mem::repeated_key{"/a/b"}}));
  const auto array = mem::measurement_from_text("[1, 2]");
  BOOST_TEST_REQUIRE(!array.has_value());
  BOOST_TEST((array.error().what == mem::measurement_read_data{mem::found_value{"[1,2]"}}));
  const auto plan = mem::measurement_from_json(boost::json::parse(R"({"kind": "plan"})"));
  BOOST_TEST_REQUIRE(!plan.has_value());
  BOOST_TEST((plan.error().code == measurement_read_errc::other_output));
  BOOST_TEST((plan.error().what == mem::measurement_read_data{mem::other_output_kind::plan}));
  const auto empty = mem::measurement_from_text("{}");
  BOOST_TEST_REQUIRE(!empty.has_value());
  BOOST_TEST(empty.error().what.holds<std::monostate>());
  // A file's refusal names the file, with the data of the text's.
  const auto missing = mem::read_measurement("/nonexistent-iteragpu-folder/m.json");
  BOOST_TEST_REQUIRE(!missing.has_value());
  BOOST_TEST(missing.error().file == "/nonexistent-iteragpu-folder/m.json");
  BOOST_TEST((missing.error().stage == mem::measurement_read_stage::file));
  BOOST_TEST(missing.error().what.holds<std::monostate>());
}

BOOST_AUTO_TEST_CASE(byte_counts_are_integers_from_0_to_2_to_the_64_minus_1) {
  BOOST_TEST(mem::json_byte_count(boost::json::value(std::uint64_t{18446744073709551615U})).value() == UINT64_MAX);
  BOOST_TEST(mem::json_byte_count(boost::json::value(0)).value() == 0U);
  BOOST_TEST(!mem::json_byte_count(boost::json::value(-1)).has_value());
  BOOST_TEST(!mem::json_byte_count(boost::json::value("12")).has_value());
  // The largest peak reserved of the rows: max(4096, 12288) = 12288.
  std::vector<mem::phase_row> rows(2);
  rows[0].peak_reserved_bytes = 4096;
  rows[1].peak_reserved_bytes = 12'288;
  BOOST_TEST(mem::peak_reserved_bytes(rows) == 12'288U);
}

BOOST_AUTO_TEST_SUITE_END()
