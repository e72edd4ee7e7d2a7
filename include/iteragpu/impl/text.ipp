#ifndef ITERAGPU_IMPL_TEXT_IPP
#define ITERAGPU_IMPL_TEXT_IPP

#include <cstdlib>

#include "iteragpu/config.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/text.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto step = detail::decode_utf8(text, at);
    if (step.length == 0 || step.code_point < 0x20U || step.code_point == 0x7FU) {
      const auto byte = static_cast<unsigned char>(text[at]);
      out += "\\x";
      out.push_back(detail::hex_digits[byte >> 4U]);
      out.push_back(detail::hex_digits[byte & 0xFU]);
      ++at;
      continue;
    }
    if (detail::is_control(step.code_point) || detail::is_bidi_control(step.code_point)) {
      out += "\\u";
      for (unsigned shift = 16; shift != 0;) {
        shift -= 4;
        out.push_back(detail::hex_digits[(step.code_point >> shift) & 0xFU]);
      }
    } else {
      out.append(text.substr(at, step.length));
    }
    at += step.length;
  }
  return out;
}

[[nodiscard]] ITERAGPU_INLINE std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto step = detail::decode_utf8(text, at);
    if (step.length == 0) {
      out += "\xEF\xBF\xBD";
      ++at;
      continue;
    }
    out.append(text.substr(at, step.length));
    at += step.length;
  }
  return out;
}

[[nodiscard]] ITERAGPU_INLINE std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

[[nodiscard]] ITERAGPU_INLINE std::string quoted_excerpt(std::string_view text, std::size_t longest) {
  if (text.size() <= longest) {
    return quoted(text);
  }
  std::size_t cut = longest;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
    --cut;
  }
  return "'" + escaped(text.substr(0, cut)) + "...'";
}

}  // namespace iteragpu

#endif  // ITERAGPU_IMPL_TEXT_IPP
