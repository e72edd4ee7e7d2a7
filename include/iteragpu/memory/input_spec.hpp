#ifndef ITERAGPU_MEMORY_INPUT_SPEC_HPP
#define ITERAGPU_MEMORY_INPUT_SPEC_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"

/// \file
/// One input of a user's model as the user describes it: a shape and an
/// element type, written `8x512:int64` or `16x3x224x224:float32`. Torch-free,
/// so that a machine without LibTorch or without a GPU checks the inputs too.
namespace iteragpu::memory {

/// The element types an input may have.
enum class input_dtype { float32, float16, bfloat16, float64, int64, int32, int16, int8, uint8 };

/// Every input_dtype, in the order of the enumeration.
inline constexpr std::array<input_dtype, 9> input_dtypes{
    input_dtype::float32, input_dtype::float16, input_dtype::bfloat16, input_dtype::float64, input_dtype::int64,
    input_dtype::int32,   input_dtype::int16,   input_dtype::int8,     input_dtype::uint8};

/// The dtype's name in a spec and in JSON.
[[nodiscard]] constexpr std::string_view name_of(input_dtype d) noexcept {
  switch (d) {
    case input_dtype::float32:
      return "float32";
    case input_dtype::float16:
      return "float16";
    case input_dtype::bfloat16:
      return "bfloat16";
    case input_dtype::float64:
      return "float64";
    case input_dtype::int64:
      return "int64";
    case input_dtype::int32:
      return "int32";
    case input_dtype::int16:
      return "int16";
    case input_dtype::int8:
      return "int8";
    case input_dtype::uint8:
      return "uint8";
  }
  return "unknown";
}

/// Whether the inputs of this type are drawn from the normal distribution
/// (floating types) rather than uniformly from [0, input_high).
[[nodiscard]] constexpr bool is_floating(input_dtype d) noexcept {
  return d == input_dtype::float32 || d == input_dtype::float16 || d == input_dtype::bfloat16 ||
         d == input_dtype::float64;
}

/// Bytes per element of the type.
[[nodiscard]] constexpr std::uint64_t bytes_per_element(input_dtype d) noexcept {
  switch (d) {
    case input_dtype::float64:
    case input_dtype::int64:
      return 8;
    case input_dtype::float32:
    case input_dtype::int32:
      return 4;
    case input_dtype::float16:
    case input_dtype::bfloat16:
    case input_dtype::int16:
      return 2;
    case input_dtype::int8:
    case input_dtype::uint8:
      break;
  }
  return 1;
}

/// The largest exclusive upper bound of integer values an integer type
/// holds (2^63-1 for int64, whose largest value is one below that bound's
/// limit); nothing for floating types.
[[nodiscard]] constexpr std::optional<std::uint64_t> largest_input_high(input_dtype d) noexcept {
  switch (d) {
    case input_dtype::int64:
      return std::numeric_limits<std::int64_t>::max();
    case input_dtype::int32:
      return std::uint64_t{std::numeric_limits<std::int32_t>::max()} + 1U;
    case input_dtype::int16:
      return std::uint64_t{std::numeric_limits<std::int16_t>::max()} + 1U;
    case input_dtype::int8:
      return std::uint64_t{std::numeric_limits<std::int8_t>::max()} + 1U;
    case input_dtype::uint8:
      return std::uint64_t{std::numeric_limits<std::uint8_t>::max()} + 1U;
    default:
      return std::nullopt;
  }
}

/// The dtype of that name, or nothing.
[[nodiscard]] constexpr std::optional<input_dtype> parse_input_dtype(std::string_view name) noexcept {
  for (const auto d : input_dtypes) {
    if (name == name_of(d)) {
      return d;
    }
  }
  return std::nullopt;
}

/// One input: its sizes (each above 0) and its element type.
struct input_spec {
  std::vector<std::int64_t> shape;          ///< the sizes, outermost first
  input_dtype dtype{input_dtype::float32};  ///< the element type
  /// Equal when shape and dtype are.
  friend bool operator==(const input_spec&, const input_spec&) = default;
};

/// What is wrong with an input spec.
enum class input_spec_errc {
  empty,              ///< no text
  no_dtype,           ///< no `:` followed by a dtype
  bad_size,           ///< a size that is not a positive integer (digits only)
  unknown_dtype,      ///< a dtype outside input_dtypes
  too_many_elements,  ///< elements or bytes past 2^63-1
};

/// An input spec that does not parse: the problem and where, as a 0-based
/// offset into the text.
struct input_spec_error {
  input_spec_errc code{input_spec_errc::empty};  ///< what is wrong
  std::size_t offset{0};                         ///< where it starts in the text
  /// Equal when both members are.
  friend bool operator==(const input_spec_error&, const input_spec_error&) = default;
};

/// The largest element or byte count an input may have: what LibTorch indexes.
inline constexpr std::uint64_t largest_input_count = std::numeric_limits<std::int64_t>::max();

/// The bytes of an input, or nothing past largest_input_count.
[[nodiscard]] constexpr std::optional<std::uint64_t> bytes_of(const input_spec& spec) noexcept {
  std::uint64_t total = bytes_per_element(spec.dtype);
  for (const auto size : spec.shape) {
    if (size <= 0) {
      return std::nullopt;
    }
    const auto next = checked_mul<std::uint64_t>(total, static_cast<std::uint64_t>(size));
    if (!next || *next > largest_input_count) {
      return std::nullopt;
    }
    total = *next;
  }
  return total;
}

/// `SIZExSIZE...:DTYPE`, e.g. `8x512:int64`: one size at least, each a
/// positive integer in digits, and one of the names of input_dtypes.
[[nodiscard]] result<input_spec, input_spec_error> parse_input_spec(std::string_view text);

/// The spec as it is written: `8x512:int64`.
[[nodiscard]] std::string to_string(const input_spec& spec);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/input_spec.ipp"
#endif

#endif  // ITERAGPU_MEMORY_INPUT_SPEC_HPP
