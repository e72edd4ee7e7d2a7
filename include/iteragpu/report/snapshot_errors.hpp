#ifndef ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP
#define ITERAGPU_REPORT_SNAPSHOT_ERRORS_HPP

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

/// The name Python's pickle module gives the opcode `byte`, from the
/// reader's table of opcodes (memory::pickle_opcode_table).
using memory::pickle_opcode_name;

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
