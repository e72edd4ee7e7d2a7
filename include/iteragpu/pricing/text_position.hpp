#ifndef ITERAGPU_PRICING_TEXT_POSITION_HPP
#define ITERAGPU_PRICING_TEXT_POSITION_HPP

#include <cstddef>

/// \file
/// A place in a text file, as messages name it: a line and a column, both counted from 1.
namespace iteragpu::pricing {

/// A line and a column in a text, both 1-based; columns count bytes.
struct text_position {
  std::size_t line{1};    ///< the line, from 1
  std::size_t column{1};  ///< the byte on that line, from 1
  /// Equal when line and column are.
  friend constexpr bool operator==(text_position, text_position) = default;
};

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_TEXT_POSITION_HPP
