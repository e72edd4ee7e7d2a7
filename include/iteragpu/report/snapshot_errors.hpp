#ifndef ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP
#define ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "iteragpu/memory/files/pickle.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Words for the errors of the snapshot file readers
/// (memory/files/pickle.hpp, memory/files/snapshot_file.hpp): each a phrase
/// that names the byte at fault and what is accepted, one line, to follow
/// the file's name in a message.
namespace iteragpu::report {

/// The name Python's pickle module gives the opcode `byte` (Lib/pickle.py),
/// or an empty view for a byte that is no opcode.
[[nodiscard]] constexpr std::string_view pickle_opcode_name(std::uint8_t byte) noexcept {
  using op = memory::pickle_opcode;
  switch (static_cast<op>(byte)) {
    case op::mark: return "MARK";
    case op::stop: return "STOP";
    case op::pop: return "POP";
    case op::pop_mark: return "POP_MARK";
    case op::dup: return "DUP";
    case op::binbytes: return "BINBYTES";
    case op::short_binbytes: return "SHORT_BINBYTES";
    case op::text_float: return "FLOAT";
    case op::binfloat: return "BINFLOAT";
    case op::text_int: return "INT";
    case op::binint: return "BININT";
    case op::binint1: return "BININT1";
    case op::text_long: return "LONG";
    case op::binint2: return "BININT2";
    case op::none: return "NONE";
    case op::persid: return "PERSID";
    case op::binpersid: return "BINPERSID";
    case op::reduce: return "REDUCE";
    case op::text_string: return "STRING";
    case op::binstring: return "BINSTRING";
    case op::short_binstring: return "SHORT_BINSTRING";
    case op::text_unicode: return "UNICODE";
    case op::binunicode: return "BINUNICODE";
    case op::empty_list: return "EMPTY_LIST";
    case op::append: return "APPEND";
    case op::build: return "BUILD";
    case op::global: return "GLOBAL";
    case op::dict: return "DICT";
    case op::appends: return "APPENDS";
    case op::text_get: return "GET";
    case op::binget: return "BINGET";
    case op::inst: return "INST";
    case op::long_binget: return "LONG_BINGET";
    case op::list: return "LIST";
    case op::obj: return "OBJ";
    case op::text_put: return "PUT";
    case op::binput: return "BINPUT";
    case op::long_binput: return "LONG_BINPUT";
    case op::setitem: return "SETITEM";
    case op::tuple: return "TUPLE";
    case op::setitems: return "SETITEMS";
    case op::empty_tuple: return "EMPTY_TUPLE";
    case op::empty_dict: return "EMPTY_DICT";
    case op::proto: return "PROTO";
    case op::newobj: return "NEWOBJ";
    case op::ext1: return "EXT1";
    case op::ext2: return "EXT2";
    case op::ext4: return "EXT4";
    case op::tuple1: return "TUPLE1";
    case op::tuple2: return "TUPLE2";
    case op::tuple3: return "TUPLE3";
    case op::newtrue: return "NEWTRUE";
    case op::newfalse: return "NEWFALSE";
    case op::long1: return "LONG1";
    case op::long4: return "LONG4";
    case op::short_binunicode: return "SHORT_BINUNICODE";
    case op::binunicode8: return "BINUNICODE8";
    case op::binbytes8: return "BINBYTES8";
    case op::empty_set: return "EMPTY_SET";
    case op::additems: return "ADDITEMS";
    case op::frozenset: return "FROZENSET";
    case op::newobj_ex: return "NEWOBJ_EX";
    case op::stack_global: return "STACK_GLOBAL";
    case op::memoize: return "MEMOIZE";
    case op::frame: return "FRAME";
    case op::bytearray8: return "BYTEARRAY8";
    case op::next_buffer: return "NEXT_BUFFER";
    case op::readonly_buffer: return "READONLY_BUFFER";
  }
  return {};
}

namespace detail {

// "0x63": a byte in hexadecimal, two digits.
[[nodiscard]] inline std::string hex_byte(std::uint8_t byte) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string text = "0x";
  text.push_back(digits[byte >> 4U]);
  text.push_back(digits[byte & 0x0fU]);
  return text;
}

// "opcode GLOBAL (0x63) at byte 1234", or "byte 0xff at byte 7" for no opcode.
[[nodiscard]] inline std::string opcode_at(const memory::pickle_error& e) {
  const std::string_view name = pickle_opcode_name(e.opcode);
  const std::string where = " at byte " + to_decimal_string(e.offset);
  if (name.empty()) {
    return "byte " + hex_byte(e.opcode) + where;
  }
  return "opcode " + std::string(name) + " (" + hex_byte(e.opcode) + ")" + where;
}

}  // namespace detail

