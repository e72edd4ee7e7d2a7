// Duplicate keys in a JSON input, found with their place (JSON Pointer).
#include <iteragpu/json_keys.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include <boost/json/error.hpp>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/need_input.hpp>

namespace {

using iteragpu::duplicate_key_message;
using iteragpu::first_duplicate_key;

}  // namespace

BOOST_AUTO_TEST_SUITE(json_keys)

BOOST_AUTO_TEST_CASE(a_document_with_each_key_once_per_object_has_no_duplicate) {
  BOOST_TEST(!first_duplicate_key(R"({"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}],"d":[]})").value().has_value());
  BOOST_TEST(!first_duplicate_key("[1,2,3]").value().has_value());
  BOOST_TEST(!first_duplicate_key("{}").value().has_value());
}

BOOST_AUTO_TEST_CASE(a_duplicate_is_named_by_its_place_in_the_document) {
  BOOST_TEST(first_duplicate_key(R"({"a":1,"a":2})").value().value() == "/a");
  BOOST_TEST(first_duplicate_key(R"({"runs":[{"x":1},{"x":1,"y":2,"x":3}]})").value().value() == "/runs/1/x");
  // Elements that are containers count as one each.
  BOOST_TEST(first_duplicate_key(R"([[1,[2]],{"e":{}},{"k":[0],"k":1}])").value().value() == "/2/k");
  BOOST_TEST(first_duplicate_key(R"({"env":{"device":{"name":"A"},"driver":"1","device":null}})").value().value() ==
             "/env/device");
}

BOOST_AUTO_TEST_CASE(the_first_duplicate_in_document_order_is_named) {
  BOOST_TEST(first_duplicate_key(R"({"z":{"q":1,"q":2},"z":3})").value().value() == "/z/q");
}

BOOST_AUTO_TEST_CASE(keys_are_compared_unescaped_and_named_as_json_pointer_tokens) {
  BOOST_TEST(first_duplicate_key(R"({"\u0061":1,"a":2})").value().value() == "/a");
  BOOST_TEST(first_duplicate_key(R"({"a/b":{"~":1,"~":2}})").value().value() == "/a~1b/~0");
  BOOST_TEST(first_duplicate_key(R"({"":1,"":2})").value().value() == "/");
}

// Text nested n lists deep around an object that gives "k" twice.
std::string nested_duplicate(std::size_t n) { return std::string(n, '[') + R"({"k":1,"k":2})" + std::string(n, ']'); }

// Boost.JSON's words for a parse error.
std::string words_of(boost::json::error e) { return boost::json::make_error_code(e).message(); }

BOOST_AUTO_TEST_CASE(text_that_does_not_parse_is_an_error_never_no_duplicate) {
  BOOST_TEST(first_duplicate_key(R"({"a":1,"a":)").error().parser.message() ==
             words_of(boost::json::error::incomplete));
  BOOST_TEST(first_duplicate_key("").error().parser.message() == words_of(boost::json::error::incomplete));
  // Deeper than Boost.JSON's default of 32: an error at that depth, the
  // duplicate found at the depth the reader reads.
  BOOST_TEST(first_duplicate_key(nested_duplicate(40)).error().parser.message() ==
             words_of(boost::json::error::too_deep));
  std::string place;
  for (int i = 0; i < 40; ++i) {
    place += "/0";
  }
  BOOST_TEST(first_duplicate_key(nested_duplicate(40), 512).value().value() == place + "/k");
  BOOST_TEST(first_duplicate_key(nested_duplicate(31)).value().value() == place.substr(0, 62) + "/k");
}

BOOST_AUTO_TEST_CASE(the_message_quotes_the_place) {
  BOOST_TEST(duplicate_key_message("/env/device") == "the key at '/env/device' is given twice in its object");
}

BOOST_AUTO_TEST_CASE(a_need_document_with_a_duplicate_key_is_refused_with_its_place) {
  const auto need = iteragpu::report::need_from_json(R"({"kind":"plan","need_bytes":1,"kind":"plan"})");
  BOOST_TEST_REQUIRE(!need.has_value());
  BOOST_TEST(need.error().found == "the key at '/kind' is given twice in its object (each key once)");
}

BOOST_AUTO_TEST_SUITE_END()
