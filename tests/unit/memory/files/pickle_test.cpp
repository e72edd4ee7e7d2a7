// The reader of plain-data pickles and of memory snapshot files
// (memory/files/pickle.hpp, snapshot_file.hpp) and the words for their
// errors (report/snapshot_errors.hpp). The fixtures in
// tests/data/snapshots/ were written by Python 3.11: pickle.dumps of one
// snapshot-shaped dict with protocols 2 to 5, and json.dumps of the same
// dict, which the pickles must read equal to.
#include <iteragpu/memory/files/pickle.hpp>

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json.hpp>

#include <iteragpu/memory/files/snapshot_file.hpp>
#include <iteragpu/report/snapshot_errors.hpp>

namespace {

using iteragpu::memory::pickle_errc;
using iteragpu::memory::pickle_error;
using iteragpu::memory::pickle_limits;
using iteragpu::memory::pickle_opcode_use;
using iteragpu::memory::read_pickle;
using iteragpu::memory::read_snapshot_bytes;
using iteragpu::memory::snapshot_file_errc;
using bytes = std::vector<unsigned char>;

const std::string fixtures = ITERAGPU_TEST_SOURCE_DIR "/data/snapshots/";

bytes file_bytes(const std::string& name) {
  std::ifstream in(fixtures + name, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << fixtures + name);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bytes text_bytes(std::string_view text) { return {text.begin(), text.end()}; }

// Opcodes and their arguments as byte values.
bytes b(std::initializer_list<unsigned> values) {
  bytes out;
  for (const unsigned v : values) {
    out.push_back(static_cast<unsigned char>(v));
  }
  return out;
}

bytes operator+(bytes a, const bytes& c) {
  a.insert(a.end(), c.begin(), c.end());
  return a;
}

boost::json::value json(std::string_view text) { return boost::json::parse(text); }

// PROTO 2 + body + STOP.
bytes p2(const bytes& body) { return b({0x80, 2}) + body + b({'.'}); }

pickle_error error_of(const bytes& data, const pickle_limits& limits = {}) {
  const auto r = read_pickle(data, limits);
  BOOST_REQUIRE_MESSAGE(!r, "read a pickle that should be refused: " << (r ? boost::json::serialize(*r) : ""));
  return r.error();
}

void check_reads(const bytes& data, std::string_view expected) {
  const auto r = read_pickle(data);
  BOOST_REQUIRE_MESSAGE(r, "refused: " << (r ? "" : iteragpu::report::describe(r.error())));
  BOOST_TEST(*r == json(expected), boost::json::serialize(*r) << " read, " << expected << " expected");
  // The kinds too: a JSON integer stays one, 2^63 and above are uint64.
  BOOST_TEST(boost::json::serialize(*r) == boost::json::serialize(json(expected)));
}

void check_refused(const bytes& data, pickle_errc code, std::uint64_t offset, unsigned opcode,
                   const pickle_limits& limits = {}) {
  const pickle_error e = error_of(data, limits);
  const pickle_error want{code, offset, static_cast<std::uint8_t>(opcode)};
  BOOST_TEST((e == want), iteragpu::report::describe(e)
                              << " (code " << static_cast<int>(e.code) << ", offset " << e.offset << ", opcode "
                              << static_cast<int>(e.opcode) << "); expected " << iteragpu::report::describe(want));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pickle_reader)

BOOST_AUTO_TEST_CASE(snapshot_pickles_of_protocols_2_to_5_read_equal_to_the_same_dict_as_json) {
  const bytes text = file_bytes("snapshot.json");
  const boost::json::value expected = boost::json::parse(std::string(text.begin(), text.end()));
  for (const int protocol : {2, 3, 4, 5}) {
    BOOST_TEST_CONTEXT("protocol " << protocol) {
      const bytes data = file_bytes("snapshot_protocol" + std::to_string(protocol) + ".pickle");
      const auto r = read_pickle(data);
      BOOST_REQUIRE_MESSAGE(r, (r ? "" : iteragpu::report::describe(r.error())));
      BOOST_TEST(*r == expected);
      const auto& settings = r->at("allocator_settings");
      BOOST_TEST(settings.at("max_split_size").as_int64() == -1);
      BOOST_TEST(settings.at("garbage_collection_threshold").as_double() == 0.8);
      BOOST_TEST(settings.at("pinned_use_host_register").is_null());
      BOOST_TEST(settings.at("int_keys").at("32768").as_int64() == -8);
      const auto& limits = settings.at("limits");
      BOOST_TEST(limits.at("max").as_uint64() == UINT64_MAX);
      BOOST_TEST(limits.at("two_63").as_uint64() == std::uint64_t{1} << 63U);
      BOOST_TEST(limits.at("min").as_int64() == INT64_MIN);
      BOOST_TEST(limits.at("minus_two_31").as_int64() == -(std::int64_t{1} << 31U));
      BOOST_TEST(limits.at("name").as_string() == "caf\xc3\xa9");
      const auto& event = r->at("device_traces").at(0).at(1);
      BOOST_TEST(event.at("action").as_string() == "alloc");
      BOOST_TEST(event.at("addr").as_int64() == (std::int64_t{1} << 47U) + 0x200000);
      BOOST_TEST(event.at("size").as_int64() == 6912);
      BOOST_TEST(event.at("time_us").as_int64() == 1733000000000010);
      // The frames list is one object shared by three dicts: fetched from the memo, copied whole.
      BOOST_TEST(event.at("frames") == r->at("segments").at(0).at("frames"));
      BOOST_TEST(event.at("frames").at(0).at("line").as_int64() == 42);
    }
  }
}

BOOST_AUTO_TEST_CASE(snapshot_bytes_read_the_pickle_and_the_json_form_alike) {
  const bytes text = file_bytes("snapshot.json");
  const auto from_json = read_snapshot_bytes(text);
  const auto from_pickle = read_snapshot_bytes(file_bytes("snapshot_protocol4.pickle"));
  BOOST_REQUIRE(from_json);
  BOOST_REQUIRE(from_pickle);
  BOOST_TEST(*from_json == *from_pickle);
  BOOST_TEST(from_json->at("segments").at(0).at("segment_type").as_string() == "small");
  const auto padded = read_snapshot_bytes(text_bytes(" \r\n\t") + text);
  BOOST_REQUIRE(padded);
  BOOST_TEST(*padded == *from_json);
}

BOOST_AUTO_TEST_CASE(a_monotonic_resource_holds_the_result) {
  boost::json::monotonic_resource resource;
  const boost::json::storage_ptr sp(&resource);
  const auto r = read_pickle(file_bytes("snapshot_protocol4.pickle"), {}, sp);
  BOOST_REQUIRE(r);
  BOOST_TEST(r->storage().get() == sp.get());
  BOOST_TEST(r->at("segments").storage().get() == sp.get());
  const auto s = read_snapshot_bytes(file_bytes("snapshot.json"), {}, sp);
  BOOST_REQUIRE(s);
  BOOST_TEST(s->storage().get() == sp.get());
}

BOOST_AUTO_TEST_CASE(scalars_read_as_json_scalars) {
  check_reads(p2(b({'N'})), "null");
  check_reads(p2(b({0x88})), "true");
  check_reads(p2(b({0x89})), "false");
  check_reads(p2(b({'J', 0xff, 0xff, 0xff, 0xff})), "-1");
  check_reads(p2(b({'J', 0x00, 0x00, 0x00, 0x80})), "-2147483648");
  check_reads(p2(b({'J', 0x01, 0x02, 0x03, 0x04})), "67305985");
  check_reads(p2(b({'K', 0xff})), "255");
  check_reads(p2(b({'M', 0xff, 0xff})), "65535");
  check_reads(p2(b({'G', 0x3f, 0xe0, 0, 0, 0, 0, 0, 0})), "0.5");
  check_reads(p2(b({'G', 0xc0, 0x59, 0, 0, 0, 0, 0, 0})), "-100.0");
}

BOOST_AUTO_TEST_CASE(long1_and_long4_read_any_width_of_twos_complement_that_fits_64_bits) {
  check_reads(p2(b({0x8a, 0})), "0");
  check_reads(p2(b({0x8a, 1, 0xff})), "-1");
  check_reads(p2(b({0x8a, 1, 0x7f})), "127");
  check_reads(p2(b({0x8a, 2, 0x00, 0x80})), "-32768");
  check_reads(p2(b({0x8a, 2, 0x7f, 0xff})), "-129");
  check_reads(p2(b({0x8a, 3, 0x00, 0x80, 0x00})), "32768");
  check_reads(p2(b({0x8a, 6, 0, 0, 0, 0, 0, 0x80})), "-140737488355328");
  check_reads(p2(b({0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x80})), "-9223372036854775808");
  check_reads(p2(b({0x8a, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})), "9223372036854775807");
  check_reads(p2(b({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0x80, 0})), "9223372036854775808");
  check_reads(p2(b({0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0})), "18446744073709551615");
  // Redundant sign bytes change nothing.
  check_reads(p2(b({0x8a, 11, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})), "5");
  check_reads(p2(b({0x8a, 10, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})), "-2");
  check_reads(p2(b({0x8b, 9, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0})), "18446744073709551615");
  check_reads(p2(b({0x8b, 0, 0, 0, 0})), "0");
}

BOOST_AUTO_TEST_CASE(integers_past_64_bits_are_refused_at_their_opcode) {
  // 2^64, 2^64 + 1 with its sign byte, -2^63 - 1, -2^72, and LONG4 of 2^64.
  check_refused(p2(b({0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 1})), pickle_errc::integer_too_wide, 2, 0x8a);
  check_refused(p2(b({'N', 0x8a, 10, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0})), pickle_errc::integer_too_wide, 3, 0x8a);
  check_refused(p2(b({0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff})), pickle_errc::integer_too_wide,
                2, 0x8a);
  check_refused(p2(b({0x8a, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff})), pickle_errc::integer_too_wide, 2, 0x8a);
  check_refused(p2(b({0x8b, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})), pickle_errc::integer_too_wide, 2, 0x8b);
  check_refused(p2(b({0x8b, 0xff, 0xff, 0xff, 0xff})), pickle_errc::negative_length, 2, 0x8b);
}

BOOST_AUTO_TEST_CASE(str_and_bytes_of_every_length_form_read_as_strings) {
  check_reads(p2(b({0x8c, 2, 'h', 'i'})), R"("hi")");
  check_reads(p2(b({'X', 3, 0, 0, 0, 0xc3, 0xa9, '!'})), "\"\xc3\xa9!\"");
  check_reads(p2(b({0x8d, 1, 0, 0, 0, 0, 0, 0, 0, 'a'})), R"("a")");
  check_reads(p2(b({'C', 2, 'a', 'b'})), R"("ab")");
  check_reads(p2(b({'B', 1, 0, 0, 0, 'c'})), R"("c")");
  check_reads(p2(b({0x8e, 1, 0, 0, 0, 0, 0, 0, 0, 'd'})), R"("d")");
  check_reads(p2(b({0x96, 2, 0, 0, 0, 0, 0, 0, 0, 'e', 'f'})), R"("ef")");
  check_reads(p2(b({0x8c, 0})), R"("")");
}

BOOST_AUTO_TEST_CASE(lists_tuples_and_dicts_read_as_arrays_and_objects) {
  check_reads(p2(b({']'})), "[]");
  check_reads(p2(b({')'})), "[]");
  check_reads(p2(b({'}'})), "{}");
  check_reads(p2(b({'(', 'K', 1, 'K', 2, 'l'})), "[1,2]");
  check_reads(p2(b({'(', 'K', 1, 'K', 2, 'K', 3, 't'})), "[1,2,3]");
  check_reads(p2(b({'(', 0x8c, 1, 'a', 'K', 1, 'd'})), R"({"a":1})");
  check_reads(p2(b({'K', 1, 0x85})), "[1]");
  check_reads(p2(b({'K', 1, 'K', 2, 0x86})), "[1,2]");
  check_reads(p2(b({'K', 1, 'K', 2, 'K', 3, 0x87})), "[1,2,3]");
  check_reads(p2(b({']', 'K', 7, 'a', 'N', 'a'})), "[7,null]");
  check_reads(p2(b({']', '(', 'K', 7, 'N', 'e', '(', 'e'})), "[7,null]");
  check_reads(p2(b({'}', 0x8c, 1, 'k', 'K', 7, 's'})), R"({"k":7})");
  check_reads(p2(b({'}', '(', 0x8c, 1, 'a', 'K', 1, 0x8c, 1, 'b', ']', 'u'})), R"({"a":1,"b":[]})");
  check_reads(p2(b({']', ']', ']', 'a', 'a'})), "[[[]]]");
}

BOOST_AUTO_TEST_CASE(int_keys_become_their_decimal_digits_and_a_repeated_key_keeps_its_place_and_last_value) {
  check_reads(p2(b({'}', '(', 'K', 1, 'K', 2, 'J', 0xfb, 0xff, 0xff, 0xff, 'N', 'u'})), R"({"1":2,"-5":null})");
  check_reads(p2(b({'}', 0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0x88, 's'})),
              R"({"18446744073709551615":true})");
  check_reads(p2(b({'}', '(', 0x8c, 1, 'a', 'K', 1, 0x8c, 1, 'b', 'K', 2, 0x8c, 1, 'a', 'K', 3, 'u'})),
              R"({"a":3,"b":2})");
}

BOOST_AUTO_TEST_CASE(stack_opcodes_pop_pop_mark_and_dup) {
  check_reads(p2(b({'K', 1, 'K', 2, '0'})), "1");
  check_reads(p2(b({'K', 1, '(', 'K', 2, 'K', 3, '1'})), "1");
  check_reads(p2(b({'K', 1, '(', '0'})), "1");  // POP with nothing above the mark drops the mark
  check_reads(p2(b({']', '2', '0'})), "[]");
  check_reads(p2(b({'K', 4, '2', 0x86})), "[4,4]");
}

BOOST_AUTO_TEST_CASE(the_memo_shares_the_object_itself_as_it_is_when_fetched) {
  // A dict stored empty, filled afterwards and fetched twice: three copies of its final state.
  check_reads(p2(b({']', '(', '}', 0x94, 0x8c, 1, 'k', 'K', 1, 's', 'h', 0, 'j', 0, 0, 0, 0, 'e'})),
              R"([{"k":1},{"k":1},{"k":1}])");
  check_reads(p2(b({0x8c, 1, 'x', 'q', 0, 'N', 'r', 1, 0, 0, 0, '0', '0', 'h', 0, 'j', 1, 0, 0, 0, 0x86})),
              R"(["x",null])");
  // BINPUT over an index already stored replaces it.
  check_reads(p2(b({'K', 1, 'q', 0, 'K', 2, 'q', 0, '0', '0', 'h', 0})), "2");
}

BOOST_AUTO_TEST_CASE(memo_misuse_is_refused_at_its_opcode) {
  check_refused(p2(b({'h', 0})), pickle_errc::bad_memo_index, 2, 'h');
  check_refused(p2(b({'N', 0x94, 'j', 1, 0, 0, 0})), pickle_errc::bad_memo_index, 4, 'j');
  check_refused(p2(b({'N', 'q', 1})), pickle_errc::bad_memo_index, 3, 'q');
  check_refused(p2(b({'N', 'r', 0xff, 0xff, 0xff, 0xff})), pickle_errc::bad_memo_index, 3, 'r');
  check_refused(p2(b({0x94})), pickle_errc::stack_underflow, 2, 0x94);
  check_refused(p2(b({'N', '(', 'q', 0})), pickle_errc::stack_underflow, 4, 'q');
}

BOOST_AUTO_TEST_CASE(frames_are_checked_against_the_data_and_each_other) {
  const bytes none_in_frame = b({0x80, 4, 0x95, 2, 0, 0, 0, 0, 0, 0, 0, 'N', '.'});
  check_reads(none_in_frame, "null");
  // A frame longer than the data left.
  check_refused(b({0x80, 4, 0x95, 3, 0, 0, 0, 0, 0, 0, 0, 'N', '.'}), pickle_errc::bad_frame, 2, 0x95);
  check_refused(b({0x80, 4, 0x95, 0, 0, 0, 0, 0, 0, 0, 0x80, 'N', '.'}), pickle_errc::bad_frame, 2, 0x95);
  // An opcode whose argument runs past its frame; one that ends with its frame reads on outside it.
  check_refused(b({0x80, 4, 0x95, 2, 0, 0, 0, 0, 0, 0, 0, 'M', 5, 0, '.'}), pickle_errc::bad_frame, 11, 'M');
  check_reads(b({0x80, 4, 0x95, 1, 0, 0, 0, 0, 0, 0, 0, 'K', 5, '.'}), "5");
  // A frame begun inside another.
  check_refused(b({0x80, 4, 0x95, 12, 0, 0, 0, 0, 0, 0, 0, 0x95, 1, 0, 0, 0, 0, 0, 0, 0, 'N', '.', 0}),
                pickle_errc::bad_frame, 11, 0x95);
  // Frames one after the other, and opcodes outside any.
  check_reads(b({0x80, 4, 0x95, 1, 0, 0, 0, 0, 0, 0, 0, ']', 0x95, 3, 0, 0, 0, 0, 0, 0, 0, 'K', 9, 'a', '.'}), "[9]");
}

// The table holds each opcode once, by byte, and every one of Lib/pickle.py's
// 68 opcodes of protocols 0 to 5.
BOOST_AUTO_TEST_CASE(the_opcode_table_holds_each_opcode_once_in_byte_order) {
  const auto& table = iteragpu::memory::pickle_opcode_table;
  BOOST_TEST(table.size() == 68U);
  for (std::size_t i = 1; i < table.size(); ++i) {
    BOOST_TEST(static_cast<unsigned>(table[i - 1].opcode) < static_cast<unsigned>(table[i].opcode));
  }
  BOOST_TEST(iteragpu::memory::pickle_opcode_name(0x95) == "FRAME");
  BOOST_TEST((iteragpu::memory::pickle_opcode_use_of(0x63) == pickle_opcode_use::runs_code));  // GLOBAL
  BOOST_TEST((iteragpu::memory::pickle_opcode_use_of(0x00) == pickle_opcode_use::no_opcode));
}

BOOST_AUTO_TEST_CASE(every_opcode_that_runs_code_is_refused_and_every_other_byte_named) {
  int forbidden = 0;
  int not_read = 0;
  int unknown = 0;
  for (unsigned byte = 0; byte < 256; ++byte) {
    const auto use = iteragpu::memory::pickle_opcode_use_of(static_cast<std::uint8_t>(byte));
    BOOST_TEST(iteragpu::report::pickle_opcode_name(static_cast<std::uint8_t>(byte)).empty() ==
               (use == pickle_opcode_use::no_opcode));
    const bytes data = b({0x80, 2, byte, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    switch (use) {
      case pickle_opcode_use::runs_code:
        check_refused(data, pickle_errc::forbidden_opcode, 2, byte);
        ++forbidden;
        break;
      case pickle_opcode_use::not_read:
        check_refused(data, pickle_errc::unsupported_opcode, 2, byte);
        ++not_read;
        break;
      case pickle_opcode_use::no_opcode:
        check_refused(data, pickle_errc::unknown_opcode, 2, byte);
        ++unknown;
        break;
      case pickle_opcode_use::plain_data:
        break;
    }
  }
  // Lib/pickle.py of Python 3.11 has 68 opcodes: 13 that run code, 14 plain ones not read, 41 read.
  BOOST_TEST(forbidden == 13);
  BOOST_TEST(not_read == 14);
  BOOST_TEST(unknown == 256 - 68);
}

BOOST_AUTO_TEST_CASE(pickles_that_name_code_are_refused_where_they_name_it) {
  // pickle.dumps(os.system, protocol=2) and (protocol=4), collections.OrderedDict(a=1) with protocol 2.
  bytes system2 = b({0x80, 2, 'c'}) + text_bytes("posix\nsystem\n") + b({'q', 0, '.'});
  check_refused(system2, pickle_errc::forbidden_opcode, 2, 'c');
  const bytes system4 = b({0x80, 4, 0x95, 20, 0, 0, 0, 0, 0, 0, 0, 0x8c, 5}) + text_bytes("posix") +
                        b({0x94, 0x8c, 6}) + text_bytes("system") + b({0x94, 0x93, 0x94, '.'});
  check_refused(system4, pickle_errc::forbidden_opcode, 28, 0x93);
  const bytes ordered = b({0x80, 2, 'c'}) + text_bytes("collections\nOrderedDict\n") +
                        b({'q', 0, ')', 'R', 'q', 1, 'X', 1, 0, 0, 0, 'a', 'q', 2, 'K', 1, 's', '.'});
  check_refused(ordered, pickle_errc::forbidden_opcode, 2, 'c');
  check_refused(p2(b({')', ')', 'R'})), pickle_errc::forbidden_opcode, 4, 'R');
  check_refused(p2(b({'}', ')', 'b'})), pickle_errc::forbidden_opcode, 4, 'b');
  BOOST_TEST(iteragpu::report::describe(pickle_error{pickle_errc::forbidden_opcode, 1234, 0x63}) ==
             "opcode GLOBAL (0x63) at byte 1234 is not plain data; it is refused and never executed");
}

BOOST_AUTO_TEST_CASE(every_prefix_of_a_valid_pickle_is_refused_without_harm) {
  for (const int protocol : {2, 4}) {
    const bytes whole = file_bytes("snapshot_protocol" + std::to_string(protocol) + ".pickle");
    BOOST_REQUIRE(read_pickle(whole));
    for (std::size_t size = 0; size < whole.size(); ++size) {
      BOOST_TEST_CONTEXT("protocol " << protocol << ", first " << size << " bytes") {
        const bytes prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size));
        const pickle_error e = error_of(prefix);
        if (size == 0) {
          BOOST_TEST((e == pickle_error{pickle_errc::empty, 0, 0}));
        } else if (protocol == 2 || size < 11) {
          // No frame: the data ends inside an argument, or between opcodes.
          BOOST_TEST((e.code == pickle_errc::truncated || e.code == pickle_errc::no_stop));
          BOOST_TEST(e.offset == size);
        } else {
          // Protocol 4: the first frame says how long it is, and the data is shorter.
          BOOST_TEST((e == pickle_error{pickle_errc::bad_frame, 2, 0x95}));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(nesting_is_bounded_by_max_depth_without_recursion) {
  const auto nested = [](std::size_t depth) {
    bytes body(depth, ']');
    body.insert(body.end(), depth - 1, 'a');
    return p2(body);
  };
  pickle_limits four;
  four.max_depth = 4;
  BOOST_TEST(read_pickle(nested(4), four).has_value());
  // Lists at offsets 2 to 7, appends from 8: the fourth APPEND makes five levels.
  check_refused(nested(6), pickle_errc::too_deep, 11, 'a', four);
  const auto deep = read_pickle(nested(100'000));
  BOOST_TEST((!deep && deep.error().code == pickle_errc::too_deep && deep.error().offset == 100'002 + 511));
  // A list holding itself is infinitely deep: refused when the result is built, at the list's opcode.
  check_refused(p2(b({']', 0x94, 'h', 0, 'a'})), pickle_errc::too_deep, 2, ']');
}

BOOST_AUTO_TEST_CASE(copies_of_memo_entries_count_against_max_entries) {
  // Each list holds the previous one twice: 2^21 - 1 values from 100 bytes.
  bytes body = b({']', 0x94});
  for (unsigned i = 1; i <= 20; ++i) {
    body = body + b({'0', ']', '(', 'h', i - 1, 'h', i - 1, 'e', 0x94});
  }
  const bytes doubling = p2(body);
  pickle_limits small;
  small.max_entries = 1000;
  const pickle_error e = error_of(doubling, small);
  BOOST_TEST((e.code == pickle_errc::too_many_entries));
  BOOST_TEST(e.opcode == ']');
  small.max_entries = (std::uint64_t{1} << 21U) - 1;
  const auto all = read_pickle(doubling, small);
  BOOST_REQUIRE(all);
  BOOST_TEST(all->at(0).at(1).at(0).is_array());
  small.max_entries = 5;
  check_refused(p2(b({'(', 'K', 1, 'K', 2, 'K', 3, 'K', 4, 'K', 5})), pickle_errc::too_many_entries, 11, 'K', small);
}

// PROTO 2, list 0 holding `first`, then lists 1 to `lists`, each holding
// the one before it twice (9 bytes each, list i's opcode at byte
// 6 + first.size() + 9 (i - 1)), STOP.
bytes doubled_lists(const bytes& first, unsigned lists) {
  bytes body = b({']'}) + first + b({'a', 0x94});
  for (unsigned i = 1; i <= lists; ++i) {
    body = body + b({'0', ']', '(', 'h', i - 1, 'h', i - 1, 'e', 0x94});
  }
  return p2(body);
}

BOOST_AUTO_TEST_CASE(a_result_of_shared_copies_is_counted_before_it_is_made) {
  // List i expands to 3 * 2^i - 1 values: 2^42 or so from 367 bytes,
  // refused at the first list past 100 million, list 25, before any copy.
  const bytes dag = doubled_lists(b({'N'}), 40);
  BOOST_TEST(dag.size() == 367U);
  check_refused(dag, pickle_errc::too_many_entries, 6 + 1 + 9 * 24, ']');
  // A 100-byte string in list 0: list i takes a value and twice list i-1,
  // from two values and 100 bytes: list 10 is the first past 100,000.
  constexpr std::uint64_t value = sizeof(boost::json::value);
  std::uint64_t list_10 = 2 * value + 100;
  for (int i = 1; i <= 10; ++i) {
    list_10 = value + 2 * list_10;
  }
  BOOST_TEST(list_10 == 3071 * value + 102'400);
  BOOST_TEST((list_10 > 100'000 && (list_10 - value) / 2 < 100'000));
  const bytes text = b({'X', 100, 0, 0, 0}) + bytes(100, 'x');
  pickle_limits small;
  small.max_result_bytes = 100'000;
  check_refused(doubled_lists(text, 10), pickle_errc::result_too_large, 6 + 105 + 9 * 9, ']', small);
  small.max_result_bytes = list_10;
  const auto read = read_pickle(doubled_lists(text, 10), small);
  BOOST_REQUIRE(read);
  BOOST_TEST(read->at(0).at(0).at(0).at(0).at(0).at(0).at(0).at(0).at(0).at(0).at(0).as_string() ==
             std::string(100, 'x'));
  small.max_result_bytes = list_10 - 1;
  BOOST_TEST((error_of(doubled_lists(text, 10), small).code == pickle_errc::result_too_large));
  BOOST_TEST(iteragpu::report::describe(pickle_error{pickle_errc::result_too_large, 192, ']'}) ==
             "opcode EMPTY_LIST (0x5d) at byte 192 passes the limit on the bytes of the result (copies of memo "
             "entries count each time)");
}

BOOST_AUTO_TEST_CASE(malformed_stacks_are_refused_at_their_opcode) {
  check_refused({}, pickle_errc::empty, 0, 0);
  check_refused(b({0x80, 2, 'N'}), pickle_errc::no_stop, 3, 0);
  check_refused(b({0x80, 2, 'N', '.', 'N'}), pickle_errc::trailing_bytes, 4, 'N');
  check_refused(b({0x80, 6, 'N', '.'}), pickle_errc::unsupported_protocol, 0, 0x80);
  check_refused(b({0x80, 1, 'N', '.'}), pickle_errc::unsupported_protocol, 0, 0x80);
  check_refused(b({0x80}), pickle_errc::truncated, 1, 0x80);
  check_refused(p2(b({'X', 5, 0, 0, 0, 'a'})), pickle_errc::truncated, 9, 'X');
  check_refused(b({0x80, 2, '.'}), pickle_errc::stack_underflow, 2, '.');
  check_refused(p2(b({'N', 'N'})), pickle_errc::leftover_values, 4, '.');
  check_refused(p2(b({'(', 'N'})), pickle_errc::leftover_values, 4, '.');
  check_refused(p2(b({'a'})), pickle_errc::stack_underflow, 2, 'a');
  check_refused(p2(b({'N', 'a'})), pickle_errc::stack_underflow, 3, 'a');
  check_refused(p2(b({']', '(', 'N', 's'})), pickle_errc::stack_underflow, 5, 's');
  check_refused(p2(b({'e'})), pickle_errc::mark_missing, 2, 'e');
  check_refused(p2(b({'1'})), pickle_errc::mark_missing, 2, '1');
  check_refused(p2(b({'0'})), pickle_errc::mark_missing, 2, '0');
  check_refused(p2(b({'2'})), pickle_errc::stack_underflow, 2, '2');
  check_refused(p2(b({'N', 0x87})), pickle_errc::stack_underflow, 3, 0x87);
  check_refused(p2(b({'(', ']', 'e'})), pickle_errc::stack_underflow, 4, 'e');
  check_refused(p2(b({'}', 'N', 'a'})), pickle_errc::not_a_container, 4, 'a');
  check_refused(p2(b({')', 'N', 'a'})), pickle_errc::not_a_container, 4, 'a');
  check_refused(p2(b({']', 'N', 'N', 's'})), pickle_errc::not_a_container, 5, 's');
  check_refused(p2(b({'(', 'N', 'd'})), pickle_errc::odd_dict_items, 4, 'd');
  check_refused(p2(b({'}', '(', 'N', 'u'})), pickle_errc::odd_dict_items, 5, 'u');
  check_refused(p2(b({'}', 'N', 'N', 's'})), pickle_errc::non_string_key, 5, 's');
  check_refused(p2(b({'}', 'C', 1, 'k', 'N', 's'})), pickle_errc::non_string_key, 7, 's');
  check_refused(p2(b({'(', 'G', 0x3f, 0xe0, 0, 0, 0, 0, 0, 0, 'N', 'd'})), pickle_errc::non_string_key, 13, 'd');
  pickle_limits three;
  three.max_bytes = 3;
  check_refused(b({0x80, 2, 'N', '.'}), pickle_errc::too_large, 3, 0, three);
}

BOOST_AUTO_TEST_CASE(snapshot_bytes_of_neither_form_or_not_a_dict_are_refused_saying_why) {
  const auto empty = read_snapshot_bytes(text_bytes(" \n"));
  BOOST_TEST((!empty && empty.error().code == snapshot_file_errc::empty));
  const auto csv = read_snapshot_bytes(text_bytes("  addr,size\n"));
  BOOST_REQUIRE(!csv);
  BOOST_TEST((csv.error().code == snapshot_file_errc::neither_format));
  BOOST_TEST((csv.error().what == iteragpu::memory::snapshot_file_data{iteragpu::memory::unknown_first_byte{2, 'a'}}));
  BOOST_TEST(iteragpu::report::describe(csv.error()) ==
             "byte 2 is 0x61: neither a pickle (first byte 0x80) nor JSON (first byte '{' after white space); a "
             "memory snapshot is a pickle (torch.cuda.memory._dump_snapshot) or a JSON object");
  const auto list = read_snapshot_bytes(p2(b({']'})));
  BOOST_REQUIRE(!list);
  BOOST_TEST((list.error().code == snapshot_file_errc::not_a_dict));
  BOOST_TEST((list.error().what == iteragpu::memory::snapshot_file_data{iteragpu::memory::non_dict_top{
                                       iteragpu::memory::snapshot_format::pickle, boost::json::kind::array}}));
  const auto code = read_snapshot_bytes(p2(b({')', ')', 'R'})));
  BOOST_REQUIRE(!code);
  BOOST_TEST((code.error().code == snapshot_file_errc::pickle));
  BOOST_TEST(
      (code.error().what == iteragpu::memory::snapshot_file_data{pickle_error{pickle_errc::forbidden_opcode, 4, 'R'}}));
  BOOST_TEST(iteragpu::report::describe(code.error()) ==
             "pickle: opcode REDUCE (0x52) at byte 4 is not plain data; it is refused and never executed");
}

BOOST_AUTO_TEST_CASE(snapshot_json_errors_say_where) {
  const auto bad = read_snapshot_bytes(text_bytes(R"({"a": [1, 2], "b": })"));
  BOOST_REQUIRE(!bad);
  BOOST_TEST((bad.error().code == snapshot_file_errc::json_syntax));
  const auto* stop = bad.error().what.get_if<iteragpu::memory::json_stop>();
  BOOST_REQUIRE(stop != nullptr);
  BOOST_TEST(stop->offset == 19U);
  BOOST_TEST(static_cast<bool>(stop->reason));
  const auto trailing = read_snapshot_bytes(text_bytes(R"({"a": 1} x)"));
  BOOST_REQUIRE(!trailing);
  BOOST_TEST((trailing.error().code == snapshot_file_errc::json_syntax));
  pickle_limits two;
  two.max_depth = 2;
  BOOST_TEST(read_snapshot_bytes(text_bytes(R"({"a": [1]})"), two).has_value());
  const auto deep = read_snapshot_bytes(text_bytes(R"({"a": [[1]]})"), two);
  BOOST_REQUIRE(!deep);
  BOOST_TEST((deep.error().code == snapshot_file_errc::json_syntax));
  two.max_bytes = 4;
  const auto large = read_snapshot_bytes(text_bytes(R"({"a": 1})"), two);
  BOOST_REQUIRE(!large);
  BOOST_TEST((large.error().code == snapshot_file_errc::too_large));
  BOOST_TEST((large.error().what == iteragpu::memory::snapshot_file_data{iteragpu::memory::size_limit{4}}));
}

BOOST_AUTO_TEST_SUITE_END()
