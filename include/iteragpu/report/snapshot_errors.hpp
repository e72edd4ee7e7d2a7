#ifndef ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP
#define ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json/fwd.hpp>

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
[[nodiscard]] std::string hex_byte(std::uint8_t byte);

// "opcode GLOBAL (0x63) at byte 1234", or "byte 0xff at byte 7" for no opcode.
[[nodiscard]] std::string opcode_at(const memory::pickle_error& e);

}  // namespace detail

/// Why a pickle was not read, in words: the opcode and its byte offset,
/// and what the reader accepts.
[[nodiscard]] std::string describe(const memory::pickle_error& e);

/// The form a snapshot file was in, as a word.
[[nodiscard]] constexpr std::string_view snapshot_format_name(memory::snapshot_format f) noexcept {
  return f == memory::snapshot_format::pickle ? "pickle" : "JSON";
}

/// Why snapshot bytes were not read, in words: what is wrong, where, and
/// the two forms accepted.
[[nodiscard]] std::string describe(const memory::snapshot_file_error& e);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/snapshot_errors.ipp"
#endif

#endif  // ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP
