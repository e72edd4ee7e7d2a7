#ifndef ITERAGPU_SWEEP_PALETTE_HPP
#define ITERAGPU_SWEEP_PALETTE_HPP

#include <array>
#include <cstddef>
#include <string_view>

/// \file
/// How the plot tells its series apart: a colour of the Okabe-Ito palette
/// (readable with the common colour-vision deficiencies; its yellow is left
/// out, too pale on white) AND a marker shape, so that two series never
/// look alike, in print in grey included. The shapes that mark skipped and
/// failed points are kept apart from the series' shapes.
namespace iteragpu::sweep {

/// The shape of a marker on the plot.
enum class marker_shape {
  circle,          ///< a series' shape
  square,          ///< a series' shape
  diamond,         ///< a series' shape
  triangle_down,   ///< a series' shape
  triangle_left,   ///< a series' shape
  triangle_right,  ///< a series' shape
  star,            ///< a series' shape
  cross,           ///< a point skipped for the device's memory: an X
  plus,            ///< a point skipped for the host's memory: a +
  bar,             ///< a point skipped after a smaller point failed: a horizontal bar
  asterisk,        ///< a point skipped because its shape cannot be predicted: a *
  triangle_up,     ///< a failed point
};

/// The marker's name, as the SVG's legend entries record it (`data-marker`).
[[nodiscard]] constexpr std::string_view name_of(marker_shape m) noexcept {
  switch (m) {
    case marker_shape::circle:
      return "circle";
    case marker_shape::square:
      return "square";
    case marker_shape::diamond:
      return "diamond";
    case marker_shape::triangle_down:
      return "triangle-down";
    case marker_shape::triangle_left:
      return "triangle-left";
    case marker_shape::triangle_right:
      return "triangle-right";
    case marker_shape::star:
      return "star";
    case marker_shape::cross:
      return "cross";
    case marker_shape::plus:
      return "plus";
    case marker_shape::bar:
      return "bar";
    case marker_shape::asterisk:
      return "asterisk";
    case marker_shape::triangle_up:
      return "triangle-up";
  }
  return "circle";
}

/// The Okabe-Ito colours but yellow: black, orange, sky blue, bluish green,
/// blue, vermillion, reddish purple.
inline constexpr std::array<std::string_view, 7> okabe_ito{"#000000", "#E69F00", "#56B4E9", "#009E73",
                                                           "#0072B2", "#D55E00", "#CC79A7"};

/// The shapes series take, none of those that mark skipped or failed points.
inline constexpr std::array<marker_shape, 7> series_shapes{
    marker_shape::circle,        marker_shape::square,         marker_shape::diamond, marker_shape::triangle_down,
    marker_shape::triangle_left, marker_shape::triangle_right, marker_shape::star};

/// How many series style_of() keeps apart: every colour with every shape.
inline constexpr std::size_t distinct_styles = okabe_ito.size() * series_shapes.size();

/// A series' colour and marker.
struct series_style {
  std::string_view colour;  ///< one of okabe_ito
  marker_shape marker;      ///< one of series_shapes
};

/// The style of the series numbered `index`: the colour cycles with every
/// series and the shape shifts by one at each turn of the colours, so that
/// the first distinct_styles series differ in colour or shape (two series
/// of one colour are `okabe_ito.size()` apart, and then differ in shape).
[[nodiscard]] constexpr series_style style_of(std::size_t index) noexcept {
  const std::size_t colours = okabe_ito.size();
  const std::size_t turn = (index / colours) % series_shapes.size();
  return {okabe_ito[index % colours], series_shapes[(index % colours + turn) % series_shapes.size()]};
}

/// The grey of skipped points.
inline constexpr std::string_view skipped_colour = "#7f7f7f";
/// The red of failed points (no series takes it).
inline constexpr std::string_view failed_colour = "#d62728";

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_PALETTE_HPP
