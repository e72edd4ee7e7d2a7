#ifndef ITERAGPU_MEMORY_PREDICTION_IMPL_PLAN_IPP
#define ITERAGPU_MEMORY_PREDICTION_IMPL_PLAN_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/plan.hpp"

// The bodies of the functions that <iteragpu/memory/prediction/plan.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::prediction {

[[nodiscard]] ITERAGPU_INLINE std::uint64_t peak_reserved(const std::vector<phase_row>& rows) noexcept {
  std::uint64_t peak = 0;
  for (const auto& row : rows) {
    peak = peak > row.peak_reserved_bytes ? peak : row.peak_reserved_bytes;
  }
  return peak;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<memory_need> need_of(const std::vector<phase_row>& rows,
                                                                 byte_count outside) {
  const auto total = checked_add(peak_reserved(rows), outside.value);
  if (!total) {
    return std::nullopt;
  }
  return memory_need{byte_count{*total}, std::string(plan_need_source)};
}

[[nodiscard]] ITERAGPU_INLINE fit_check check_fit(const plan_request& request, byte_count memory) {
  fit_check check{memory, false, std::nullopt, std::nullopt, {}};
  if (memory.value <= request.outside_allocator.value) {
    check.message = "the memory outside the allocator alone takes the card";
    return check;
  }
  const byte_count capacity{memory.value - request.outside_allocator.value};
  const auto rows = predict_synthetic(request.shape, request.dtype, request.workspaces, request.passes, capacity);
  if (!rows) {
    check.failed_phase = rows.error().phase;
    check.message = rows.error().message;
    return check;
  }
  check.fits = true;
  check.headroom_bytes = capacity.value - peak_reserved(*rows);
  return check;
}

[[nodiscard]] ITERAGPU_INLINE result<largest_value, largest_errc> find_largest(const plan_request& request,
                                                                               plan_dimension dimension,
                                                                               byte_count memory) {
  const auto fits_with = [&](std::uint64_t v) {
    plan_request r = request;
    dimension_of(r.shape, dimension) = v;
    return check_fit(r, memory);
  };
  if (!fits_with(1).fits) {
    return largest_value{dimension, 0, fits_with(1)};
  }
  std::uint64_t good = 1;
  std::uint64_t bad = 2;
  constexpr std::uint64_t limit = std::uint64_t{1} << 62U;
  while (fits_with(bad).fits) {
    good = bad;
    if (bad >= limit) {
      return unexpected{largest_errc::none_fits_below_limit};
    }
    bad *= 2;
  }
  while (bad - good > 1) {
    const std::uint64_t middle = good + (bad - good) / 2;
    (fits_with(middle).fits ? good : bad) = middle;
  }
  return largest_value{dimension, good, fits_with(good + 1)};
}

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_IMPL_PLAN_IPP
