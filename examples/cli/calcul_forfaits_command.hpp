#ifndef ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP
#define ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "iteragpu/pricing/catalog.hpp"
#include "cli/common.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/report/need_input.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// `calcul_forfaits`: a quote, a search of the catalog, a durations comparison or the catalog's list,
/// from the command line to the output.
namespace iteragpu::cli {

/// The program's name, as its messages begin.
inline constexpr std::string_view calcul_forfaits_program = "calcul_forfaits";
/// The file name of the catalog shipped with the library.
inline constexpr std::string_view shipped_catalog_name = "tarifs-forfaits.csv";
/// A catalog of a few thousand packages is a few hundred kB; anything far
/// larger is the wrong file, refused before it is read into memory.
inline constexpr std::size_t largest_catalog_bytes = std::size_t{16} << 20U;

/// A search for packages: by a memory need (a file or a number of GiB),
/// by GPU-hours, or both.
struct search_options {
  std::optional<std::string> fits_file;   ///< --fits
  std::optional<exact_decimal> fits_gib;  ///< --fits-gib
  bool gpus_given{false};                 ///< --gpus, named in messages when given
  package_search request;                 ///< without its need, read when the program runs
};

/// The validated options of `calcul_forfaits`: a quote, a search, a durations comparison or the list.
struct calcul_forfaits_options {
  bool help{false};                           ///< --help: print the help, nothing else
  bool list{false};                           ///< --list: the whole catalog
  bool json{false};                           ///< --json: one JSON object instead of text
  bool compare_days{false};                   ///< request.gpu and request.accepted are set
  std::optional<std::string> catalog_path{};  ///< absent: the shipped catalog
  package_request request;                    ///< set for a quote
  std::optional<search_options> search{};     ///< set for a search
};

/// The flags of `calcul_forfaits`, with its help.
[[nodiscard]] inline po::options_description calcul_forfaits_description() {
  po::options_description d(
      "calcul_forfaits: the whole price of a fixed-duration GPU package and the cost per accepted result; the "
      "packages that hold a memory need or provide GPU-hours, cheapest first");
  d.add_options()  //
      ("gpu", text_value(),
       "GPU id from the catalog, e.g. b200 (--list shows them); required for a quote and with --compare-days")  //
      ("days", text_value(),
       "package duration in days, 3, 7 or 30: required for a quote; with a search, keeps that duration only")  //
      ("lots", text_value(), "number of lots, a positive integer; a lot may hold several GPUs (required for a quote)")  //
      ("accepted-results", text_value(),
       "distinct useful results accepted under your quality protocol, a positive integer; no default: "
       "without it the unit cost (per quote, per listed package) is not computed")  //
      ("fits", text_value(),
       "search: the packages whose GPUs each hold the memory need in FILE, the JSON of `mesure_memoire estimate "
       "--json` or `plan --json`, or a measurement file (`measure --output`)")  //
      ("fits-gib", text_value(),
       "search: the packages whose GPUs each hold X GiB (2^30 bytes), an exact decimal such as 17.04")  //
      ("gpus", text_value(),
       "with a search: N GPUs that each hold the need (default 1); lots = N / GPUs per lot, rounded up")  //
      ("gpu-hours", text_value(),
       "search: the packages that provide at least H GPU-hours (lots x GPUs per lot x days x 24), alone or with "
       "--fits or --fits-gib")  //
      ("compare-days", po::bool_switch(),
       "with --gpu: that GPU's 3-, 7- and 30-day packages side by side, per GPU-day")  //
      ("catalog", text_value(), "catalog CSV file (default: the shipped illustrative catalog)")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")                        //
      ("list", po::bool_switch(), "print the catalog as a table (goes with --catalog only)")      //
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
/// A need file is JSON of a few kB to a few MB; anything far larger is the
/// wrong file, refused before it is read into memory.
inline constexpr std::size_t largest_need_file_bytes = std::size_t{16} << 20U;

namespace detail {

// The flags of a search, read once the mode is known to be a search.
[[nodiscard]] inline search_options parse_search_options(const po::variables_map& values) {
  if (given(values, "fits") && given(values, "fits-gib")) {
    throw usage_error("--fits and --fits-gib do not go together (expected one memory need: a file or a number of GiB)");
  }
  const std::string_view mode = given(values, "fits") ? "--fits" : given(values, "fits-gib") ? "--fits-gib" : "--gpu-hours";
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
  if (given(values, "fits-gib")) {
    s.fits_gib = decimal_flag("fits-gib", required_text(values, "fits-gib", "a non-negative decimal number of GiB"));
  }
  if (given(values, "gpus")) {
    s.gpus_given = true;
    s.request.gpus =
        gpu_count{integer_flag("gpus", required_text(values, "gpus", accepted_gpus), 1, accepted_gpus)};
  }
  if (given(values, "days")) {
    const auto& text = required_text(values, "days", accepted_search_days);
    const package_days days{integer_flag("days", text, 1, accepted_search_days)};
    if (!duration_index(days)) {
      throw usage_error("--days: no package lasts " + quoted(text) + " days; expected " +
                        std::string(accepted_search_days));
    }
    s.request.days = days;
  }
  if (given(values, "gpu-hours")) {
    s.request.hours = gpu_hours{
        integer_flag("gpu-hours", required_text(values, "gpu-hours", accepted_gpu_hours), 1, accepted_gpu_hours)};
  }
  if (given(values, "accepted-results")) {
    s.request.accepted = accepted_results{integer_flag(
        "accepted-results", required_text(values, "accepted-results", accepted_results_text), 1, accepted_results_text)};
  }
  return s;
}

// --list goes with --catalog only.
inline void refuse_with_list(const po::variables_map& values) {
  for (const char* other : {"gpu", "days", "lots", "accepted-results", "fits", "fits-gib", "gpus", "gpu-hours"}) {
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
  for (const char* other : {"days", "lots", "fits", "fits-gib", "gpus", "gpu-hours"}) {
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
        package_days{integer_flag("days", required_text(values, "days", accepted_days), 1, accepted_days)};
    o.request.lots = lot_count{positive_flag(values, "lots")};
  }
  if (given(values, "accepted-results")) {
    o.request.accepted = accepted_results{integer_flag(
        "accepted-results", required_text(values, "accepted-results", accepted_results_text), 1, accepted_results_text)};
  }
  return o;
}

/// The program's own path, to find the shipped catalog of an install.
[[nodiscard]] inline std::optional<std::filesystem::path> running_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return std::nullopt;
  }
  return path;
}

/// Where the shipped catalog may be, most specific first: beside an
/// installed program (`bin/../share/iteragpu/`, given as `data_dir_from_bin`)
/// and in the source tree of a build.
[[nodiscard]] inline std::vector<std::filesystem::path> default_catalog_candidates(
    std::string_view data_dir_from_bin, std::string_view build_tree_catalog) {
  std::vector<std::filesystem::path> candidates;
  if (const auto exe = running_executable()) {
    candidates.push_back(
        (exe->parent_path() / std::filesystem::path(data_dir_from_bin) / shipped_catalog_name).lexically_normal());
  }
  candidates.emplace_back(build_tree_catalog);
  return candidates;
}

/// The catalog to read, and how outputs name it.
struct catalog_choice {
  std::filesystem::path path;  ///< the file to read
  bool shipped{false};         ///< the default, found beside an install or in the source tree

  /// The name of the file in messages: the path the user gave (escaped), or
  /// the shipped catalog's file name without the install prefix.
  [[nodiscard]] std::string label() const {
    return shipped ? std::string(shipped_catalog_name) : escaped(path.string());
  }
  /// How a report names it: the path the user gave, or what it is.
  [[nodiscard]] std::string source(bool illustrative) const {
    if (!shipped) {
      return escaped(path.string());
    }
    return illustrative ? "the shipped illustrative catalog" : "the shipped catalog";
  }
};

/// The catalog file to read: the one given, else the first default present.
[[nodiscard]] inline catalog_choice choose_catalog(const calcul_forfaits_options& options,
                                                   std::span<const std::filesystem::path> defaults) {
  if (options.catalog_path) {
    return catalog_choice{*options.catalog_path, false};
  }
  std::string looked;
  for (const auto& candidate : defaults) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) {
      return catalog_choice{candidate, true};
    }
    looked += (looked.empty() ? "" : ", ") + quoted(candidate.string());
  }
  throw usage_error("the shipped catalog is not found (looked at " + (looked.empty() ? std::string("nothing") : looked) +
                    "); expected --catalog PATH");
}

