// The words of a refused snapshot file: opcode names, bytes in hexadecimal,
// the formats by name.
#include <iteragpu/report/snapshot_errors.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(snapshot_error_words)

BOOST_AUTO_TEST_CASE(opcodes_bytes_and_formats_by_name) {
  BOOST_TEST(report::pickle_opcode_name(static_cast<std::uint8_t>('.')) == "STOP");  // pickle's STOP is '.'
  BOOST_TEST(report::pickle_opcode_name(static_cast<std::uint8_t>('(')) == "MARK");  // and MARK '('
  BOOST_TEST(report::detail::hex_byte(0x63) == "0x63");
  BOOST_TEST(report::detail::hex_byte(0xff) == "0xff");
  BOOST_TEST(report::detail::hex_byte(0x0a) == "0x0a");
  BOOST_TEST(report::snapshot_format_name(mem::snapshot_format::pickle) == "pickle");
  BOOST_TEST(report::snapshot_format_name(mem::snapshot_format::json) == "JSON");
  BOOST_TEST(report::describe(mem::snapshot_file_error{}) ==
             "the file is empty; a memory snapshot is a pickle (torch.cuda.memory._dump_snapshot) or a JSON object");
}

BOOST_AUTO_TEST_SUITE_END()
