#ifndef ITERAGPU_CLI_CALCUL_FORFAITS_MESSAGES_HPP
#define ITERAGPU_CLI_CALCUL_FORFAITS_MESSAGES_HPP

#include <string>

#include "cli/calcul_forfaits_options.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Why a quote, a search or a durations comparison of `calcul_forfaits` was refused, in one line
/// that names the flag at fault and what is accepted; the words for the package at fault are the
/// report's (report::describe()).
namespace iteragpu::cli {

/// Why a request was refused, in words that name the flag at fault; the
/// error carries the offer at fault, `prices` the GPU ids an unknown one is
/// told about.
[[nodiscard]] inline std::string package_error_message(const pricing::package_error& error,
                                                       const pricing::package_request& request,
                                                       const pricing::catalog& prices) {
  const std::string lots = to_decimal_string(request.lots.value);
  const pricing::gpu_offer offer = error.offer.value_or(pricing::gpu_offer{});
  switch (error.code) {
    case pricing::package_errc::unknown_gpu:
      return "--gpu: " + quoted_excerpt(request.gpu) +
             " is not in the catalog; expected one of: " + report::gpu_ids(prices) + " (see --list)";
    case pricing::package_errc::unknown_duration:
      return "--days: " + offer.id + " has no " + to_decimal_string(request.days.value) + "-day package; expected " +
             pricing::join_days(pricing::package_durations, "or") + " (see --list)";
    case pricing::package_errc::total_gpus_overflow:
      return "--lots: " + lots + " lots x " + to_decimal_string(offer.gpus_per_lot.value) +
             " GPUs per lot does not fit in 64 bits; expected fewer lots";
    case pricing::package_errc::total_price_overflow:
      return "--lots: " + lots + " lots x " +
             to_decimal_string(offer.lot_price(request.days).value_or(pricing::money{}).cents()) +
             " cents is past 64 bits of cents (" + std::string(largest_u64_text) + "); expected fewer lots";
    case pricing::package_errc::zero_lots:
      return "--lots: " + std::string(describe(error.code));
    case pricing::package_errc::zero_accepted_results:
      return "--accepted-results: " + std::string(describe(error.code));
  }
  return std::string(describe(error.code));
}

/// The flag a failed search is charged to: the GPU-hours asked, else the
/// GPUs, else the need.
[[nodiscard]] inline std::string search_flag(const search_options& search) {
  if (search.request.hours) {
    return "--gpu-hours";
  }
  if (search.gpus_given) {
    return "--gpus";
  }
  return search.fits_file ? "--fits" : "--fits-gib";
}

/// Why a search failed, naming the flag and the package at fault.
[[nodiscard]] inline std::string search_error_message(const pricing::search_error& error,
                                                      const search_options& search) {
  const std::string flag = search_flag(search);
  std::string fewer = "a catalog of smaller figures";
  if (search.request.hours) {
    fewer = "fewer GPU-hours";
  } else if (search.gpus_given) {
    fewer = "fewer GPUs";
  }
  if (!error.offer) {
    return flag + ": " + std::string(describe(error.code));
  }
  switch (error.code) {
    case pricing::search_errc::memory_band_overflow:
      return std::string(search.fits_file ? "--fits" : "--fits-gib") + ": " + report::describe(error) +
             "; expected a catalog of at most 17179869183 GB per GPU";
    case pricing::search_errc::total_gpus_overflow:
    case pricing::search_errc::gpu_hours_overflow:
    case pricing::search_errc::total_price_overflow:
      return flag + ": " + report::describe(error) + "; expected " + fewer;
    case pricing::search_errc::zero_gpus:
    case pricing::search_errc::zero_gpu_hours:
    case pricing::search_errc::zero_accepted_results:
    case pricing::search_errc::unknown_duration:
    case pricing::search_errc::unknown_gpu:
    case pricing::search_errc::comparison_overflow:
      break;
  }
  return flag + ": " + std::string(describe(error.code));
}

/// Why a durations comparison failed.
[[nodiscard]] inline std::string comparison_error_message(const pricing::search_error& error,
                                                          const pricing::package_request& request,
                                                          const pricing::catalog& prices) {
  switch (error.code) {
    case pricing::search_errc::unknown_gpu:
      return "--gpu: " + quoted_excerpt(request.gpu) +
             " is not in the catalog; expected one of: " + report::gpu_ids(prices) + " (see --list)";
    case pricing::search_errc::comparison_overflow:
      return "--compare-days: " + report::describe(error) + "; expected a catalog of smaller figures";
    case pricing::search_errc::zero_accepted_results:
      return "--accepted-results: " + std::string(describe(error.code));
    case pricing::search_errc::zero_gpus:
    case pricing::search_errc::zero_gpu_hours:
    case pricing::search_errc::unknown_duration:
    case pricing::search_errc::memory_band_overflow:
    case pricing::search_errc::total_gpus_overflow:
    case pricing::search_errc::gpu_hours_overflow:
    case pricing::search_errc::total_price_overflow:
      break;
  }
  return "--compare-days: " + std::string(describe(error.code));
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_MESSAGES_HPP
