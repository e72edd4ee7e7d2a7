#ifndef ITERAGPU_FORFAIT_HPP
#define ITERAGPU_FORFAIT_HPP

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/catalog.hpp"
#include "iteragpu/detail/checked.hpp"
#include "iteragpu/detail/result.hpp"
#include "iteragpu/money.hpp"

namespace iteragpu {

// How many lots of a package are bought. A lot already holds
// `gpus_per_lot` GPUs, so two lots of a 2-GPU package are four GPUs at two
// lot prices.
struct lot_count {
  std::uint64_t value{0};
  friend constexpr auto operator<=>(lot_count, lot_count) = default;
};

// Distinct useful units actually accepted under the quality protocol; the
// denominator of the unit cost. Repeats of one benchmark are not new units.
struct accepted_results {
  std::uint64_t value{0};
  friend constexpr auto operator<=>(accepted_results, accepted_results) = default;
};

struct forfait_request {
  std::string gpu;
  package_days days;
  lot_count lots;
  std::optional<accepted_results> accepted;  // no default: absent means no unit cost
};

struct forfait_quote {
  std::string catalog_file;
  std::string provider;
  std::string currency;
  std::string snapshot_date;
  bool illustrative{false};
  std::string gpu;
  std::string name;
  memory_gb memory_per_gpu;
  package_days days;
  lot_count lots;
  gpu_count gpus_per_lot;
  gpu_count total_gpus;
  money lot_price;
  money total_price;
  std::optional<accepted_results> accepted;
  std::optional<fractional_cents> unit_cost;  // total_price / accepted, half to even, 4 places of a cent
  friend constexpr bool operator==(const forfait_quote&, const forfait_quote&) = default;
};

enum class forfait_error {
  zero_lots,
  zero_accepted_results,
  unknown_gpu,
  unknown_duration,       // the GPU exists but not for that many days
  total_gpus_overflow,    // lots x gpus_per_lot past 64 bits
  total_price_overflow,   // lots x lot price past 64 bits of cents
};

[[nodiscard]] constexpr std::string_view describe(forfait_error error) noexcept {
  switch (error) {
    case forfait_error::zero_lots:
      return "the number of lots must be a positive integer";
    case forfait_error::zero_accepted_results:
      return "the number of accepted results must be a positive integer";
    case forfait_error::unknown_gpu:
      return "the GPU is not in the catalog";
    case forfait_error::unknown_duration:
      return "the catalog has no package of that many days for the GPU";
    case forfait_error::total_gpus_overflow:
      return "lots x GPUs per lot does not fit in 64 bits";
    case forfait_error::total_price_overflow:
      return "lots x lot price does not fit in 64 bits of cents";
  }
  return "unknown forfait error";
}

// The whole price of `lots` lots of one catalog package, and, given a count
// of accepted results, the cost of one. Prices are whole packages: no
// proration by the hour and no currency conversion.
[[nodiscard]] constexpr result<forfait_quote, forfait_error> quote_forfait(const catalog& prices,
                                                                         const forfait_request& request) {
  if (request.lots.value == 0) {
    return forfait_error::zero_lots;
  }
  if (request.accepted && request.accepted->value == 0) {
    return forfait_error::zero_accepted_results;
  }
  if (prices.durations_of(request.gpu).empty()) {
    return forfait_error::unknown_gpu;
  }
  const catalog_row* row = prices.find(request.gpu, request.days);
  if (row == nullptr) {
    return forfait_error::unknown_duration;
  }
  const auto gpus = detail::checked_mul(request.lots.value, row->gpus_per_lot.value);
  if (!gpus) {
    return forfait_error::total_gpus_overflow;
  }
  const auto total = try_multiply(row->lot_price, request.lots.value);
  if (!total) {
    return forfait_error::total_price_overflow;
  }
  forfait_quote q;
  q.catalog_file = prices.file;
  q.provider = prices.provider;
  q.currency = prices.currency;
  q.snapshot_date = prices.snapshot_date;
  q.illustrative = prices.illustrative();
  q.gpu = row->gpu;
  q.name = row->name;
  q.memory_per_gpu = row->memory_per_gpu;
  q.days = row->days;
  q.lots = request.lots;
  q.gpus_per_lot = row->gpus_per_lot;
  q.total_gpus = gpu_count{*gpus};
  q.lot_price = row->lot_price;
  q.total_price = total.value();
  q.accepted = request.accepted;
  if (request.accepted) {
    // The divisor is positive (checked above), so the division cannot fail.
    q.unit_cost = divide(q.total_price, request.accepted->value);
  }
  return q;
}

}  // namespace iteragpu

#endif  // ITERAGPU_FORFAIT_HPP
