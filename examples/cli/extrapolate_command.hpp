#ifndef ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP

#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include "cli/common.hpp"
#include "cli/extrapolate_flags.hpp"
#include "cli/extrapolate_output.hpp"
#include "cli/extrapolate_run.hpp"

/// \file
/// `mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,...`: snapshots of
/// one program at several sizes of one dimension, matched and fitted
/// (memory/extrapolation.hpp), the trace built at each size asked and
/// replayed, and the largest size that completes under each capacity. No
/// GPU, no LibTorch. docs/extrapolate.md documents the command.
namespace iteragpu::cli {

/// `mesure_memoire extrapolate`: exit 0, 2 for bad input.
[[nodiscard]] inline int run_extrapolate(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                         std::span<const std::filesystem::path> default_catalogs) {
  constexpr std::string_view command = "mesure_memoire extrapolate";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,... [--to N]... [--device-index N] "
             "[--alloc-conf CONF]... [--capacity-bytes N]... [--largest [--gpu ID] [--catalog PATH]] "
             "[--device-memory-bytes N] [--outside-bytes N] [--json]\n"
             "       mesure_memoire extrapolate --torchscript FILE --input SPEC... [--train] --sizes N1,N2,... "
             "--traces FOLDER [--to N]... [--largest ...] [--json]   (records on this machine's GPU)\n"
          << extrapolate_description() << '\n';
      return exit_success;
    }
    auto options = parse_extrapolate_options(args);
    if (options.recording) {
      if (options.largest) {
        // A catalog or GPU that is refused is refused before the GPU works.
        static_cast<void>(detail::extrapolating::capacities_of(options, default_catalogs));
      }
      auto recorded = record_sizes(*options.recording, options.device, options.sizes, command, err);
      if (!recorded) {
        err << command << ": " << recorded.error().message << '\n';
        return recorded.error().code;
      }
      options.files = std::move(*recorded);
    }
    const auto run = extrapolate_files(options, default_catalogs);
    if (options.json) {
      out << boost::json::serialize(extrapolation_json(run, options)) << '\n';
    } else {
      write_extrapolation_text(out, run, options);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP
