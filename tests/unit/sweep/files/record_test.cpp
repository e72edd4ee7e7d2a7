// Reading a record's JSON: members looked up safely, values taken only in
// their own type.
#include <iteragpu/sweep/files/record.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace files = iteragpu::sweep::files;

BOOST_AUTO_TEST_SUITE(sweep_record_json)

BOOST_AUTO_TEST_CASE(members_and_values_are_read_only_where_they_fit) {
  const auto v = boost::json::parse(R"({"bytes": 5, "name": "b200", "ratio": 0.5, "negative": -1})");
  BOOST_TEST(files::as_u64(files::member(&v, "bytes")).value() == 5U);
  BOOST_TEST(!files::as_u64(files::member(&v, "negative")).has_value());
  BOOST_TEST(!files::as_u64(files::member(&v, "name")).has_value());
  BOOST_TEST(files::as_string(files::member(&v, "name")).value() == "b200");
  BOOST_TEST(files::as_double(files::member(&v, "ratio")).value() == 0.5);
  BOOST_TEST(files::member(&v, "absent") == nullptr);
  BOOST_TEST(files::member(files::member(&v, "bytes"), "x") == nullptr);  // not an object
  BOOST_TEST(!files::as_string(nullptr).has_value());
  BOOST_TEST(files::optional_value(std::optional<std::uint64_t>{}).is_null());
  BOOST_TEST(files::optional_value(std::optional<std::string>{"x"}).as_string() == "x");
}

BOOST_AUTO_TEST_SUITE_END()
