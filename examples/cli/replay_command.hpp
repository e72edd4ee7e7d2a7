#ifndef ITERAGPU_CLI_REPLAY_COMMAND_HPP
#define ITERAGPU_CLI_REPLAY_COMMAND_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "cli/card_capacity.hpp"
#include "cli/common.hpp"
#include "cli/replay_flags.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/report/alloc_conf_errors.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/report/snapshot_errors.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// `mesure_memoire replay SNAPSHOT`: a PyTorch memory snapshot's trace
/// replayed through the simulated caching allocator, under the recorded
/// settings and others, with or without a capacity. No GPU, no LibTorch.
namespace iteragpu::cli {

/// The largest snapshot read: 2 GiB, the pickle reader's own limit (tens of millions of events).
inline constexpr std::size_t largest_snapshot_file = std::size_t{2} << 30U;

/// The snapshot file read and typed, or a usage_error naming the file.
[[nodiscard]] inline memory::snapshot read_snapshot_file(const std::string& file) {
  const std::filesystem::path path(file);
  const std::string shown = iteragpu::quoted(file);
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    throw usage_error(shown + " does not exist; expected a snapshot file");
  }
  // read_file_within refuses a folder, a FIFO or a device without waiting on it.
  auto bytes = read_file_within(path, largest_snapshot_file);
  if (!bytes) {
    throw usage_error(shown + describe(bytes.error(), "2 GiB") + "; expected a snapshot file");
  }
  // The JSON form: a key given twice is refused, as in every JSON the programs read.
  if (const auto first = bytes->find_first_not_of(" \t\r\n"); first != std::string::npos && (*bytes)[first] == '{') {
    // Checked as deep as the snapshot reader reads.
    const auto duplicate = first_duplicate_key(*bytes, memory::pickle_limits{}.max_depth);
    if (!duplicate) {
      throw usage_error(shown + " is not valid JSON (" + duplicate.error().parser.message() + ")");
    }
    if (*duplicate) {
      throw usage_error(shown + " is refused: " + duplicate_key_message(**duplicate));
    }
  }
  const std::span<const unsigned char> data(reinterpret_cast<const unsigned char*>(bytes->data()),  // NOLINT
                                            bytes->size());
  auto document = memory::read_snapshot_bytes(data);
  if (!document) {
    throw usage_error(shown + ": " + report::describe(document.error()));
  }
  auto typed = memory::snapshot_from(*document);
  if (!typed) {
    throw usage_error(shown + " is not a memory snapshot: " + report::describe(typed.error()));
  }
  return std::move(*typed);
}

/// The settings an --alloc-conf text gives; none for "" (the recorded
/// settings); a usage_error naming the text when PyTorch would refuse it.
[[nodiscard]] inline std::optional<memory::prediction::allocator_settings> settings_of_flag(const std::string& text) {
  if (text.empty()) {
    return std::nullopt;
  }
  auto settings = memory::prediction::parse_alloc_conf(text);
  if (!settings) {
    throw usage_error("--alloc-conf " + iteragpu::quoted(text) + ": " + report::describe(settings.error()));
  }
  return *settings;
}

/// A usage_error when `settings` (the recorded ones when `alloc_conf` is
/// empty) replay expandable segments and the device's memory, which sizes
/// their address space, is not `known`; `expected` names the flags that give it.
inline void require_device_memory(const std::string& alloc_conf, const memory::prediction::allocator_settings& settings,
                                  bool known, std::string_view expected) {
  if (!settings.expandable_segments || known) {
    return;
  }
  throw usage_error(
      (alloc_conf.empty() ? std::string("the recorded settings") : "--alloc-conf " + iteragpu::quoted(alloc_conf)) +
      ": expandable segments reserve an address space of 9/8 of the device's memory, which no flag "
      "gives; expected " +
      std::string(expected));
}

