#ifndef ITERAGPU_MEMORY_POLICIES_DTYPE_HPP
#define ITERAGPU_MEMORY_POLICIES_DTYPE_HPP

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

/// \file
/// The element type of the synthetic model's weights and inputs, as a
/// compile-time policy. LibTorch's scalar type for each policy is given in
/// iteragpu/torch/dtype.hpp, which checks there that the byte sizes agree.
namespace iteragpu::memory {

/// The element types the synthetic model can be built in.
enum class element_type { float32, float16, bfloat16 };

/// A compile-time element type: its name, its element_type and its size in bytes (above 0).
template <class D>
concept dtype_policy = requires {
  { D::name } -> std::convertible_to<std::string_view>;
  { D::element } -> std::convertible_to<element_type>;
  { D::bytes_per_element } -> std::convertible_to<std::size_t>;
} && (D::bytes_per_element > 0);

namespace dtypes {

/// IEEE 754 single precision.
struct float32 {
  static constexpr std::string_view name = "float32";             ///< its name on the command line and in JSON
  static constexpr element_type element = element_type::float32;  ///< the run-time value
  static constexpr std::size_t bytes_per_element = 4;             ///< bytes per element
};

/// IEEE 754 half precision.
struct float16 {
  static constexpr std::string_view name = "float16";             ///< its name on the command line and in JSON
  static constexpr element_type element = element_type::float16;  ///< the run-time value
  static constexpr std::size_t bytes_per_element = 2;             ///< bytes per element
};

/// bfloat16: float32's exponent range with an 8-bit significand.
struct bfloat16 {
  static constexpr std::string_view name = "bfloat16";             ///< its name on the command line and in JSON
  static constexpr element_type element = element_type::bfloat16;  ///< the run-time value
  static constexpr std::size_t bytes_per_element = 2;              ///< bytes per element
};

}  // namespace dtypes

static_assert(dtype_policy<dtypes::float32> && dtype_policy<dtypes::float16> && dtype_policy<dtypes::bfloat16>);

/// The names `--dtype` accepts, in the order of element_type.
inline constexpr std::array<std::string_view, 3> dtype_names{dtypes::float32::name, dtypes::float16::name,
                                                             dtypes::bfloat16::name};

/// The element type of that name, or nothing.
[[nodiscard]] constexpr std::optional<element_type> parse_element_type(std::string_view name) noexcept {
  if (name == dtypes::float32::name) {
    return element_type::float32;
  }
  if (name == dtypes::float16::name) {
    return element_type::float16;
  }
  if (name == dtypes::bfloat16::name) {
    return element_type::bfloat16;
  }
  return std::nullopt;
}

/// The element type's name on the command line and in JSON.
[[nodiscard]] constexpr std::string_view name_of(element_type e) noexcept {
  switch (e) {
    case element_type::float32:
      return dtypes::float32::name;
    case element_type::float16:
      return dtypes::float16::name;
    case element_type::bfloat16:
      return dtypes::bfloat16::name;
  }
  return "unknown";
}

/// Bytes per element of that type.
[[nodiscard]] constexpr std::size_t bytes_per_element(element_type e) noexcept {
  switch (e) {
    case element_type::float16:
      return dtypes::float16::bytes_per_element;
    case element_type::bfloat16:
      return dtypes::bfloat16::bytes_per_element;
    case element_type::float32:
      break;
  }
  return dtypes::float32::bytes_per_element;
}

/// Calls `f.template operator()<Policy>()` with the policy named at run time:
/// the one place where a run-time choice becomes a compile-time type.
template <class F>
constexpr decltype(auto) with_dtype(element_type e, F&& f) {
  switch (e) {
    case element_type::float16:
      return std::forward<F>(f).template operator()<dtypes::float16>();
    case element_type::bfloat16:
      return std::forward<F>(f).template operator()<dtypes::bfloat16>();
    case element_type::float32:
      break;
  }
  return std::forward<F>(f).template operator()<dtypes::float32>();
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_POLICIES_DTYPE_HPP
