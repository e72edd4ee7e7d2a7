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

#include "iteragpu/catalog.hpp"
#include "iteragpu/cli/common.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/package.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/text.hpp"

namespace iteragpu::cli {

inline constexpr std::string_view calcul_forfaits_program = "calcul_forfaits";
inline constexpr std::string_view shipped_catalog_name = "tarifs-forfaits.csv";
// A catalog of a few thousand packages is a few hundred kB; anything far
// larger is the wrong file, refused before it is read into memory.
inline constexpr std::size_t largest_catalog_bytes = std::size_t{16} << 20U;

struct calcul_forfaits_options {
  bool help{false};
  bool list{false};
  bool json{false};
  std::optional<std::string> catalog_path{};  // absent: the shipped catalog
  package_request request;                  // set unless help or list
};

[[nodiscard]] inline po::options_description calcul_forfaits_description() {
  po::options_description d(
      "calcul_forfaits: the whole price of a fixed-duration GPU package and the cost per accepted result");
  d.add_options()                                                                              //
      ("gpu", text_value(), "GPU id from the catalog, e.g. b200 (required; --list shows them)")  //
      ("days", text_value(), "package duration in days that the catalog lists for the GPU: 3, 7 or 30 (required)")  //
      ("lots", text_value(), "number of lots, a positive integer; a lot may hold several GPUs (required)")     //
      ("accepted-results", text_value(),
       "distinct useful results accepted under your quality protocol, a positive integer; no default: "
       "without it the unit cost is not computed")  //
      ("catalog", text_value(), "catalog CSV file (default: the shipped illustrative catalog)")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")                        //
      ("list", po::bool_switch(), "print the catalog as a table (goes with --catalog only)")      //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

inline constexpr std::string_view accepted_days = "a duration the catalog lists for the GPU (3, 7 or 30; see --list)";
inline constexpr std::string_view accepted_results_text =
    "a positive integer count of distinct accepted results (0 is refused; leave the flag out when nothing was "
    "counted)";

// Validated options from the words after the program name, or a
// usage_error naming the flag. No file is touched here.
[[nodiscard]] inline calcul_forfaits_options parse_calcul_forfaits_options(std::span<const std::string> args) {
  calcul_forfaits_options o;
  if (help_requested(args)) {
    o.help = true;
    return o;
  }
  const auto values = parse_arguments(calcul_forfaits_description(), args);
  const auto given = [&](std::string_view flag) { return values.count(std::string(flag)) != 0; };
  if (given("catalog")) {
    o.catalog_path = required_text(values, "catalog", "a path to a catalog CSV file");
    if (o.catalog_path->empty()) {
      throw usage_error("--catalog: an empty value; expected a path to a catalog CSV file");
    }
  }
  o.json = values["json"].as<bool>();
  o.list = values["list"].as<bool>();
  if (o.list) {
    for (const char* other : {"gpu", "days", "lots", "accepted-results"}) {
      if (given(other)) {
        throw usage_error("--list prints the whole catalog; --" + std::string(other) +
                          " does not go with it (expected --list alone or with --catalog)");
      }
    }
    if (o.json) {
      throw usage_error("--list prints a table; --json does not go with it (expected --list alone or with --catalog)");
    }
    return o;
  }
  constexpr std::string_view accepted_gpu = "a GPU id of the catalog, such as b200 (see --list)";
  o.request.gpu = required_text(values, "gpu", accepted_gpu);
  if (o.request.gpu.empty()) {
    throw usage_error("--gpu: an empty value; expected " + std::string(accepted_gpu));
  }
  o.request.days = package_days{integer_flag("days", required_text(values, "days", accepted_days), 1, accepted_days)};
  o.request.lots = lot_count{positive_flag(values, "lots")};
  if (given("accepted-results")) {
    o.request.accepted = accepted_results{integer_flag(
        "accepted-results", required_text(values, "accepted-results", accepted_results_text), 1, accepted_results_text)};
  }
  return o;
}

// The program's own path, to find the shipped catalog of an install.
[[nodiscard]] inline std::optional<std::filesystem::path> running_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return std::nullopt;
  }
  return path;
}

// Where the shipped catalog may be, most specific first: beside an
// installed program (`bin/../share/iteragpu/`, given as `data_dir_from_bin`)
// and in the source tree of a build.
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

// The catalog to read, and how outputs name it.
struct catalog_choice {
  std::filesystem::path path;
  bool shipped{false};  // the default, found beside an install or in the source tree

  // The name of the file in messages: the path the user gave (escaped), or
  // the shipped catalog's file name without the install prefix.
  [[nodiscard]] std::string label() const {
    return shipped ? std::string(shipped_catalog_name) : escaped(path.string());
  }
  // How a report names it: the path the user gave, or what it is.
  [[nodiscard]] std::string source(bool illustrative) const {
    if (!shipped) {
      return escaped(path.string());
    }
    return illustrative ? "the shipped illustrative catalog" : "the shipped catalog";
  }
};

// The catalog file to read: the one given, else the first default present.
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

// The catalog's text: at most largest_catalog_bytes are ever read, whatever
// size the file system reports.
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
    throw usage_error("--catalog: " + shown +
                      (text.error() == read_error::too_large ? " is larger than 16 MiB" : " cannot be read") +
                      std::string(accepted));
  }
  return std::move(*text);
}

[[nodiscard]] inline std::string join_ids(const catalog& prices) {
  std::string text;
  for (const auto& offer : prices.offers()) {
    text += (text.empty() ? "" : ", ") + offer.id;
  }
  return text;
}

// Why a request was refused, in words that name the flag at fault; the
// error carries what the message needs.
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

// The whole program: options, catalog, quote, output. `default_catalogs`
// are tried in order when --catalog is not given.
[[nodiscard]] inline int run_calcul_forfaits(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                             std::span<const std::filesystem::path> default_catalogs) {
  return guarded(calcul_forfaits_program, out, err, [&] {
    const auto options = parse_calcul_forfaits_options(args);
    if (options.help) {
      out << calcul_forfaits_description() << '\n'
          << "Prices are whole packages in integer US cents; the unit cost is the total price divided by\n"
          << "--accepted-results, rounded half to even to 4 decimal places of a cent.\n"
          << "exit codes: 0 success, 2 bad input or an invalid catalog (one line on stderr), 1 internal error\n";
      return exit_success;
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
    const auto quote = quote_package(prices, options.request);
    if (!quote) {
      throw usage_error(package_error_message(quote.error(), options.request));
    }
    if (options.json) {
      out << boost::json::serialize(report::to_json(*quote)) << '\n';
    } else {
      report::write_text(out, *quote, source);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP
