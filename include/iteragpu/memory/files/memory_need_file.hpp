#ifndef ITERAGPU_MEMORY_FILES_MEMORY_NEED_FILE_HPP
#define ITERAGPU_MEMORY_FILES_MEMORY_NEED_FILE_HPP

#include <cstdint>
#include <optional>
#include <string>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The `memory_need` object of the JSON of a weight estimate, a plan and a
/// replay (data/schema/memory-need.schema.json), read into a typed value: the
/// bytes and, when the document gives it, its own words for where they come
/// from. Errors carry the value found; the words are report/need_input.hpp's.
namespace iteragpu::memory {

/// A document's memory_need, as read.
struct memory_need_record {
  std::uint64_t bytes{0};             ///< memory_need.bytes
  std::optional<std::string> source;  ///< memory_need.source, where it is a string
  friend bool operator==(const memory_need_record&, const memory_need_record&) = default;
};

/// Why a document gives no memory_need.
enum class memory_need_errc : std::uint8_t {
  missing,          ///< no memory_need
  null,             ///< memory_need is null: the need passes 64 bits of bytes
  not_an_object,    ///< memory_need is neither null nor an object
  bytes_missing,    ///< memory_need has no bytes
  bytes_not_bytes,  ///< memory_need.bytes is not an integer from 0 to 2^64 - 1 (value)
};

/// Why a document gives no memory_need; `value` is kept for bytes_not_bytes.
struct memory_need_error {
  memory_need_errc code{memory_need_errc::missing};  ///< what is wrong
  std::string value{};                               ///< bytes_not_bytes: the value found, as JSON text
  friend bool operator==(const memory_need_error&, const memory_need_error&) = default;
};

/// The memory_need of `document` (an estimate, a plan or a replay).
[[nodiscard]] result<memory_need_record, memory_need_error> read_memory_need(const boost::json::object& document);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/memory/files/impl/memory_need_file.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_MEMORY_NEED_FILE_HPP