/// The catalog's text: at most largest_catalog_bytes are ever read, whatever
/// size the file system reports.
[[nodiscard]] inline std::string read_catalog_text(const std::filesystem::path& path) {
  const std::string shown = quoted(path.string());
  constexpr std::string_view accepted = "; expected a readable catalog CSV file";
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    throw usage_error("--catalog: " + shown + " does not exist" + std::string(accepted));
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw usage_error("--catalog: " + shown + " is not a regular file" + std::string(accepted));
  }
  auto text = read_file_within(path, largest_catalog_bytes);
  if (!text) {
    throw usage_error("--catalog: " + shown + describe(text.error(), "16 MiB") + std::string(accepted));
  }
  return std::move(*text);
}

/// The catalog's GPU ids, comma-separated, for messages.
[[nodiscard]] inline std::string join_ids(const catalog& prices) {
  std::string text;
  for (const auto& offer : prices.offers()) {
    text += (text.empty() ? "" : ", ") + offer.id;
  }
  return text;
}

/// Why a request was refused, in words that name the flag at fault; the
/// error carries what the message needs.
[[nodiscard]] inline std::string package_error_message(const package_error& error, const package_request& request) {
  const std::string lots = to_decimal_string(request.lots.value);
  switch (error.kind) {
    case package_error_kind::unknown_gpu:
      return "--gpu: " + quoted_excerpt(request.gpu) + " is not in the catalog; expected one of: " +
             join_ids(*error.in) + " (see --list)";
    case package_error_kind::unknown_duration:
      return "--days: " + error.offer->id + " has no " + to_decimal_string(request.days.value) +
             "-day package; expected " + join_days(package_durations, "or") + " (see --list)";
    case package_error_kind::total_gpus_overflow:
      return "--lots: " + lots + " lots x " + to_decimal_string(error.offer->gpus_per_lot.value) +
             " GPUs per lot does not fit in 64 bits; expected fewer lots";
    case package_error_kind::total_price_overflow:
      return "--lots: " + lots + " lots x " + to_decimal_string(error.offer->lot_price(request.days)->cents()) +
             " cents is past 64 bits of cents (" + std::string(largest_u64_text) + "); expected fewer lots";
    case package_error_kind::zero_lots:
      return "--lots: " + std::string(describe(error.kind));
    case package_error_kind::zero_accepted_results:
      return "--accepted-results: " + std::string(describe(error.kind));
  }
  return std::string(describe(error.kind));
}

