#ifndef ITERAGPU_PRICING_FIT_HPP
#define ITERAGPU_PRICING_FIT_HPP

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/pricing/money.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// From a need to the packages of a catalog that meet it, cheapest first:
/// a memory need per GPU (judged by the memory rule of memory_rule.hpp), a
/// number of GPUs that each hold it, an amount of GPU time, or any of these
/// together; and the durations of one GPU compared per GPU-day. Every figure
/// is exact: integer cents and counts with checked arithmetic (a result past
/// 64 bits is an error, never a wrapped value), quotients rounded once, half
/// to even, to 4 decimal places of a cent (fractional_cents).
namespace iteragpu::pricing {

/// An amount of GPU time: one GPU for one hour is one GPU-hour.
struct gpu_hours {
  std::uint64_t value{0};  ///< whole GPU-hours
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(gpu_hours, gpu_hours) = default;
};

/// Hours in a package day.
inline constexpr std::uint64_t hours_per_day = 24;

/// What a search asks for. Without a need, memory is not looked at (a
/// search by GPU time alone); without `days`, every duration is listed.
struct package_search {
  std::optional<memory_need> need;           ///< per GPU: a model is never split across GPUs
  gpu_count gpus{1};                         ///< GPUs that each hold the need
  std::optional<package_days> days;          ///< keep this duration only
  std::optional<gpu_hours> hours;            ///< at least this many GPU-hours
  std::optional<accepted_results> accepted;  ///< no default: absent means no unit cost
  friend bool operator==(const package_search&, const package_search&) = default;
};

/// One package that meets a search, bought in the fewest lots that give the
/// GPUs and the GPU-hours asked for; a value that holds a copy of its offer.
struct package_match {
  gpu_offer offer;                            ///< the GPU, as the catalog searched lists it
  package_days days;                          ///< the package's duration
  lot_count lots;                             ///< max(ceil(gpus / gpus_per_lot), ceil(hours / hours per lot))
  gpu_count total_gpus;                       ///< lots x gpus_per_lot
  money lot_price;                            ///< the catalog's price of one lot
  money total_price;                          ///< lots x lot price
  std::optional<runtime_memory> memory;       ///< the GPU's band, with a need
  std::optional<memory_fit> fit;              ///< fits or tight, with a need
  gpu_hours provided;                         ///< lots x gpus_per_lot x days x 24
  fractional_cents price_per_gpu_hour;        ///< total_price / provided
  std::optional<gpu_hours> unused;            ///< provided - the hours asked, when hours were asked
  std::optional<fractional_cents> unit_cost;  ///< total_price / accepted results
  friend bool operator==(const package_match&, const package_match&) = default;
};

/// The matches of a search, in the order of package_order_rule: a value
/// that holds the catalog's snapshot, so it outlives the catalog.
struct package_list {
  catalog_snapshot snapshot;           ///< who priced the catalog searched, in which currency, on which day
  package_search search;               ///< the search, as asked
  std::vector<package_match> matches;  ///< the packages that meet it, in order
  friend bool operator==(const package_list&, const package_list&) = default;
};

/// The order of a package list, in words, as outputs quote it.
inline constexpr std::string_view package_order_rule =
    "cheapest first (total price); at equal price, fits before tight, then the catalog's order of GPUs (their "
    "first row), then the shorter duration";

/// What a search or a comparison cannot be made with, or where its arithmetic overflows.
enum class search_errc {
  zero_gpus,
  zero_gpu_hours,
  zero_accepted_results,
  unknown_duration,      ///< a duration no catalog has (package_durations)
  unknown_gpu,           ///< compare_durations: the id is not in the catalog
  memory_band_overflow,  ///< the GPU's nominal figure read as GiB passes 64 bits of bytes
  total_gpus_overflow,   ///< lots x gpus_per_lot past 64 bits
  gpu_hours_overflow,    ///< lots x gpus_per_lot x days x 24 past 64 bits
  total_price_overflow,  ///< lots x lot price past 64 bits of cents
  comparison_overflow,   ///< a product of compare_durations past 64 bits
};

/// The failure in a sentence (without the package at fault; see search_error).
[[nodiscard]] std::string_view describe(search_errc kind) noexcept;

/// Why a search or a comparison failed; from memory_band_overflow on, the
/// package at fault (a copy of its offer, its duration where one is
/// involved, and the lots once they are known).
struct search_error {
  search_errc code{search_errc::unknown_gpu};  ///< what failed
  std::optional<gpu_offer> offer;              ///< the GPU at fault, from memory_band_overflow on
  std::optional<package_days> days;            ///< its duration, where one is involved
  std::optional<lot_count> lots;               ///< its lots, once they are known
  friend bool operator==(const search_error&, const search_error&) = default;
};

namespace detail {

// n / d rounded up, for d > 0 (a catalog's lots hold a GPU at least).
[[nodiscard]] inline std::uint64_t divide_rounding_up(std::uint64_t n, std::uint64_t d) noexcept {
  return n / d + (n % d != 0 ? 1U : 0U);
}

// The package of `offer` for the duration at `index`, in the fewest lots
// that meet `search`; `memory` is the GPU's band when a need was given.
[[nodiscard]] result<package_match, search_error> match_package(const gpu_offer& offer, std::size_t index,
                                                                const package_search& search,
                                                                const std::optional<runtime_memory>& memory);

// What a search cannot ask for: zero GPUs, hours or results, a duration no
// catalog has; a success when it asks for none of these.
[[nodiscard]] result<void, search_errc> check_search(const package_search& search) noexcept;

// package_order_rule. Stable: equal keys keep the order in which they were
// found, the catalog's order of GPUs and, within a GPU, the shorter
// duration first.
void sort_cheapest_first(std::vector<package_match>& matches);

}  // namespace detail

/// Every package of `prices` that meets `search`: with a need, the GPUs on
/// which it fits or is tight under the memory rule (those on which it does
/// not fit are left out); with `days`, that duration only; each bought in
/// the fewest lots that give `search.gpus` GPUs and, when asked,
/// `search.hours` GPU-hours. Sorted by package_order_rule. A failure names
/// the first package, in the catalog's order, whose figures pass 64 bits.
[[nodiscard]] result<package_list, search_error> find_packages(const catalog& prices, const package_search& search);

/// A difference against the shortest package, held as a sign and exact
/// magnitudes rounded once, half to even, to 4 decimal places.
struct duration_saving {
  bool dearer{false};            ///< the package costs more per GPU-day than the shortest; never set on zero
  fractional_cents per_gpu_day;  ///< |difference| in cents per GPU-day
  /// |difference| / the shortest's price per GPU-day, a pure ratio (0.1667),
  /// which is a percentage to 2 places (16.67 %). It is the same long
  /// division as a sum of cents over a count, hence the type.
  fractional_cents ratio;
  friend constexpr bool operator==(const duration_saving&, const duration_saving&) = default;
};

/// One duration of one GPU, bought as one lot.
struct duration_price {
  package_days days;                          ///< the package's duration
  money lot_price;                            ///< the catalog's price of one lot
  std::uint64_t gpu_days{0};                  ///< gpus_per_lot x days
  fractional_cents price_per_gpu_day;         ///< lot price / gpu_days
  duration_saving saving;                     ///< against the shortest duration
  std::optional<fractional_cents> unit_cost;  ///< lot price / accepted results
  friend bool operator==(const duration_price&, const duration_price&) = default;
};

/// The durations of one GPU side by side, shortest first: a value that holds
/// the catalog's snapshot and a copy of the offer, so it outlives the catalog.
struct durations_comparison {
  catalog_snapshot snapshot;                 ///< who priced the catalog compared, in which currency, on which day
  gpu_offer offer;                           ///< the GPU compared, as the catalog lists it
  std::optional<accepted_results> accepted;  ///< results accepted per lot, for a unit cost; no default
  std::array<duration_price, package_durations.size()> rows{};  ///< one per duration, in the order of package_durations
  friend bool operator==(const durations_comparison&, const durations_comparison&) = default;
};

/// The 3-, 7- and 30-day packages of one GPU: the price per GPU-day of each
/// and what it saves against the shortest, exactly. With lot prices P_s and
/// P_d for s and d days and g GPUs per lot, the saving per GPU-day is
/// P_s / (g s) - P_d / (g d) = (P_s d - P_d s) / (g s d) and its ratio to
/// the shortest's price per GPU-day (P_s d - P_d s) / (P_s d), each
/// computed exactly in integers and rounded once; a product past 64 bits is
/// comparison_overflow.
[[nodiscard]] result<durations_comparison, search_error> compare_durations(const catalog& prices, std::string_view gpu,
                                                                           std::optional<accepted_results> accepted);

/// The sign of a signed amount: `-` for a dearer package, nothing
/// otherwise; a magnitude that rounds to zero gets no sign.
[[nodiscard]] constexpr std::string_view minus_sign(bool negative, const fractional_cents& magnitude) noexcept {
  return negative && magnitude != fractional_cents{} ? "-" : "";
}

/// `-12.3400` for a dearer package, `12.3400` otherwise (minus_sign()).
[[nodiscard]] inline std::string signed_text(bool negative, const fractional_cents& magnitude) {
  return std::string(minus_sign(negative, magnitude)) + magnitude.to_string();
}

/// signed_text() in dollars (fractional_cents::dollars_text()): `-0.820000`.
[[nodiscard]] inline std::string signed_dollars_text(bool negative, const fractional_cents& magnitude) {
  return std::string(minus_sign(negative, magnitude)) + magnitude.dollars_string();
}

/// A ratio with 4 decimal places as a percentage with 2: 0.1667 -> `16.67`,
/// 1.0000 -> `100.00`, with a minus sign for a dearer package. Moving the
/// point in the text keeps every ratio exact, however large.
[[nodiscard]] std::string percent_text(const duration_saving& saving);

}  // namespace iteragpu::pricing

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/pricing/impl/fit.ipp"
#endif

#endif  // ITERAGPU_PRICING_FIT_HPP