/// The trace of the device asked, or a usage_error when the snapshot has none.
[[nodiscard]] inline const memory::device_trace& trace_of(const memory::snapshot& snapshot,
                                                          const replay_command_options& options) {
  if (options.device >= snapshot.devices.size() || snapshot.devices[options.device].events.empty()) {
    throw usage_error("--device-index " + to_decimal_string(options.device) + ": " + iteragpu::quoted(options.file) +
                      " has no trace events for that device (it has traces for " +
                      to_decimal_string(snapshot.devices.size()) +
                      " device(s)); record with torch.cuda.memory._record_memory_history() before the first "
                      "allocation");
  }
  return snapshot.devices[options.device];
}

/// A replay's study and how the reports name what was asked.
struct replay_run {
  memory::study study;                  ///< the replays
  report::replay_context context;       ///< the file, the device, the settings recorded, the flags
  std::optional<card_capacity> card{};  ///< --gpu or --card-gib: the card the capacity stands for
};

/// The cards of --gpu (one per id, in order) or --card-gib, or none; a
/// usage_error for an unknown GPU, one given twice, or a card whose memory
/// does not pass the memory outside the allocator.
[[nodiscard]] inline std::vector<card_capacity> card_capacities_of(
    const replay_command_options& options, std::span<const std::filesystem::path> default_catalogs) {
  std::vector<card_capacity> cards;
  if (options.card_bytes) {
    cards.push_back(card_gib_capacity(*options.card_gib, *options.card_bytes, options.outside));
    return cards;
  }
  if (options.gpus.empty()) {
    return cards;
  }
  const auto catalog = card_catalog(options.catalog, default_catalogs);
  for (const auto& id : options.gpus) {
    if (std::ranges::any_of(cards, [&](const card_capacity& c) { return c.gpu == id; })) {
      throw usage_error("--gpu: " + quoted_excerpt(id) + " is given twice; expected each GPU once");
    }
    const auto found = catalog_capacities(catalog, id, options.outside);
    if (found.empty()) {
      throw usage_error("--gpu: " + quoted_excerpt(id) +
                        " has no memory the memory rule can state; expected a GPU with a memory figure");
    }
    cards.push_back(found.front());
  }
  return cards;
}

/// Reads the snapshot and replays it as `options` ask, on `card` where one
/// is given (its capacity and memory); a usage_error names what is refused.
/// Every --alloc-conf is checked before the file is read.
[[nodiscard]] inline replay_run replay_file(const replay_command_options& given,
                                            std::optional<card_capacity> card = std::nullopt) {
  replay_command_options options = given;
  if (card) {
    options.capacity = card->bytes;
  }
  std::vector<std::optional<memory::prediction::allocator_settings>> asked;
  asked.reserve(options.alloc_confs.size());
  for (const auto& text : options.alloc_confs) {
    asked.push_back(settings_of_flag(text));
  }
  const auto snapshot = read_snapshot_file(options.file);
  const auto& trace = trace_of(snapshot, options);
  const auto recorded = memory::settings_of(snapshot.settings);
  memory::study_request request;
  if (asked.empty()) {
    request.settings.push_back({"", recorded});
  }
  for (std::size_t i = 0; i < asked.size(); ++i) {
    request.settings.push_back({options.alloc_confs[i], asked[i].value_or(recorded)});
  }
  request.capacity = options.capacity;
  request.device_memory = card ? card->device_memory : options.device_memory;
  for (const auto& setting : request.settings) {
    require_device_memory(setting.alloc_conf, setting.settings, request.device_memory.has_value(),
                          "--device-memory-bytes N, --gpu ID or --card-gib X");
  }
  request.smallest_capacity = options.smallest_capacity;
  request.outside = options.outside;
  auto study = memory::run_study(trace, recorded, request);
  if (!study) {
    throw usage_error(iteragpu::quoted(options.file) + ": " + report::describe(study.error()));
  }
  return replay_run{std::move(*study),
                    report::replay_context{std::filesystem::path(options.file).filename().string(), options.device,
                                           snapshot.settings.has_value(),
                                           snapshot.settings ? snapshot.settings->alloc_conf : std::string(),
                                           options.smallest_capacity, options.capacity, options.outside},
                    std::move(card)};
}