/// The need of a search: the GiB given, rounded up to a whole byte, or the
/// need a file states; nothing for a search by GPU-hours alone. At most
/// largest_need_file_bytes are ever read.
[[nodiscard]] inline std::optional<memory_need> read_need(const search_options& search) {
  if (search.fits_gib) {
    const std::string gib = search.fits_gib->to_string();
    const auto bytes = gib_to_bytes_rounded_up(*search.fits_gib);
    if (!bytes) {
      throw usage_error("--fits-gib: " + quoted(gib) +
                        " GiB is 2^64 bytes or more; expected less than 17179869184 GiB (64 bits of bytes)");
    }
    return memory_need{*bytes, "--fits-gib " + gib + ": the GiB given, rounded up to a whole byte",
                       *search.fits_gib};
  }
  if (!search.fits_file) {
    return std::nullopt;
  }
  const std::filesystem::path path(*search.fits_file);
  const std::string shown = quoted(*search.fits_file);
  const std::string accepted = "; expected " + std::string(report::need_documents_accepted);
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    throw usage_error("--fits: " + shown + " does not exist" + accepted);
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw usage_error("--fits: " + shown + " is not a regular file" + accepted);
  }
  const auto text = read_file_within(path, largest_need_file_bytes);
  if (!text) {
    throw usage_error("--fits: " + shown + describe(text.error(), "16 MiB") + accepted);
  }
  auto need = report::need_from_json(*text);
  if (!need) {
    throw usage_error("--fits: " + shown + ": " + need.error().found + accepted);
  }
  return std::move(*need);
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
[[nodiscard]] inline std::string search_error_message(const search_error& error, const search_options& search) {
  const std::string flag = search_flag(search);
  std::string fewer = "a catalog of smaller figures";
  if (search.request.hours) {
    fewer = "fewer GPU-hours";
  } else if (search.gpus_given) {
    fewer = "fewer GPUs";
  }
  if (error.offer == nullptr) {
    return flag + ": " + std::string(describe(error.kind));
  }
  const gpu_offer& offer = *error.offer;
  const std::uint64_t lot_size = offer.gpus_per_lot.value;
  const std::string per_lot = to_decimal_string(lot_size) + (lot_size == 1 ? " GPU per lot" : " GPUs per lot");
  const std::string days = error.days ? to_decimal_string(error.days->value) : std::string();
  const std::string package = offer.id + (error.days ? ", " + days + " days" : std::string());
  const std::string lots = error.lots ? to_decimal_string(error.lots->value) + " lots x " : std::string();
  const std::string lot_price =
      error.days ? to_decimal_string(offer.lot_price(*error.days).value_or(money{}).cents()) : std::string();
  switch (error.kind) {
    case search_error_kind::memory_band_overflow:
      return std::string(search.fits_file ? "--fits" : "--fits-gib") + ": " + offer.id + " has " +
             to_decimal_string(offer.memory_per_gpu.value) +
             " GB per GPU, which read as GiB passes 64 bits of bytes, so the memory rule cannot place it; expected "
             "a catalog of at most 17179869183 GB per GPU";
    case search_error_kind::total_gpus_overflow:
      return flag + ": " + package + ": " + lots + per_lot + " does not fit in 64 bits; expected " + fewer;
    case search_error_kind::gpu_hours_overflow:
      return flag + ": " + package + ": " + lots + per_lot + " x " + days +
             " days x 24 does not fit in 64 bits of GPU-hours; expected " + fewer;
    case search_error_kind::total_price_overflow:
      return flag + ": " + package + ": " + lots + lot_price + " cents is past 64 bits of cents (" +
             std::string(largest_u64_text) + "); expected " + fewer;
    case search_error_kind::zero_gpus:
    case search_error_kind::zero_gpu_hours:
    case search_error_kind::zero_accepted_results:
    case search_error_kind::unknown_duration:
    case search_error_kind::unknown_gpu:
    case search_error_kind::comparison_overflow:
      break;
  }
  return flag + ": " + std::string(describe(error.kind));
}

