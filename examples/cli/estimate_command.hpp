#ifndef ITERAGPU_CLI_ESTIMATE_COMMAND_HPP
#define ITERAGPU_CLI_ESTIMATE_COMMAND_HPP

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/memory/estimate.hpp"
#include "iteragpu/report/estimate.hpp"

/// \file
/// `mesure_memoire estimate`: the memory of a model's weights, with no GPU.
namespace iteragpu::cli {

/// The validated options of `mesure_memoire estimate`.
struct estimate_options {
  parameter_count parameters;  ///< --parameters
  storage_bits bits;           ///< --bits
  exact_decimal reserve_gib;   ///< --reserve-gib (0 by default)
  bool json{false};            ///< --json
};

/// The flags of `mesure_memoire estimate`, with its help.
[[nodiscard]] inline po::options_description estimate_description() {
  po::options_description d("mesure_memoire estimate: weight memory from a parameter count, no GPU needed");
  d.add_options()                                                                        //
      ("parameters", text_value("N"), "parameter count, a positive integer (required)")  //
      ("bits", text_value("N"),
       "storage width per parameter in bits, a positive integer, rounded up to whole bytes (required)")  //
      ("reserve-gib", text_value("X"),
       "a reserve in GiB that you choose, a non-negative decimal (default 0)")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")      //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// Validated options, or a usage_error naming the flag. `help` set means the
/// caller prints the description instead.
[[nodiscard]] inline estimate_options parse_estimate_options(const po::variables_map& values) {
  estimate_options o;
  o.parameters = parameter_count{positive_flag(values, "parameters")};
  o.bits = storage_bits{positive_flag(values, "bits")};
  o.reserve_gib = decimal_flag("reserve-gib", optional_text(values, "reserve-gib", "0"));
  o.json = values["json"].as<bool>();
  return o;
}

/// The flag a refused estimate names.
[[nodiscard]] inline std::string_view flag_at_fault(estimate_errc error) noexcept {
  switch (error) {
    case estimate_errc::zero_bits:
      return "--bits";
    case estimate_errc::total_overflow:
      return "--reserve-gib";
    case estimate_errc::zero_parameters:
    case estimate_errc::weight_bytes_overflow:
      break;
  }
  return "--parameters";
}

/// `mesure_memoire estimate`: the weights' memory as text or JSON on `out` (docs/conventions.md, "Exit codes").
[[nodiscard]] inline int run_estimate(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return guarded("mesure_memoire estimate", out, err, [&] {
    const auto description = estimate_description();
    if (help_requested(args)) {
      out << "usage: mesure_memoire estimate --parameters N --bits N [--reserve-gib X] [--json]\n"
          << description << '\n';
      return exit_success;
    }
    const auto options = parse_estimate_options(parse_arguments(description, args));
    const auto estimate = estimate_memory(options.parameters, options.bits, options.reserve_gib);
    if (!estimate) {
      throw usage_error(std::string(flag_at_fault(estimate.error())) + ": " + std::string(describe(estimate.error())) +
                        " (" + to_decimal_string(options.parameters.value) + " parameters of " +
                        to_decimal_string(options.bits.value) + " bits)");
    }
    if (options.json) {
      out << boost::json::serialize(report::to_json(*estimate)) << '\n';
    } else {
      report::write_text(out, *estimate);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_ESTIMATE_COMMAND_HPP