/// The replays `options` ask for: one per --gpu, or one (under --card-gib,
/// the capacity given, or none). Every card is checked before a file is read.
[[nodiscard]] inline std::vector<replay_run> replay_runs(const replay_command_options& options,
                                                         std::span<const std::filesystem::path> default_catalogs = {}) {
  const auto cards = card_capacities_of(options, default_catalogs);
  std::vector<replay_run> runs;
  if (cards.empty()) {
    runs.push_back(replay_file(options));
  }
  for (const auto& card : cards) {
    runs.push_back(replay_file(options, card));
  }
  return runs;
}

/// Exit code of a replay whose self-check failed: the figures are printed,
/// but the simulation did not reproduce the recorded segment events.
inline constexpr int exit_self_check = 4;

/// What `replay --on-gpu` runs (replay_on_gpu.hpp), given by the program;
/// none: the program cannot reach PyTorch's allocator.
using replay_on_gpu_runner = std::function<int(const replay_command_options&, std::ostream&)>;

namespace detail::replay_command {

// --on-gpu: what the program gives, or a usage_error where it gives nothing.
[[nodiscard]] inline int on_gpu_or_refuse(const replay_command_options& options, std::ostream& out,
                                          const replay_on_gpu_runner& on_gpu) {
  if (!on_gpu) {
    throw usage_error("--on-gpu: this program cannot reach PyTorch's allocator; expected mesure_memoire");
  }
  return on_gpu(options, out);
}

/// One run's answer, one run per --gpu: its JSON object on one line, or its
/// text (after a blank line unless it is the first, headed by the card's capacity).
inline void write_run(std::ostream& out, const replay_run& run, bool json, bool first) {
  const auto& [study, context, card] = run;
  if (json) {
    auto document = report::to_json(study, context);
    if (card) {
      auto& object = document.as_object();
      object["capacity_gpu"] = card->gpu ? boost::json::value(*card->gpu) : boost::json::value(nullptr);
      object["capacity_basis"] = card->basis;
    }
    out << boost::json::serialize(document) << '\n';
    return;
  }
  if (!first) {
    out << '\n';
  }
  if (card) {
    out << "Capacity: " << bytes_and_size_text(card->bytes.value) << (card->gpu ? " on " + *card->gpu : std::string())
        << ": " << card->basis << '\n';
  }
  report::write_text(out, study, context);
}

}  // namespace detail::replay_command

/// `mesure_memoire replay`: reads the snapshot, replays it and prints the study as text or JSON;
/// exit 0, 2 for bad input, 4 when the self-check failed; with --on-gpu, what `on_gpu` returns.
[[nodiscard]] inline int run_replay(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                    std::span<const std::filesystem::path> default_catalogs = {},
                                    const replay_on_gpu_runner& on_gpu = {}) {
  constexpr std::string_view command = "mesure_memoire replay";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire replay SNAPSHOT [--device-index N] [--alloc-conf CONF]... "
             "[--capacity-bytes N | --capacity-gib X | --gpu ID... [--catalog PATH] | --card-gib X] "
             "[--device-memory-bytes N] [--smallest-capacity | --on-gpu] [--outside-bytes N] [--json]\n"
          << replay_description() << '\n';
      return exit_success;
    }
    const auto options = parse_replay_options(args);
    if (options.on_gpu) {
      return detail::replay_command::on_gpu_or_refuse(options, out, on_gpu);
    }
    const auto runs = replay_runs(options, default_catalogs);
    for (const auto& run : runs) {
      detail::replay_command::write_run(out, run, options.json, &runs.front() == &run);
    }
    const auto failed =
        std::ranges::find_if(runs, [](const replay_run& r) { return !report::self_check_passed(r.study); });
    if (failed != runs.end()) {
      const auto& study = failed->study;
      err << command
          << ": the self-check failed: the replay under the recorded settings does not make the "
             "recorded segment events at event "
          << study.self_check.divergence->event << "; the figures are not exact\n";
      return exit_self_check;
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_REPLAY_COMMAND_HPP
