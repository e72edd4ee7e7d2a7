#ifndef ITERAGPU_MEMORY_FILES_SNAPSHOT_HPP
#define ITERAGPU_MEMORY_FILES_SNAPSHOT_HPP

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/error_code.hpp"
#include "iteragpu/memory/files/detail/conversion.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The typed reader of a PyTorch memory snapshot: the plain dict that
/// `torch.cuda.memory._snapshot()` returns (read from its pickle or JSON
/// form by memory/files/snapshot_file.hpp) becomes a memory::snapshot.
///
/// Fields read (torch/csrc/cuda/memory_snapshot.cpp writes them):
/// `device_traces[device][i]`: `action`, `addr` (`device_free` for oom),
/// `size`, `stream`; `segments[i]`: `device`, `address`, `total_size`,
/// `stream`, `segment_type`, `is_expandable`, `blocks[j]`: `size`,
/// `requested_size`, `state` and `address` (older versions give no block
/// address: blocks then follow each other from the segment's address);
/// `allocator_settings` (PyTorch 2.3 and later). Other keys (`frames`,
/// `time_us`, `external_annotations`, ...) are not read.
namespace iteragpu::memory {

/// Why a dict is not a snapshot this reader understands.
enum class snapshot_errc {
  not_an_object,  ///< the top level, or an entry that must be a dict, is something else
  missing_field,  ///< a field the replay needs is absent
  wrong_type,     ///< a field holds another kind of value
  out_of_range,   ///< a number outside what the field accepts (a negative size, ...)
  unknown_value,  ///< a text field holds a word this reader does not know
};

/// The kind's name, as written above; the message of its std::error_code.
[[nodiscard]] constexpr std::string_view name_of(snapshot_errc kind) noexcept {
  switch (kind) {
    case snapshot_errc::not_an_object:
      return "not_an_object";
    case snapshot_errc::missing_field:
      return "missing_field";
    case snapshot_errc::wrong_type:
      return "wrong_type";
    case snapshot_errc::out_of_range:
      return "out_of_range";
    case snapshot_errc::unknown_value:
      return "unknown_value";
  }
  return "unknown";
}

/// The name of the std::error_category of snapshot_errc (error_code.hpp).
[[nodiscard]] constexpr const char* failure_category_name(snapshot_errc /*kind*/) noexcept {
  return "iteragpu.snapshot";
}

/// Why a dict is not a snapshot: the kind and where (a path such as
/// `device_traces[0][17].size`).
struct snapshot_error {
  snapshot_errc code{snapshot_errc::not_an_object};  ///< what is wrong
  std::string path;                                  ///< where in the document
  friend bool operator==(const snapshot_error&, const snapshot_error&) = default;
};

namespace detail::snapshot_fields {

using read_errc = unexpected<snapshot_error>;

[[nodiscard]] inline read_errc fail(snapshot_errc code, std::string path) {
  return unexpected{snapshot_error{code, std::move(path)}};
}

[[nodiscard]] std::string at(std::string_view path, std::string_view key);

[[nodiscard]] inline std::string at(std::string_view path, std::size_t index) {
  return std::string(path) + '[' + std::to_string(index) + ']';
}

// A non-negative integer (addresses pass 2^63 only as uint64).
[[nodiscard]] result<std::uint64_t, snapshot_error> unsigned_field(const boost::json::object& o, std::string_view key,
                                                                   std::string_view path);

// A stream as PyTorch writes it: the cudaStream_t as an integer, which a
// negative value may stand for in some versions; kept as its bit pattern.
[[nodiscard]] result<std::uint64_t, snapshot_error> stream_field(const boost::json::object& o, std::string_view path);

[[nodiscard]] std::optional<trace_action> action_named(std::string_view name) noexcept;

[[nodiscard]] result<trace_event, snapshot_error> event_from(const boost::json::value& v, const std::string& path);

[[nodiscard]] result<block_state, snapshot_error> state_from(const boost::json::object& o, const std::string& path);

[[nodiscard]] result<recorded_block, snapshot_error> block_from(const boost::json::value& v, std::uint64_t next,
                                                                const std::string& path);

[[nodiscard]] result<recorded_segment, snapshot_error> segment_from(const boost::json::object& o,
                                                                    const std::string& path);

// max_split_size: -1 (or SIZE_MAX where a version writes it unsigned) is
// unlimited; any other value under 20 MiB, which PyTorch never records, is
// out of range.
[[nodiscard]] result<std::optional<std::uint64_t>, snapshot_error> split_limit(const boost::json::value& v,
                                                                               const std::string& path);

// roundup_power2_divisions: {"1": n, "2": n, ..., "32768": n}, MiB keys.
[[nodiscard]] result<std::vector<std::pair<std::uint64_t, std::uint64_t>>, snapshot_error> divisions_from(
    const boost::json::value& v, const std::string& path);

[[nodiscard]] result<recorded_settings, snapshot_error> settings_from(const boost::json::object& o);

[[nodiscard]] result<device_trace, snapshot_error> events_from(const boost::json::value& v, const std::string& path);

// Each segment joins its device's entry; a device with segments and no
// trace list still gets one (within 64 past the traces).
[[nodiscard]] result<void, snapshot_error> add_segments(const boost::json::value& v, snapshot& into);

}  // namespace detail::snapshot_fields

/// The snapshot a dict holds: every device's events and segments, and the
/// settings where recorded.
[[nodiscard]] result<snapshot, snapshot_error> snapshot_from(const boost::json::value& document);

/// Boost.JSON's conversion, found by argument-dependent lookup:
/// `boost::json::try_value_to<memory::snapshot>(document)` reads through
/// snapshot_from(), and a refusal is the kind's to_error_code() (the path
/// is what snapshot_from() adds). The caller includes
/// `<boost/json/value_to.hpp>`.
template <class Value>
  requires std::same_as<Value, boost::json::value>
[[nodiscard]] auto tag_invoke(const boost::json::try_value_to_tag<snapshot>& /*tag*/, const Value& document) ->
    typename boost::json::result_for<snapshot, Value>::type {
  return detail::conversion_result<Value>(snapshot_from(document), &snapshot_error::code);
}

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/memory/files/impl/snapshot.ipp"
#endif

#endif  // ITERAGPU_MEMORY_FILES_SNAPSHOT_HPP
