#ifndef ITERAGPU_MEMORY_FILES_DETAIL_CONVERSION_HPP
#define ITERAGPU_MEMORY_FILES_DETAIL_CONVERSION_HPP

#include <utility>

#include <boost/json/fwd.hpp>

#include "iteragpu/error_code.hpp"
#include "iteragpu/result.hpp"

// What the typed readers' Boost.JSON conversions (their tag_invoke) share:
// a reader's result as the result Boost.JSON's try_value_to() returns.
namespace iteragpu::memory::detail {

// The value read, or the kind of the reader's error (the member `kind` points to, its `code`) as
// a std::error_code; the rest of the error (row, key, path) is dropped.
template <class Value, class T, class E, class Kind>
[[nodiscard]] auto conversion_result(result<T, E>&& read, Kind E::* kind) ->
    typename boost::json::result_for<T, Value>::type {
  using converted = typename boost::json::result_for<T, Value>::type;
  if (!read.has_value()) {
    return typename converted::error_type(to_error_code(read.error().*kind));
  }
  return std::move(read).value();
}

}  // namespace iteragpu::memory::detail

#endif  // ITERAGPU_MEMORY_FILES_DETAIL_CONVERSION_HPP
