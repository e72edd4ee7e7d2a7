#ifndef ITERAGPU_PRICING_IMPL_FIT_IPP
#define ITERAGPU_PRICING_IMPL_FIT_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/pricing/fit.hpp"

// The bodies of the functions that <iteragpu/pricing/fit.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE std::string_view describe(search_errc kind) noexcept {
  switch (kind) {
    case search_errc::zero_gpus:
      return "the number of GPUs must be a positive integer";
    case search_errc::zero_gpu_hours:
      return "the number of GPU-hours must be a positive integer";
    case search_errc::zero_accepted_results:
      return "the number of accepted results must be a positive integer";
    case search_errc::unknown_duration:
      return "no package of the catalog lasts that many days";
    case search_errc::unknown_gpu:
      return "the GPU is not in the catalog";
    case search_errc::memory_band_overflow:
      return "the GPU's nominal memory read as GiB passes 64 bits of bytes, so the memory rule cannot place it";
    case search_errc::total_gpus_overflow:
      return "lots x GPUs per lot does not fit in 64 bits";
    case search_errc::gpu_hours_overflow:
      return "lots x GPUs per lot x days x 24 GPU-hours does not fit in 64 bits";
    case search_errc::total_price_overflow:
      return "lots x lot price does not fit in 64 bits of cents";
    case search_errc::comparison_overflow:
      return "the prices are too large to compare within 64 bits";
  }
  return "unknown search error";
}

}  // namespace iteragpu::pricing

namespace iteragpu::pricing::detail {

[[nodiscard]] ITERAGPU_INLINE result<package_match, search_error> match_package(
    const gpu_offer& offer, std::size_t index, const package_search& search,
    const std::optional<runtime_memory>& memory) {
  const package_days days = package_durations[index];
  const auto fail = [&](search_errc kind, std::optional<lot_count> lots = std::nullopt) {
    return unexpected{search_error{kind, offer, days, lots}};
  };
  const std::uint64_t per_lot = offer.gpus_per_lot.value;
  const auto hours_per_lot = checked_mul(per_lot, days.value * hours_per_day);
  if (!hours_per_lot) {
    return fail(search_errc::gpu_hours_overflow);
  }
  std::uint64_t lots = divide_rounding_up(search.gpus.value, per_lot);
  if (search.hours) {
    lots = std::max(lots, divide_rounding_up(search.hours->value, *hours_per_lot));
  }
  const auto gpus = checked_mul(lots, per_lot);
  if (!gpus) {
    return fail(search_errc::total_gpus_overflow, lot_count{lots});
  }
  const auto provided = checked_mul(lots, *hours_per_lot);
  if (!provided) {
    return fail(search_errc::gpu_hours_overflow, lot_count{lots});
  }
  const auto total = try_multiply(offer.lot_prices[index], lots);
  if (!total) {
    return fail(search_errc::total_price_overflow, lot_count{lots});
  }
  package_match m;
  m.offer = offer;
  m.days = days;
  m.lots = lot_count{lots};
  m.total_gpus = gpu_count{*gpus};
  m.lot_price = offer.lot_prices[index];
  m.total_price = *total;
  if (memory && search.need) {
    m.memory = *memory;
    m.fit = assess_fit(need_on(*search.need, offer.id, memory->band.low).value_or(search.need->bytes), memory->band);
  }
  m.provided = gpu_hours{*provided};
  // provided >= 72: a lot holds a GPU at least, a package lasts 3 days at least.
  m.price_per_gpu_hour = *try_divide(*total, *provided);
  if (search.hours) {
    m.unused = gpu_hours{*provided - search.hours->value};
  }
  if (search.accepted) {
    m.unit_cost = *try_divide(*total, search.accepted->value);
  }
  return m;
}

[[nodiscard]] ITERAGPU_INLINE result<void, search_errc> check_search(const package_search& search) noexcept {
  if (search.gpus.value == 0) {
    return unexpected{search_errc::zero_gpus};
  }
  if (search.hours && search.hours->value == 0) {
    return unexpected{search_errc::zero_gpu_hours};
  }
  if (search.accepted && search.accepted->value == 0) {
    return unexpected{search_errc::zero_accepted_results};
  }
  if (search.days && !duration_index(*search.days)) {
    return unexpected{search_errc::unknown_duration};
  }
  return {};
}

ITERAGPU_INLINE void sort_cheapest_first(std::vector<package_match>& matches) {
  const auto verdict_rank = [](const package_match& m) { return m.fit ? static_cast<int>(m.fit->verdict) : 0; };
  std::ranges::stable_sort(matches, [&](const package_match& a, const package_match& b) {
    if (a.total_price != b.total_price) {
      return a.total_price < b.total_price;
    }
    return verdict_rank(a) < verdict_rank(b);
  });
}

}  // namespace iteragpu::pricing::detail

