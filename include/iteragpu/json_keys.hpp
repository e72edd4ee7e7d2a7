#ifndef ITERAGPU_JSON_KEYS_HPP
#define ITERAGPU_JSON_KEYS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Duplicate keys in a JSON input. Boost.JSON's parser keeps the last of
/// two members with one key and says nothing, so a file could state a
/// figure twice and be read with either. Every reader of a JSON input runs
/// first_duplicate_key() on the text it parsed and refuses a duplicate,
/// naming its place.
namespace iteragpu {

/// Boost.JSON's default nesting limit, which every JSON reader but the
/// snapshot's keeps.
inline constexpr std::size_t json_default_max_depth = 32;

/// A text that is not JSON, or nests deeper than the reader accepts:
/// Boost.JSON's reason, as its parser gives it.
struct json_text_error {
  std::error_code parser;  ///< Boost.JSON's error (incomplete, syntax, too_deep...)
  /// Equal when the parser's errors are.
  friend bool operator==(const json_text_error&, const json_text_error&) = default;
};

/// The JSON Pointer (RFC 6901, "" for the document itself) of the first
/// member whose object already has a member of that key, as
/// "/environment/device"; nothing when every object has each key once.
/// The text is parsed nesting at most `max_depth` deep, the reader's own
/// limit; a text that does not parse so (deeper, or not JSON) is Boost.JSON's
/// error, never "no duplicate".
[[nodiscard]] result<std::optional<std::string>, json_text_error> first_duplicate_key(
    std::string_view text, std::size_t max_depth = json_default_max_depth);

/// A duplicate key at `pointer`, in the words of every JSON reader's
/// message: "the key at '/a/b' is given twice in its object".
[[nodiscard]] inline std::string duplicate_key_message(std::string_view pointer) {
  return "the key at " + quoted_excerpt(pointer) + " is given twice in its object";
}

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/impl/json_keys.ipp"
#endif

#endif  // ITERAGPU_JSON_KEYS_HPP