/// Why a durations comparison failed.
[[nodiscard]] inline std::string comparison_error_message(const search_error& error, const package_request& request,
                                                          const catalog& prices) {
  switch (error.kind) {
    case search_error_kind::unknown_gpu:
      return "--gpu: " + quoted_excerpt(request.gpu) + " is not in the catalog; expected one of: " + join_ids(prices) +
             " (see --list)";
    case search_error_kind::comparison_overflow:
      return "--compare-days: the lot prices of " + error.offer->id +
             " are too large to compare within 64 bits (lot price x days, GPUs per lot x days x 3); expected a "
             "catalog of smaller figures";
    case search_error_kind::zero_accepted_results:
      return "--accepted-results: " + std::string(describe(error.kind));
    case search_error_kind::zero_gpus:
    case search_error_kind::zero_gpu_hours:
    case search_error_kind::unknown_duration:
    case search_error_kind::memory_band_overflow:
    case search_error_kind::total_gpus_overflow:
    case search_error_kind::gpu_hours_overflow:
    case search_error_kind::total_price_overflow:
      break;
  }
  return "--compare-days: " + std::string(describe(error.kind));
}

/// The help: the flags, the three uses and the rules of the figures.
inline void write_calcul_forfaits_help(std::ostream& out) {
  out << calcul_forfaits_description() << '\n'
      << "A quote: --gpu ID --days N --lots N. A search: --fits FILE, --fits-gib X or --gpu-hours H, with\n"
      << "--gpus, --days and --accepted-results; cheapest first. A comparison: --gpu ID --compare-days.\n"
      << "Prices are whole packages in integer US cents; the unit cost is the total price divided by\n"
      << "--accepted-results, rounded half to even to 4 decimal places of a cent, as are the prices per\n"
      << "GPU-hour and per GPU-day. A need fits a GPU under the memory rule of data/README.md (section\n"
      << "\"Memory per GPU\"), which every search by memory prints.\n"
      << "calcul_forfaits --version prints the version of the library.\n"
      << "exit codes: 0 success, 2 bad input or an invalid catalog (one line on stderr), 1 internal error\n";
}

/// A result as one JSON object or as text for people.
template <class Result>
void write_result(std::ostream& out, const Result& r, bool json, std::string_view source) {
  if (json) {
    out << boost::json::serialize(report::to_json(r)) << '\n';
  } else {
    report::write_text(out, r, source);
  }
}

/// The whole program: options, the need of a search, catalog, then a quote,
/// a search or a comparison, output. `default_catalogs` are tried in order
/// when --catalog is not given.
[[nodiscard]] inline int run_calcul_forfaits(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                             std::span<const std::filesystem::path> default_catalogs) {
  return guarded(calcul_forfaits_program, out, err, [&] {
    const auto options = parse_calcul_forfaits_options(args);
    if (options.help) {
      write_calcul_forfaits_help(out);
      return exit_success;
    }
    std::optional<memory_need> need;
    if (options.search) {
      need = read_need(*options.search);
    }
    const auto choice = choose_catalog(options, default_catalogs);
    const auto parsed = parse_catalog(read_catalog_text(choice.path), choice.label());
    if (!parsed) {
      throw usage_error("invalid catalog: " + parsed.error().message());
    }
    const catalog& prices = *parsed;
    const std::string source = choice.source(prices.illustrative());
    if (options.list) {
      report::write_catalog_table(out, prices, source);
      return exit_success;
    }
    if (options.compare_days) {
      const auto comparison = compare_durations(prices, options.request.gpu, options.request.accepted);
      if (!comparison) {
        throw usage_error(comparison_error_message(comparison.error(), options.request, prices));
      }
      write_result(out, *comparison, options.json, source);
      return exit_success;
    }
    if (options.search) {
      package_search request = options.search->request;
      request.need = std::move(need);
      const auto list = find_packages(prices, request);
      if (!list) {
        throw usage_error(search_error_message(list.error(), *options.search));
      }
      write_result(out, *list, options.json, source);
      return exit_success;
    }
    const auto quote = quote_package(prices, options.request);
    if (!quote) {
      throw usage_error(package_error_message(quote.error(), options.request));
    }
    write_result(out, *quote, options.json, source);
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP
