#ifndef ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP
#define ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP

#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include "cli/calcul_forfaits_files.hpp"
#include "cli/calcul_forfaits_messages.hpp"
#include "cli/calcul_forfaits_options.hpp"
#include "cli/common.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/catalog_errors.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/report/quote.hpp"

/// \file
/// `calcul_forfaits`: a quote, a search of the catalog, a durations comparison or the catalog's list,
/// from the command line to the output.
namespace iteragpu::cli {

/// The help: the flags, the three uses and the rules of the figures.
inline void write_calcul_forfaits_help(std::ostream& out) {
  out << "usage: calcul_forfaits --gpu ID --days N --lots N [--accepted-results N] [--catalog PATH] [--json]\n"
         "       calcul_forfaits [--fits FILE [--size N] | --fits-gib X] [--gpu-hours H] [--gpus N] [--days N]\n"
         "                       [--accepted-results N] [--catalog PATH] [--json]   (a search: at least one of the three)\n"
         "       calcul_forfaits --gpu ID --compare-days [--accepted-results N] [--catalog PATH] [--json]\n"
         "       calcul_forfaits --list [--catalog PATH]\n"
      << calcul_forfaits_description() << '\n'
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
    const auto parsed = pricing::parse_catalog(read_catalog_text(choice.path), choice.label());
    if (!parsed) {
      throw usage_error("invalid catalog: " + pricing::describe(parsed.error()));
    }
    const pricing::catalog& prices = *parsed;
    const std::string source = choice.source(prices.illustrative());
    if (options.list) {
      report::write_catalog_table(out, prices, source);
      return exit_success;
    }
    if (options.compare_days) {
      const auto comparison = pricing::compare_durations(prices, options.request.gpu, options.request.accepted);
      if (!comparison) {
        throw usage_error(comparison_error_message(comparison.error(), options.request, prices));
      }
      write_result(out, *comparison, options.json, source);
      return exit_success;
    }
    if (options.search) {
      pricing::package_search request = options.search->request;
      request.need = std::move(need);
      const auto list = pricing::find_packages(prices, request);
      if (!list) {
        throw usage_error(search_error_message(list.error(), *options.search));
      }
      write_result(out, *list, options.json, source);
      return exit_success;
    }
    const auto quote = pricing::quote_package(prices, options.request);
    if (!quote) {
      throw usage_error(package_error_message(quote.error(), options.request, prices));
    }
    write_result(out, *quote, options.json, source);
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CALCUL_FORFAITS_COMMAND_HPP
