// A document's memory_need: bytes and an optional source, or the reason
// there is none.
#include <iteragpu/memory/files/memory_need_file.hpp>

#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

namespace {

mem::memory_need_error refusal_of(const char* text) {
  const auto need = mem::read_memory_need(boost::json::parse(text).as_object());
  BOOST_TEST_REQUIRE(!need.has_value());
  return need.error();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(memory_need_file)

BOOST_AUTO_TEST_CASE(the_need_and_its_source_are_read) {
  const auto need = mem::read_memory_need(
      boost::json::parse(R"({"memory_need": {"bytes": 1073741824, "source": "plan"}})").as_object());
  BOOST_TEST_REQUIRE(need.has_value());
  BOOST_TEST((*need == mem::memory_need_record{1073741824, std::string("plan")}));
  // A source that is not a string is left out.
  const auto unnamed =
      mem::read_memory_need(boost::json::parse(R"({"memory_need": {"bytes": 5, "source": 3}})").as_object());
  BOOST_TEST_REQUIRE(unnamed.has_value());
  BOOST_TEST(unnamed->bytes == 5U);
  BOOST_TEST(!unnamed->source.has_value());
}

BOOST_AUTO_TEST_CASE(each_missing_or_wrong_need_has_its_reason) {
  BOOST_TEST((refusal_of("{}") == mem::memory_need_error{mem::memory_need_errc::missing, ""}));
  BOOST_TEST((refusal_of(R"({"memory_need": null})") == mem::memory_need_error{mem::memory_need_errc::null, ""}));
  BOOST_TEST((refusal_of(R"({"memory_need": 5})") == mem::memory_need_error{mem::memory_need_errc::not_an_object, ""}));
  BOOST_TEST(
      (refusal_of(R"({"memory_need": {}})") == mem::memory_need_error{mem::memory_need_errc::bytes_missing, ""}));
  // The value found is kept as JSON text.
  BOOST_TEST((refusal_of(R"({"memory_need": {"bytes": -1}})") ==
              mem::memory_need_error{mem::memory_need_errc::bytes_not_bytes, "-1"}));
  BOOST_TEST((refusal_of(R"({"memory_need": {"bytes": "12"}})") ==
              mem::memory_need_error{mem::memory_need_errc::bytes_not_bytes, "\"12\""}));
}

BOOST_AUTO_TEST_SUITE_END()
