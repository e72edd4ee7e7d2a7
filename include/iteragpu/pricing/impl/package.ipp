#ifndef ITERAGPU_PRICING_IMPL_PACKAGE_IPP
#define ITERAGPU_PRICING_IMPL_PACKAGE_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/pricing/package.hpp"

// The bodies of the functions that <iteragpu/pricing/package.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE result<package_quote, package_error> quote_package(const catalog& prices,
                                                                                 const package_request& request) {
  const auto fail = [](package_errc kind, const gpu_offer* offer = nullptr) {
    return unexpected{package_error{kind, offer != nullptr ? std::optional<gpu_offer>(*offer) : std::nullopt}};
  };
  if (request.lots.value == 0) {
    return fail(package_errc::zero_lots);
  }
  if (request.accepted && request.accepted->value == 0) {
    return fail(package_errc::zero_accepted_results);
  }
  const gpu_offer* offer = prices.find(request.gpu);
  if (offer == nullptr) {
    return fail(package_errc::unknown_gpu);
  }
  const auto lot_price = offer->lot_price(request.days);
  if (!lot_price) {
    return fail(package_errc::unknown_duration, offer);
  }
  const auto gpus = checked_mul(request.lots.value, offer->gpus_per_lot.value);
  if (!gpus) {
    return fail(package_errc::total_gpus_overflow, offer);
  }
  const auto total = try_multiply(*lot_price, request.lots.value);
  if (!total) {
    return fail(package_errc::total_price_overflow, offer);
  }
  package_quote q;
  q.snapshot = prices.snapshot();
  q.offer = *offer;
  q.days = request.days;
  q.lots = request.lots;
  q.total_gpus = gpu_count{*gpus};
  q.lot_price = *lot_price;
  q.total_price = *total;
  q.accepted = request.accepted;
  if (request.accepted) {
    // The divisor is positive (checked above), so the division cannot fail.
    q.unit_cost = *try_divide(q.total_price, request.accepted->value);
  }
  return q;
}

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_IMPL_PACKAGE_IPP
