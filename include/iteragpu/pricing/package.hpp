#ifndef ITERAGPU_PRICING_PACKAGE_HPP
#define ITERAGPU_PRICING_PACKAGE_HPP

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/money.hpp"
#include "iteragpu/result.hpp"

/// \file
/// The quote of a catalog package: the whole price of a number of lots and the cost per accepted
/// result.
namespace iteragpu::pricing {

/// How many lots of a package are bought. A lot already holds
/// `gpus_per_lot` GPUs, so two lots of a 2-GPU package are four GPUs at two
/// lot prices.
struct lot_count {
  std::uint64_t value{0};  ///< lots
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(lot_count, lot_count) = default;
};

/// Distinct useful units actually accepted under the quality protocol; the
/// denominator of the unit cost. Repeats of one benchmark are not new units.
struct accepted_results {
  std::uint64_t value{0};  ///< results
  /// Compared as the numbers they hold (`==`, `<` and the rest).
  friend constexpr auto operator<=>(accepted_results, accepted_results) = default;
};

/// What a quote is asked for: a GPU of the catalog, a duration, a number of lots.
struct package_request {
  std::string gpu;                             ///< the GPU's id in the catalog
  package_days days;                           ///< one of package_durations
  lot_count lots;                              ///< at least 1
  std::optional<accepted_results> accepted{};  ///< no default: absent means no unit cost
};

/// The price of `lots` lots of one package: a value that holds what it
/// quotes (the catalog's snapshot and the GPU's offer, copied), so it
/// outlives the catalog and compares by value.
struct package_quote {
  catalog_snapshot snapshot;                    ///< who priced the catalog quoted, in which currency, on which day
  gpu_offer offer;                              ///< the GPU quoted, as the catalog lists it
  package_days days;                            ///< the package's duration
  lot_count lots;                               ///< lots bought
  gpu_count total_gpus;                         ///< lots x gpus_per_lot
  money lot_price;                              ///< the catalog's price of one lot
  money total_price;                            ///< lots x lot price
  std::optional<accepted_results> accepted{};   ///< as asked
  std::optional<fractional_cents> unit_cost{};  ///< total_price / accepted, half to even, 4 places of a cent
  friend bool operator==(const package_quote&, const package_quote&) = default;
};

/// Why a request cannot be quoted.
enum class package_errc {
  zero_lots,
  zero_accepted_results,
  unknown_gpu,
  unknown_duration,      ///< the GPU exists but not for that many days
  total_gpus_overflow,   ///< lots x gpus_per_lot past 64 bits
  total_price_overflow,  ///< lots x lot price past 64 bits of cents
};

/// Why a request cannot be quoted, with what a message needs: once the GPU
/// is known (from unknown_duration on), a copy of its offer. The GPU ids of
/// the catalog, for an unknown GPU, are the catalog's: the caller has it.
struct package_error {
  package_errc code{package_errc::unknown_gpu};  ///< what is wrong
  std::optional<gpu_offer> offer{};              ///< set from unknown_duration on
  friend bool operator==(const package_error&, const package_error&) = default;
};

/// The failure in a sentence, as messages print it.
[[nodiscard]] constexpr std::string_view describe(package_errc error) noexcept {
  switch (error) {
    case package_errc::zero_lots:
      return "the number of lots must be a positive integer";
    case package_errc::zero_accepted_results:
      return "the number of accepted results must be a positive integer";
    case package_errc::unknown_gpu:
      return "the GPU is not in the catalog";
    case package_errc::unknown_duration:
      return "the catalog has no package of that many days for the GPU";
    case package_errc::total_gpus_overflow:
      return "lots x GPUs per lot does not fit in 64 bits";
    case package_errc::total_price_overflow:
      return "lots x lot price does not fit in 64 bits of cents";
  }
  return "unknown package error";
}

/// The whole price of `lots` lots of one catalog package, and, given a count
/// of accepted results, the cost of one. Prices are whole packages: no
/// proration by the hour and no currency conversion.
[[nodiscard]] result<package_quote, package_error> quote_package(const catalog& prices, const package_request& request);

}  // namespace iteragpu::pricing

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/pricing/impl/package.ipp"
#endif

#endif  // ITERAGPU_PRICING_PACKAGE_HPP
