#ifndef ITERAGPU_MEMORY_IMPL_INPUT_SPEC_IPP
#define ITERAGPU_MEMORY_IMPL_INPUT_SPEC_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/input_spec.hpp"

// The bodies of the functions that <iteragpu/memory/input_spec.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<input_spec, input_spec_error> parse_input_spec(std::string_view text) {
  if (text.empty()) {
    return unexpected{input_spec_error{input_spec_errc::empty, 0}};
  }
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return unexpected{input_spec_error{input_spec_errc::no_dtype, text.size()}};
  }
  input_spec spec;
  const auto dtype = parse_input_dtype(text.substr(colon + 1));
  if (!dtype) {
    return unexpected{input_spec_error{input_spec_errc::unknown_dtype, colon + 1}};
  }
  spec.dtype = *dtype;
  const std::string_view sizes = text.substr(0, colon);
  std::size_t start = 0;
  while (true) {
    const auto end = std::min(sizes.find('x', start), sizes.size());
    const auto size = parse_unsigned(sizes.substr(start, end - start));
    if (!size || *size == 0) {
      return unexpected{input_spec_error{input_spec_errc::bad_size, start}};
    }
    if (*size > largest_input_count) {
      return unexpected{input_spec_error{input_spec_errc::too_many_elements, start}};
    }
    spec.shape.push_back(static_cast<std::int64_t>(*size));
    if (end == sizes.size()) {
      break;
    }
    start = end + 1;
  }
  if (!bytes_of(spec)) {
    return unexpected{input_spec_error{input_spec_errc::too_many_elements, 0}};
  }
  return spec;
}

[[nodiscard]] ITERAGPU_INLINE std::string to_string(const input_spec& spec) {
  std::string text;
  for (const auto size : spec.shape) {
    text += (text.empty() ? "" : "x") + std::to_string(size);
  }
  return text + ":" + std::string(name_of(spec.dtype));
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_INPUT_SPEC_IPP
