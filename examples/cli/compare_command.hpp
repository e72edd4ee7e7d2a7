#ifndef ITERAGPU_CLI_COMPARE_COMMAND_HPP
#define ITERAGPU_CLI_COMPARE_COMMAND_HPP

#include <array>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/documents.hpp"
#include "iteragpu/memory/compare.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire compare A.json B.json [--json]`: two measurement files
/// side by side, B against A. No GPU and no LibTorch: it reads files.
namespace iteragpu::cli {

/// The flags of `mesure_memoire compare`, with its help.
[[nodiscard]] inline po::options_description compare_description() {
  po::options_description d(
      "mesure_memoire compare A.json B.json: two measurements (files of measure --output, schema 1 or 2) side by "
      "side, B against A: memory per phase row (SAME or DIFFERENT, exact), time of warm_forward (FASTER, SLOWER, "
      "SAME or AMBIGUOUS from the confidence intervals of the medians), environment and configuration; exit 0 "
      "whatever the verdict, 2 when a file is not a measurement");
  d.add_options()                                                           //
      ("json", po::bool_switch(), "print one JSON object instead of text")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire compare`.
struct compare_options {
  std::array<std::string, 2> files;  ///< A's file, then B's
  bool json{false};                  ///< --json
};

/// The two file names (positional words) and --json.
[[nodiscard]] inline compare_options parse_compare_options(std::span<const std::string> args) {
  // The files are positional words, routed to names that no flag owns (so
  // neither the help nor the completion offers them); a third word goes to
  // `stray`, for the message.
  static constexpr const char* first = "iteragpu-compare-a";
  static constexpr const char* second = "iteragpu-compare-b";
  static constexpr const char* stray = "iteragpu-stray-word";
  po::options_description options;
  options.add(compare_description())
      .add_options()(first, text_value("A.json"), "")(second, text_value("B.json"), "")(stray, text_value("WORD"), "");
  po::positional_options_description positional;
  positional.add(first, 1).add(second, 1).add(stray, -1);
  po::variables_map values;
  try {
    const std::vector<std::string> words(args.begin(), args.end());
    const auto parsed =
        po::command_line_parser(words).options(options).positional(positional).style(command_line_style).run();
    for (const auto& option : parsed.options) {
      if (option.string_key == stray && !option.value.empty()) {
        throw usage_error("unexpected word " + quoted(option.value.front()) +
                          "; expected two measurement files, A.json B.json");
      }
    }
    po::store(parsed, values);
  } catch (const po::error& e) {
    throw usage_error(describe_parse_error(e, compare_description()));
  }
  compare_options o;
  for (const auto& [index, key] : {std::pair{0U, first}, std::pair{1U, second}}) {
    if (values.count(key) == 0) {
      throw usage_error("expected two measurement files, A.json B.json; got " +
                        std::string(index == 0U ? "none" : "one"));
    }
    o.files.at(index) = values[key].as<std::string>();
  }
  o.json = values["json"].as<bool>();
  return o;
}

/// `mesure_memoire compare`: reads both files and prints the comparison as text or JSON on `out`;
/// exit 0 whatever the verdict, 2 when a file is not a measurement.
[[nodiscard]] inline int run_compare(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire compare";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire compare A.json B.json [--json]\n" << compare_description() << '\n';
      return exit_success;
    }
    const auto options = parse_compare_options(args);
    std::vector<report::compared_file> files;
    for (const auto& file : options.files) {
      auto run = memory::read_measurement(file);
      if (!run) {
        throw usage_error(report::describe(run.error(), program_documents));
      }
      files.push_back(report::compared_file{std::filesystem::path(file).filename().string(), std::move(*run)});
    }
    const auto compared = memory::compare_runs(files[0].run, files[1].run);
    if (options.json) {
      out << boost::json::serialize(report::to_json(compared, files[0], files[1])) << '\n';
    } else {
      report::write_text(out, compared, files[0], files[1]);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_COMPARE_COMMAND_HPP
