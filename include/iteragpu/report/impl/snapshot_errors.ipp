#ifndef ITERAGPU_REPORT_IMPL_SNAPSHOT_ERRORS_IPP
#define ITERAGPU_REPORT_IMPL_SNAPSHOT_ERRORS_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/detail/data_of.hpp"
#include "iteragpu/report/snapshot_errors.hpp"

// The bodies of the functions that <iteragpu/report/snapshot_errors.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

[[nodiscard]] ITERAGPU_INLINE std::string hex_byte(std::uint8_t byte) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string text = "0x";
  text.push_back(digits[byte >> 4U]);
  text.push_back(digits[byte & 0x0fU]);
  return text;
}

[[nodiscard]] ITERAGPU_INLINE std::string opcode_at(const memory::pickle_error& e) {
  const std::string_view name = pickle_opcode_name(e.opcode);
  const std::string where = " at byte " + to_decimal_string(e.offset);
  if (name.empty()) {
    return "byte " + hex_byte(e.opcode) + where;
  }
  return "opcode " + std::string(name) + " (" + hex_byte(e.opcode) + ")" + where;
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::pickle_error& e) {
  using memory::pickle_errc;
  const std::string at = detail::opcode_at(e);
  const std::string end = "at byte " + to_decimal_string(e.offset);
  switch (e.code) {
    case pickle_errc::empty:
      return "the pickle is empty";
    case pickle_errc::too_large:
      return e.opcode == 0 ? "the pickle is larger than the limit of " + to_decimal_string(e.offset) + " bytes"
                           : "the string of " + at + " is longer than a JSON string may be";
    case pickle_errc::truncated:
      return "the pickle ends " + end + " inside the argument of opcode " + std::string(pickle_opcode_name(e.opcode)) +
             " (" + detail::hex_byte(e.opcode) + "): it was cut short";
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
    case pickle_errc::result_too_large:
      return at + " passes the limit on the bytes of the result (copies of memo entries count each time)";
  }
  return at + " is refused";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::snapshot_file_error& e) {
  using memory::snapshot_file_errc;
  constexpr std::string_view accepted =
      "a memory snapshot is a pickle (torch.cuda.memory._dump_snapshot) or a JSON object";
  switch (e.code) {
    case snapshot_file_errc::empty:
      return "the file is empty; " + std::string(accepted);
    case snapshot_file_errc::neither_format: {
      const auto first = detail::data_of<memory::unknown_first_byte>(e.what);
      return "byte " + to_decimal_string(first.offset) + " is " + detail::hex_byte(first.value) +
             ": neither a pickle (first byte 0x80) nor JSON (first byte '{' after white space); " +
             std::string(accepted);
    }
    case snapshot_file_errc::too_large:
      return "the JSON is larger than the limit of " +
             to_decimal_string(detail::data_of<memory::size_limit>(e.what).max_bytes) + " bytes";
    case snapshot_file_errc::pickle:
      return "pickle: " + describe(detail::data_of<memory::pickle_error>(e.what));
    case snapshot_file_errc::json_syntax: {
      const auto stop = detail::data_of<memory::json_stop>(e.what);
      return "JSON: " + escaped(stop.reason.message()) + " at byte " + to_decimal_string(stop.offset);
    }
    case snapshot_file_errc::not_a_dict: {
      const auto top = detail::data_of<memory::non_dict_top>(e.what);
      return "the " + std::string(snapshot_format_name(top.format)) + " holds " +
             std::string(boost::json::to_string(top.top)) + " at its top, not a dict; " + std::string(accepted);
    }
  }
  return std::string(accepted);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_SNAPSHOT_ERRORS_IPP
