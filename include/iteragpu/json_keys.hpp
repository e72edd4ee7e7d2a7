#ifndef ITERAGPU_JSON_KEYS_HPP
#define ITERAGPU_JSON_KEYS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/text.hpp"

/// \file
/// Duplicate keys in a JSON input. Boost.JSON's parser keeps the last of
/// two members with one key and says nothing, so a file could state a
/// figure twice and be read with either. Every reader of a JSON input runs
/// first_duplicate_key() on the text it parsed and refuses a duplicate,
/// naming its place.
namespace iteragpu {

/// The JSON Pointer (RFC 6901, "" for the document itself) of the first
/// member whose object already has a member of that key, as
/// "/environment/device"; nothing when every object has each key once, or
/// when the text is not JSON (the reader's own parse says so).
[[nodiscard]] std::optional<std::string> first_duplicate_key(std::string_view text);

/// A duplicate key at `pointer`, in the words of every JSON reader's
/// message: "the key at '/a/b' is given twice in its object".
[[nodiscard]] inline std::string duplicate_key_message(std::string_view pointer) {
  return "the key at " + quoted_excerpt(pointer) + " is given twice in its object";
}

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE)
#include "iteragpu/impl/json_keys.ipp"
#endif

#endif  // ITERAGPU_JSON_KEYS_HPP
