#ifndef ITERAGPU_CLI_CALCUL_FORFAITS_OPTIONS_HPP
#define ITERAGPU_CLI_CALCUL_FORFAITS_OPTIONS_HPP

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags of `calcul_forfaits` and their validation into options: a quote, a search, a durations
/// comparison or the catalog's list. No file is touched here.
namespace iteragpu::cli {

/// The program's name, as its messages begin.
inline constexpr std::string_view calcul_forfaits_program = "calcul_forfaits";

/// A search for packages: by a memory need (a file or a number of GiB),
/// by GPU-hours, or both.
struct search_options {
  std::optional<std::string> fits_file;   ///< --fits
  std::optional<exact_decimal> fits_gib;  ///< --fits-gib
  std::optional<std::uint64_t> size;      ///< --size: the size whose prediction an extrapolation gives
  bool gpus_given{false};                 ///< --gpus, named in messages when given
  pricing::package_search request;        ///< without its need, read when the program runs
};

/// The validated options of `calcul_forfaits`: a quote, a search, a durations comparison or the list.
struct calcul_forfaits_options {
  bool help{false};                           ///< --help: print the help, nothing else
  bool list{false};                           ///< --list: the whole catalog
  bool json{false};                           ///< --json: one JSON object instead of text
  bool compare_days{false};                   ///< request.gpu and request.accepted are set
  std::optional<std::string> catalog_path{};  ///< absent: the shipped catalog
  pricing::package_request request;           ///< set for a quote
  std::optional<search_options> search{};     ///< set for a search
};

/// The flags of `calcul_forfaits`, with its help.
[[nodiscard]] inline po::options_description calcul_forfaits_description() {
  po::options_description d(
      "calcul_forfaits: the whole price of a fixed-duration GPU package and the cost per accepted result; the "
      "packages that hold a memory need or provide GPU-hours, cheapest first");
  d.add_options()  //
      ("gpu", text_value("ID"),
       "GPU id from the catalog, e.g. b200 (--list shows them); required for a quote and with --compare-days")  //
      ("days", text_value("N"),
       "package duration in days, 3, 7 or 30: required for a quote; with a search, keeps that duration only")  //
      ("lots", text_value("N"),
       "number of lots, a positive integer; a lot may hold several GPUs (required for a quote)")  //
      ("accepted-results", text_value("N"),
       "distinct useful results accepted under your quality protocol, a positive integer; no default: "
       "without it the unit cost (per quote, per listed package) is not computed")  //
      ("fits", text_value("FILE"),
       "search: the packages whose GPUs each hold the memory need in FILE, the JSON of `mesure_memoire estimate "
       "--json`, `plan --json` or `replay --json` (its least need, the setting named), or a measurement file "
       "(`measure --output`), or `extrapolate --json` with --size")  //
      ("size", text_value("N"),
       "with --fits FILE of `mesure_memoire extrapolate --json`: the size whose predicted peak reserved (the "
       "upper end of a range), plus the memory outside the allocator, is the need")  //
      ("fits-gib", text_value("X"),
       "search: the packages whose GPUs each hold X GiB (2^30 bytes), an exact decimal such as 17.04")  //
      ("gpus", text_value("N"),
       "with a search: N GPUs that each hold the need (default 1); lots = N / GPUs per lot, rounded up")  //
      ("gpu-hours", text_value("H"),
       "search: the packages that provide at least H GPU-hours (lots x GPUs per lot x days x 24), alone or with "
       "--fits or --fits-gib")  //
      ("compare-days", po::bool_switch(),
       "with --gpu: that GPU's 3-, 7- and 30-day packages side by side, per GPU-day")                  //
      ("catalog", text_value("PATH"), "catalog CSV file (default: the shipped illustrative catalog)")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")                             //
      ("list", po::bool_switch(), "print the catalog as a table (goes with --catalog only)")           //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// What `--days` accepts for a quote, as messages say it.
inline constexpr std::string_view accepted_days = "a duration the catalog lists for the GPU (3, 7 or 30; see --list)";
/// What `--accepted-results` accepts, as messages say it.
inline constexpr std::string_view accepted_results_text =
    "a positive integer count of distinct accepted results (0 is refused; leave the flag out when nothing was "
    "counted)";
/// What `--gpu` accepts, as messages say it.
inline constexpr std::string_view accepted_gpu = "a GPU id of the catalog, such as b200 (see --list)";

/// The message for a command line without any flag: the modes, by their flags.
inline constexpr std::string_view no_mode_message =
    "no mode given; expected a quote (--gpu ID --days N --lots N), a search (--fits FILE, --fits-gib X or "
    "--gpu-hours H), a comparison (--gpu ID --compare-days) or --list; --help shows every flag";
/// What `--days` accepts with a search, as messages say it.
inline constexpr std::string_view accepted_search_days = "3, 7 or 30 (the durations of every package)";
/// What `--gpus` accepts, as messages say it.
inline constexpr std::string_view accepted_gpus =
    "a positive integer count of GPUs that each hold the need (1 to 18446744073709551615)";
/// What `--gpu-hours` accepts, as messages say it.
inline constexpr std::string_view accepted_gpu_hours =
    "a positive integer count of GPU-hours (1 to 18446744073709551615)";
/// What `--fits` accepts, as messages say it.
inline constexpr std::string_view accepted_need_file = "a path to a JSON file";
/// What a search is asked with, as the messages list it.
inline constexpr std::string_view search_flags = "--fits, --fits-gib or --gpu-hours";

namespace detail {

// The flags of a search, read once the mode is known to be a search.
[[nodiscard]] inline search_options parse_search_options(const po::variables_map& values) {
  if (given(values, "fits") && given(values, "fits-gib")) {
    throw usage_error("--fits and --fits-gib do not go together (expected one memory need: a file or a number of GiB)");
  }
  const std::string_view mode = given(values, "fits")       ? "--fits"
                                : given(values, "fits-gib") ? "--fits-gib"
                                                            : "--gpu-hours";
  if (given(values, "gpu")) {
    throw usage_error("--gpu does not go with " + std::string(mode) +
                      ", which searches every GPU of the catalog (expected --gpu with --days and --lots for one "
                      "package, or with --compare-days)");
  }
  if (given(values, "lots")) {
    throw usage_error("--lots does not go with " + std::string(mode) +
                      ": the lots follow from --gpus and --gpu-hours (expected --gpus N)");
  }
  search_options s;
  if (given(values, "fits")) {
    s.fits_file = required_text(values, "fits", accepted_need_file);
    if (s.fits_file->empty()) {
      throw usage_error("--fits: an empty value; expected " + std::string(accepted_need_file));
    }
  }
  if (given(values, "size")) {
    if (!s.fits_file) {
      throw usage_error("--size goes with --fits FILE (the JSON of `mesure_memoire extrapolate --json`); expected "
                        "--fits FILE --size N");
    }
    s.size = integer_flag("size", required_text(values, "size", accepted_positive), 1, accepted_positive);
  }
  if (given(values, "fits-gib")) {
    s.fits_gib = decimal_flag("fits-gib", required_text(values, "fits-gib", "a non-negative decimal number of GiB"));
  }
  if (given(values, "gpus")) {
    s.gpus_given = true;
    s.request.gpus =
        pricing::gpu_count{integer_flag("gpus", required_text(values, "gpus", accepted_gpus), 1, accepted_gpus)};
  }
  if (given(values, "days")) {
    const auto& text = required_text(values, "days", accepted_search_days);
    const pricing::package_days days{integer_flag("days", text, 1, accepted_search_days)};
    if (!pricing::duration_index(days)) {
      throw usage_error("--days: no package lasts " + quoted(text) + " days; expected " +
                        std::string(accepted_search_days));
    }
    s.request.days = days;
  }
  if (given(values, "gpu-hours")) {
    s.request.hours = pricing::gpu_hours{
        integer_flag("gpu-hours", required_text(values, "gpu-hours", accepted_gpu_hours), 1, accepted_gpu_hours)};
  }
  if (given(values, "accepted-results")) {
    s.request.accepted = pricing::accepted_results{
        integer_flag("accepted-results", required_text(values, "accepted-results", accepted_results_text), 1,
                     accepted_results_text)};
  }
  return s;
}

// --list goes with --catalog only.
inline void refuse_with_list(const po::variables_map& values) {
  for (const char* other :
       {"gpu", "days", "lots", "accepted-results", "fits", "fits-gib", "gpus", "gpu-hours", "size"}) {
    if (values.count(other) != 0) {
      throw usage_error("--list prints the whole catalog; --" + std::string(other) +
                        " does not go with it (expected --list alone or with --catalog)");
    }
  }
  if (values["compare-days"].as<bool>()) {
    throw usage_error(
        "--list prints the whole catalog; --compare-days does not go with it (expected --list alone or with "
        "--catalog)");
  }
  if (values["json"].as<bool>()) {
    throw usage_error("--list prints a table; --json does not go with it (expected --list alone or with --catalog)");
  }
}

// --compare-days takes --gpu, and --accepted-results, --catalog or --json.
inline void refuse_with_compare_days(const po::variables_map& values) {
  for (const char* other : {"days", "lots", "fits", "fits-gib", "gpus", "gpu-hours", "size"}) {
    if (values.count(other) != 0) {
      throw usage_error("--compare-days shows every duration of one GPU; --" + std::string(other) +
                        " does not go with it (expected --gpu ID, with --accepted-results, --catalog or --json)");
    }
  }
  if (values.count("gpu") == 0) {
    throw usage_error("--compare-days needs --gpu; expected " + std::string(accepted_gpu));
  }
}

}  // namespace detail

/// Validated options from the words after the program name, or a
/// usage_error naming the flag. No file is touched here.
[[nodiscard]] inline calcul_forfaits_options parse_calcul_forfaits_options(std::span<const std::string> args) {
  calcul_forfaits_options o;
  if (help_requested(args)) {
    o.help = true;
    return o;
  }
  if (args.empty()) {
    throw usage_error(std::string(no_mode_message));
  }
  const auto values = parse_arguments(calcul_forfaits_description(), args);
  if (given(values, "catalog")) {
    o.catalog_path = required_text(values, "catalog", "a path to a catalog CSV file");
    if (o.catalog_path->empty()) {
      throw usage_error("--catalog: an empty value; expected a path to a catalog CSV file");
    }
  }
  o.json = values["json"].as<bool>();
  o.list = values["list"].as<bool>();
  o.compare_days = values["compare-days"].as<bool>();
  if (o.list) {
    detail::refuse_with_list(values);
    return o;
  }
  if (o.compare_days) {
    detail::refuse_with_compare_days(values);
  }
  if (given(values, "fits") || given(values, "fits-gib") || given(values, "gpu-hours")) {
    o.search = detail::parse_search_options(values);
    return o;
  }
  if (given(values, "size")) {
    throw usage_error("--size goes with --fits FILE (the JSON of `mesure_memoire extrapolate --json`); expected "
                      "--fits FILE --size N");
  }
  if (given(values, "gpus")) {
    throw usage_error("--gpus goes with a search (" + std::string(search_flags) +
                      "); expected --lots N for one package");
  }
  o.request.gpu = required_text(values, "gpu", accepted_gpu);
  if (o.request.gpu.empty()) {
    throw usage_error("--gpu: an empty value; expected " + std::string(accepted_gpu));
  }
  if (!o.compare_days) {
    o.request.days =
        pricing::package_days{integer_flag("days", required_text(values, "days", accepted_days), 1, accepted_days)};
    o.request.lots = pricing::lot_count{positive_flag(values, "lots")};
  }
  if (given(values, "accepted-results")) {
    o.request.accepted = pricing::accepted_results{
        integer_flag("accepted-results", required_text(values, "accepted-results", accepted_results_text), 1,
                     accepted_results_text)};
  }
  return o;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_OPTIONS_HPP