/// Why a pickle was not read, in words: the opcode and its byte offset,
/// and what the reader accepts.
[[nodiscard]] inline std::string describe(const memory::pickle_error& e) {
  using memory::pickle_errc;
  const std::string at = detail::opcode_at(e);
  const std::string end = "at byte " + to_decimal_string(e.offset);
  switch (e.code) {
    case pickle_errc::empty:
      return "the pickle is empty";
    case pickle_errc::too_large:
      return e.opcode == 0
                 ? "the pickle is larger than the limit of " + to_decimal_string(e.offset) + " bytes"
                 : "the string of " + at + " is longer than a JSON string may be";
    case pickle_errc::truncated:
      return "the pickle ends " + end + " inside the argument of opcode " +
             std::string(pickle_opcode_name(e.opcode)) + " (" + detail::hex_byte(e.opcode) + "): it was cut short";
    case pickle_errc::no_stop:
      return "the pickle ends " + end + " without its STOP opcode: it was cut short";
    case pickle_errc::trailing_bytes:
      return "bytes follow the STOP opcode, from byte " + to_decimal_string(e.offset) + "; a pickle ends at its STOP";
    case pickle_errc::unsupported_protocol:
      return at + " names a protocol other than 2, 3, 4 or 5, the ones read";
    case pickle_errc::forbidden_opcode:
      return at + " is not plain data; it is refused and never executed";
    case pickle_errc::unsupported_opcode:
      return at + " is plain data this reader does not take (only None, bool, int, float, str, bytes, list, "
                  "tuple and dict in protocols 2 to 5)";
    case pickle_errc::unknown_opcode:
      return detail::opcode_at(e) + " is no pickle opcode";
    case pickle_errc::bad_frame:
      return at + " breaks the framing: a frame runs past the data, starts inside another, or an opcode "
                  "runs past its frame";
    case pickle_errc::stack_underflow:
      return at + " needs more values than the stack holds";
    case pickle_errc::mark_missing:
      return at + " needs a MARK and there is none";
    case pickle_errc::leftover_values:
      return at + " leaves more than the one value on the stack, or a MARK open";
    case pickle_errc::not_a_container:
      return at + " adds to something that is not a list (APPEND) or a dict (SETITEM)";
    case pickle_errc::odd_dict_items:
      return at + " gives a dict a key without a value";
    case pickle_errc::bad_memo_index:
      return at + " uses a memo index never stored, or stores one past the next free index";
    case pickle_errc::non_string_key:
      return at + " gives a dict a key that is neither str nor int; JSON keys are strings";
    case pickle_errc::negative_length:
      return at + " has a negative length";
    case pickle_errc::integer_too_wide:
      return at + " holds an integer outside -2^63 to 2^64 - 1, the range JSON integers are read in";
    case pickle_errc::too_deep:
      return at + " nests lists and dicts deeper than the limit";
    case pickle_errc::too_many_entries:
      return at + " passes the limit on values (copies of memo entries count each time)";
  }
  return at + " is refused";
}

/// The form a snapshot file was in, as a word.
[[nodiscard]] constexpr std::string_view snapshot_format_name(memory::snapshot_format f) noexcept {
  return f == memory::snapshot_format::pickle ? "pickle" : "JSON";
}

/// Why snapshot bytes were not read, in words: what is wrong, where, and
/// the two forms accepted.
[[nodiscard]] inline std::string describe(const memory::snapshot_file_error& e) {
  using memory::snapshot_file_errc;
  constexpr std::string_view accepted =
      "a memory snapshot is a pickle (torch.cuda.memory._dump_snapshot) or a JSON object";
  switch (e.kind) {
    case snapshot_file_errc::empty:
      return "the file is empty; " + std::string(accepted);
    case snapshot_file_errc::neither_format:
      return "byte " + to_decimal_string(e.offset) + " is " + detail::hex_byte(e.first_byte) +
             ": neither a pickle (first byte 0x80) nor JSON (first byte '{' after white space); " +
             std::string(accepted);
    case snapshot_file_errc::too_large:
      return "the JSON is larger than the limit of " + to_decimal_string(e.offset) + " bytes";
    case snapshot_file_errc::pickle:
      return "pickle: " + describe(e.pickle);
    case snapshot_file_errc::json_syntax:
      return "JSON: " + escaped(e.json.message()) + " at byte " + to_decimal_string(e.offset);
    case snapshot_file_errc::not_a_dict:
      return "the " + std::string(snapshot_format_name(e.format)) + " holds " +
             std::string(boost::json::to_string(e.top)) + " at its top, not a dict; " + std::string(accepted);
  }
  return std::string(accepted);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP
