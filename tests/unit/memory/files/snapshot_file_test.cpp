// Snapshot bytes, a pickle or JSON: told apart by their first byte, and the
// top level must be a dict.
#include <iteragpu/memory/files/snapshot_file.hpp>

#include <array>
#include <span>
#include <string_view>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

namespace {

std::span<const unsigned char> bytes_of(std::string_view text) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(snapshot_file)

BOOST_AUTO_TEST_CASE(json_and_pickle_are_read_and_the_rest_refused) {
  const auto json = mem::read_snapshot_bytes(bytes_of("  {\"segments\": []}"));
  BOOST_TEST_REQUIRE(json.has_value());
  BOOST_TEST(json->as_object().at("segments").as_array().empty());
  // PROTO 2, EMPTY_DICT (}), STOP (.): an empty dict.
  const std::array<unsigned char, 4> pickle{mem::pickle_first_byte, 0x02, '}', '.'};
  const auto dict = mem::read_snapshot_bytes(pickle);
  BOOST_TEST_REQUIRE(dict.has_value());
  BOOST_TEST(dict->as_object().empty());
  BOOST_TEST((mem::read_snapshot_bytes(bytes_of(" \n")).error().code == mem::snapshot_file_errc::empty));
  // 'x' is neither 0x80 nor '{': the byte and its offset (2, after two spaces) are kept.
  const auto neither = mem::read_snapshot_bytes(bytes_of("  x"));
  BOOST_TEST((neither.error().code == mem::snapshot_file_errc::neither_format));
  BOOST_TEST((neither.error().what == mem::snapshot_file_data{mem::unknown_first_byte{2, 'x'}}));
  // PROTO 2, EMPTY_LIST (]), STOP: a list at the top, not a dict.
  const std::array<unsigned char, 4> list{mem::pickle_first_byte, 0x02, ']', '.'};
  const auto not_dict = mem::read_snapshot_bytes(list);
  BOOST_TEST((not_dict.error().code == mem::snapshot_file_errc::not_a_dict));
  BOOST_TEST((not_dict.error().what ==
              mem::snapshot_file_data{mem::non_dict_top{mem::snapshot_format::pickle, boost::json::kind::array}}));
}

BOOST_AUTO_TEST_SUITE_END()
