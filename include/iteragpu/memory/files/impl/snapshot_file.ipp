#ifndef ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_FILE_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_FILE_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"

// The bodies of the functions that <iteragpu/memory/files/snapshot_file.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<boost::json::value, snapshot_file_error> read_snapshot_bytes(
    std::span<const unsigned char> bytes, const pickle_limits& limits, const boost::json::storage_ptr& sp) {
  std::size_t first = 0;
  while (first < bytes.size() &&
         (bytes[first] == ' ' || bytes[first] == '\t' || bytes[first] == '\n' || bytes[first] == '\r')) {
    ++first;
  }
  if (first == bytes.size()) {
    return unexpected{snapshot_file_error{snapshot_file_errc::empty, {}}};
  }
  snapshot_format format = snapshot_format::pickle;
  boost::json::value top(sp);
  if (bytes[0] == pickle_first_byte) {
    auto read = read_pickle(bytes, limits, sp);
    if (!read) {
      return unexpected{snapshot_file_error{snapshot_file_errc::pickle, read.error()}};
    }
    top = std::move(*read);
  } else if (bytes[first] == '{') {
    if (bytes.size() > limits.max_bytes) {
      return unexpected{snapshot_file_error{snapshot_file_errc::too_large, size_limit{limits.max_bytes}}};
    }
    boost::json::parse_options options;
    options.max_depth = limits.max_depth;
    boost::json::parser parser({}, options);
    parser.reset(sp);
    boost::system::error_code ec;
    // Reading unsigned char as char is allowed aliasing.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const std::size_t used = parser.write(text, ec);
    if (ec) {
      return unexpected{snapshot_file_error{snapshot_file_errc::json_syntax, json_stop{ec, used}}};
    }
    top = parser.release();
    format = snapshot_format::json;
  } else {
    return unexpected{snapshot_file_error{snapshot_file_errc::neither_format, unknown_first_byte{first, bytes[first]}}};
  }
  if (!top.is_object()) {
    return unexpected{snapshot_file_error{snapshot_file_errc::not_a_dict, non_dict_top{format, top.kind()}}};
  }
  return top;
}

[[nodiscard]] ITERAGPU_INLINE result<boost::json::value, snapshot_file_error> read_snapshot_bytes(
    std::span<const unsigned char> bytes, const pickle_limits& limits) {
  return read_snapshot_bytes(bytes, limits, {});
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_IMPL_SNAPSHOT_FILE_IPP
