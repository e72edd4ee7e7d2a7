#ifndef ITERAGPU_MEMORY_FILES_SNAPSHOT_FILE_HPP
#define ITERAGPU_MEMORY_FILES_SNAPSHOT_FILE_HPP

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include <boost/json/fwd.hpp>
#include <boost/json/kind.hpp>

#include "iteragpu/memory/files/pickle.hpp"
#include "iteragpu/one_of.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The bytes of a PyTorch memory snapshot file, in either form it is
/// written: the pickle of `torch.cuda.memory._dump_snapshot(path)`, or the
/// same dict as JSON (`json.dump(torch.cuda.memory._snapshot(), f)`), read
/// into one JSON value whose top level is an object. The form is told from
/// the first bytes: the byte 0x80 (PROTO, which opens every pickle of
/// protocol 2 and later) first, or `{` as the first byte that is not JSON
/// white space. What the keys mean is read elsewhere.
namespace iteragpu::memory {

/// The two forms of a snapshot file.
enum class snapshot_format : std::uint8_t {
  pickle,  ///< `pickle.dump` of the dict, protocol 2 to 5
  json,    ///< the dict as JSON
};

/// Why snapshot bytes were not read.
enum class snapshot_file_errc : std::uint8_t {
  empty,           ///< no bytes, or only white space
  neither_format,  ///< neither 0x80 first nor `{` first after white space (unknown_first_byte)
  too_large,       ///< JSON longer than pickle_limits::max_bytes (size_limit)
  pickle,          ///< the pickle was refused (pickle_error says why)
  json_syntax,     ///< the JSON is malformed or nested too deep (json_stop)
  not_a_dict,      ///< the top level is not a dict (non_dict_top)
};

/// neither_format: the first byte after white space.
struct unknown_first_byte {
  std::uint64_t offset{0};  ///< where it is
  std::uint8_t value{0};    ///< what it is
  /// Equal when both members are.
  friend bool operator==(const unknown_first_byte&, const unknown_first_byte&) = default;
};

/// too_large: the bound the JSON passes.
struct size_limit {
  std::uint64_t max_bytes{0};  ///< pickle_limits::max_bytes
  /// Equal when the bounds are.
  friend bool operator==(const size_limit&, const size_limit&) = default;
};

/// json_syntax: where and why Boost.JSON's parser stopped.
struct json_stop {
  std::error_code reason{};  ///< Boost.JSON's
  std::uint64_t offset{0};   ///< the bytes read when it stopped
  /// Equal when both members are.
  friend bool operator==(const json_stop&, const json_stop&) = default;
};

/// not_a_dict: the form the file was in and what its top level is.
struct non_dict_top {
  snapshot_format format{snapshot_format::pickle};  ///< pickle or JSON
  boost::json::kind top{boost::json::kind::null};   ///< the top level's kind
  /// Equal when both members are.
  friend bool operator==(const non_dict_top&, const non_dict_top&) = default;
};

/// What a snapshot_file_error carries beyond its code, one alternative per
/// shape: unknown_first_byte (neither_format), size_limit (too_large),
/// pickle_error (pickle: the pickle reader's reason), json_stop
/// (json_syntax), non_dict_top (not_a_dict), nothing (std::monostate) for empty.
using snapshot_file_data =
    one_of<std::monostate, unknown_first_byte, size_limit, pickle_error, json_stop, non_dict_top>;

/// Why snapshot bytes were not read: the kind, and in `what` the data it names.
struct snapshot_file_error {
  snapshot_file_errc code{snapshot_file_errc::empty};  ///< what is wrong
  snapshot_file_data what{};                           ///< the data the code names
  /// Equal when both members are.
  friend bool operator==(const snapshot_file_error&, const snapshot_file_error&) = default;
};

/// The first byte of every pickle of protocol 2 and later (PROTO).
inline constexpr std::uint8_t pickle_first_byte = 0x80;

/// Reads snapshot bytes, a pickle or JSON (see the file's description),
/// into a JSON object allocated from `sp`. `limits` bound both forms: the
/// bytes and the nesting depth (for JSON, Boost.JSON's max_depth); the
/// entries only the pickle (JSON cannot repeat a value without spelling it
/// out). A key given twice in the JSON keeps its last value, as Boost.JSON
/// and Python's json module read it. The only exception that can come out is
/// allocation's std::bad_alloc.
[[nodiscard]] result<boost::json::value, snapshot_file_error> read_snapshot_bytes(std::span<const unsigned char> bytes,
                                                                                  const pickle_limits& limits,
                                                                                  const boost::json::storage_ptr& sp);
/// read_snapshot_bytes() with the default memory resource.
[[nodiscard]] result<boost::json::value, snapshot_file_error> read_snapshot_bytes(std::span<const unsigned char> bytes,
                                                                                  const pickle_limits& limits = {});

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/memory/files/impl/snapshot_file.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_SNAPSHOT_FILE_HPP
