#ifndef ITERAGPU_MEMORY_PREDICTION_PLAN_HPP
#define ITERAGPU_MEMORY_PREDICTION_PLAN_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/result.hpp"

/// \file
/// A run planned with no GPU: every phase predicted, the memory it needs,
/// whether it fits a card, and the largest value of one dimension that does.
namespace iteragpu::memory::prediction {

/// What a plan predicts: the run of the synthetic network, and the memory
/// outside the allocator. The figures of the card are the caller's: none
/// is assumed (h200_pytorch_2_11 and h200_pytorch_2_11_outside_allocator
/// are an H200's with PyTorch 2.11, which the programs take by default).
struct plan_request {
  synthetic_shape shape;                      ///< batch, context and width
  element_type dtype{element_type::float32};  ///< the element type
  protocol_plan passes{1, 2, std::nullopt};   ///< warm-up passes and repeats (1 and 2 by default)
  blas_workspaces workspaces{};               ///< the GPU libraries' workspaces; none unless given
  byte_count outside_allocator{};             ///< the CUDA context, libraries and other processes; none unless given
};

/// The peak of the allocator's reserved bytes over the rows.
[[nodiscard]] std::uint64_t peak_reserved(const std::vector<phase_row>& rows) noexcept;

/// The source of a planned need, as memory_need::source.
inline constexpr std::string_view plan_need_source =
    "plan: the predicted peak reserved of the caching allocator plus the memory outside it";

/// The need of a predicted run: its peak reserved plus the memory outside the
/// allocator; nothing past 64 bits.
[[nodiscard]] std::optional<memory_need> need_of(const std::vector<phase_row>& rows, byte_count outside);

/// Whether the run fits a card of `memory` bytes. The allocator may reserve
/// what the memory outside it leaves, and releases its cached segments and
/// tries again before it gives up, as PyTorch's does: the run fits when the
/// prediction with that capacity runs to its end.
struct fit_check {
  byte_count memory;                              ///< the card's memory, as asked
  bool fits{false};                               ///< whether the prediction with that capacity ran to its end
  std::optional<std::uint64_t> headroom_bytes{};  ///< memory - outside - peak reserved, when it fits
  std::optional<phase_kind> failed_phase{};       ///< where it would run out, when it does not
  std::string message;                            ///< why it does not fit; empty when it fits
};

/// Predicts the run with the capacity `memory` leaves to the allocator (see fit_check).
[[nodiscard]] fit_check check_fit(const plan_request& request, byte_count memory);

/// The dimension of the synthetic network that `plan --largest` searches.
enum class plan_dimension { batch, context, width };

/// The dimension's name on the command line and in JSON.
[[nodiscard]] constexpr std::string_view name_of(plan_dimension d) noexcept {
  switch (d) {
    case plan_dimension::batch:
      return "batch";
    case plan_dimension::context:
      return "context";
    case plan_dimension::width:
      return "width";
  }
  return "unknown";
}

/// The dimension of that name, or nothing.
[[nodiscard]] constexpr std::optional<plan_dimension> parse_plan_dimension(std::string_view text) noexcept {
  for (const auto d : {plan_dimension::batch, plan_dimension::context, plan_dimension::width}) {
    if (text == name_of(d)) {
      return d;
    }
  }
  return std::nullopt;
}

/// The member of `shape` that holds dimension `d`.
[[nodiscard]] constexpr std::uint64_t& dimension_of(synthetic_shape& shape, plan_dimension d) noexcept {
  switch (d) {
    case plan_dimension::context:
      return shape.context;
    case plan_dimension::width:
      return shape.width;
    case plan_dimension::batch:
      break;
  }
  return shape.batch;
}

/// The largest value of one dimension whose run fits, and the check of the next one.
struct largest_value {
  plan_dimension dimension{plan_dimension::batch};  ///< the dimension searched
  std::uint64_t value{0};                           ///< 0: not even 1 fits
  fit_check next;                                   ///< the check of value + 1, which fails
};

/// Why find_largest() found no largest value.
enum class largest_errc {
  none_fits_below_limit,  ///< every value up to 2^62 fits (the memory is beyond the model's reach)
};

/// The largest value of `dimension` (the others as in the request) whose run
/// fits `memory`. Every tensor grows with each dimension and the allocator
/// reserves no less for larger blocks, so fitting is monotone: an
/// exponential search finds a bound, a binary search the edge, and the value
/// found is checked to fit and the next not to.
[[nodiscard]] result<largest_value, largest_errc> find_largest(const plan_request& request, plan_dimension dimension,
                                                               byte_count memory);

}  // namespace iteragpu::memory::prediction

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/impl/plan.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_PLAN_HPP