namespace iteragpu::pricing {

[[nodiscard]] ITERAGPU_INLINE result<package_list, search_error> find_packages(const catalog& prices,
                                                                               const package_search& search) {
  if (const auto asked = detail::check_search(search); !asked) {
    return unexpected{search_error{asked.error(), std::nullopt, std::nullopt, std::nullopt}};
  }
  package_list list;
  list.snapshot = prices.snapshot();
  list.search = search;
  for (const auto& offer : prices.offers()) {
    std::optional<runtime_memory> memory;
    if (search.need) {
      memory = runtime_memory_of(offer.id, offer.memory_per_gpu);
      if (!memory) {
        return unexpected{search_error{search_errc::memory_band_overflow, offer, std::nullopt, std::nullopt}};
      }
      const auto need = need_on(*search.need, offer.id, memory->band.low);
      if (!need || assess_fit(*need, memory->band).verdict == fit_verdict::does_not_fit) {
        continue;
      }
    }
    for (std::size_t d = 0; d < package_durations.size(); ++d) {
      if (search.days && *search.days != package_durations[d]) {
        continue;
      }
      const auto m = detail::match_package(offer, d, search, memory);
      if (!m) {
        return unexpected{m.error()};
      }
      list.matches.push_back(*m);
    }
  }
  detail::sort_cheapest_first(list.matches);
  return list;
}

[[nodiscard]] ITERAGPU_INLINE result<durations_comparison, search_error> compare_durations(
    const catalog& prices, std::string_view gpu, std::optional<accepted_results> accepted) {
  if (accepted && accepted->value == 0) {
    return unexpected{search_error{search_errc::zero_accepted_results, std::nullopt, std::nullopt, std::nullopt}};
  }
  const gpu_offer* offer = prices.find(gpu);
  if (offer == nullptr) {
    return unexpected{search_error{search_errc::unknown_gpu, std::nullopt, std::nullopt, std::nullopt}};
  }
  durations_comparison c;
  c.snapshot = prices.snapshot();
  c.offer = *offer;
  c.accepted = accepted;
  const std::uint64_t per_lot = offer->gpus_per_lot.value;
  const std::uint64_t shortest_days = package_durations[0].value;
  const money shortest_price = offer->lot_prices[0];
  for (std::size_t i = 0; i < package_durations.size(); ++i) {
    const package_days days = package_durations[i];
    const auto overflow = unexpected{search_error{search_errc::comparison_overflow, *offer, days, std::nullopt}};
    const money price = offer->lot_prices[i];
    const auto gpu_days = checked_mul(per_lot, days.value);
    const auto shortest_scaled = checked_mul(shortest_price.cents(), days.value);  // P_s d
    const auto this_scaled = checked_mul(price.cents(), shortest_days);            // P_d s
    if (!gpu_days || !shortest_scaled || !this_scaled) {
      return overflow;
    }
    const auto denominator = checked_mul(*gpu_days, shortest_days);  // g s d
    if (!denominator) {
      return overflow;
    }
    const bool dearer = *this_scaled > *shortest_scaled;
    const std::uint64_t difference = dearer ? *this_scaled - *shortest_scaled : *shortest_scaled - *this_scaled;
    duration_price& row = c.rows[i];
    row.days = days;
    row.lot_price = price;
    row.gpu_days = *gpu_days;
    // Every divisor here is positive: prices, lot sizes and days are.
    row.price_per_gpu_day = *try_divide(price, *gpu_days);
    row.saving.dearer = dearer;
    row.saving.per_gpu_day = *try_divide(money::from_cents(difference), *denominator);
    row.saving.ratio = *try_divide(money::from_cents(difference), *shortest_scaled);
    if (accepted) {
      row.unit_cost = *try_divide(price, accepted->value);
    }
  }
  return c;
}

[[nodiscard]] ITERAGPU_INLINE std::string percent_text(const duration_saving& saving) {
  const auto& ratio = saving.ratio;
  const std::uint64_t hundredths = ratio.ten_thousandths() / 100U;
  const std::uint64_t rest = ratio.ten_thousandths() % 100U;
  std::string text = saving.dearer && ratio != fractional_cents{} ? "-" : "";
  if (ratio.whole_cents() != 0) {
    text += to_decimal_string(ratio.whole_cents());
    text += hundredths < 10U ? "0" : "";
  }
  text += to_decimal_string(hundredths);
  text += rest < 10U ? ".0" : ".";
  text += to_decimal_string(rest);
  return text;
}

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_IMPL_FIT_IPP
