#ifndef ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP

#include <csignal>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include <unistd.h>

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

/// The handler `extrapolate` installs for SIGINT and SIGTERM (C linkage): the
/// search holds nothing to undo and writes its answer at the end, so it
/// says so on standard error and ends with 128 + the signal (130, 143).
extern "C" inline void iteragpu_extrapolate_on_signal(int signal) {
  constexpr std::string_view text = "mesure_memoire extrapolate: stopped by a signal; nothing written\n";
  [[maybe_unused]] const auto written = ::write(2, text.data(), text.size());
  ::_exit(128 + signal);
}

/// While alive, SIGINT and SIGTERM end `extrapolate` with 130 or 143; the
/// previous handlers come back when it goes. Neither copied nor moved.
class extrapolate_signal_guard {
 public:
  extrapolate_signal_guard() noexcept {
    struct sigaction action{};
    action.sa_handler = &iteragpu_extrapolate_on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
  }
  extrapolate_signal_guard(const extrapolate_signal_guard&) = delete;
  extrapolate_signal_guard& operator=(const extrapolate_signal_guard&) = delete;
  extrapolate_signal_guard(extrapolate_signal_guard&&) = delete;
  extrapolate_signal_guard& operator=(extrapolate_signal_guard&&) = delete;
  ~extrapolate_signal_guard() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
  }

 private:
  struct sigaction previous_int_{};
  struct sigaction previous_term_{};
};

/// `mesure_memoire extrapolate`: exit 0, 2 for bad input, 130/143 when stopped by SIGINT/SIGTERM.
[[nodiscard]] inline int run_extrapolate(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                         std::span<const std::filesystem::path> default_catalogs) {
  constexpr std::string_view command = "mesure_memoire extrapolate";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,... [--to N]... [--device-index N] "
             "[--alloc-conf CONF]... [--capacity-bytes N | --capacity-gib X | --memory-fraction F | --card-gib X]... "
             "[--largest] [--gpu ID]... [--catalog PATH] [--device-memory-bytes N] [--outside-bytes N] [--json] "
             "[--verbose]\n"
             "       mesure_memoire extrapolate --torchscript FILE --input SPEC... [--train] [--sizes N1,N2,...] "
             "--traces FOLDER [--to N]... [--largest ...] [--json]   (records on this machine's GPU)\n"
          << extrapolate_description() << '\n';
      return exit_success;
    }
    const extrapolate_signal_guard stop_by_signal;
    auto options = parse_extrapolate_options(args);
    if (options.recording) {
      // A catalog or GPU that is refused is refused before the GPU works.
      static_cast<void>(detail::extrapolating::cards_of(options, default_catalogs));
      auto recorded =
          record_sizes(*options.recording, options.device, options.sizes, !options.sizes_given, command, err);
      if (!recorded) {
        err << command << ": " << recorded.error().message << '\n';
        return recorded.error().code;
      }
      options.files = std::move(*recorded);
      options.sizes.resize(options.files.size());
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
