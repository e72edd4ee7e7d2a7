#ifndef ITERAGPU_CLI_REPLAY_COMMAND_HPP
#define ITERAGPU_CLI_REPLAY_COMMAND_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/report/alloc_conf_errors.hpp"
#include "iteragpu/report/json_keys.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/report/snapshot_errors.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// `mesure_memoire replay SNAPSHOT`: a PyTorch memory snapshot's trace
/// replayed through the simulated caching allocator, under the recorded
/// settings and others, with or without a capacity. No GPU, no LibTorch.
namespace iteragpu::cli {

/// The flags of `mesure_memoire replay`, with its help.
[[nodiscard]] inline po::options_description replay_description() {
  po::options_description d(
      "mesure_memoire replay SNAPSHOT: the allocator trace of a PyTorch memory snapshot (the pickle of "
      "torch.cuda.memory._dump_snapshot, or the same dict as JSON) replayed through PyTorch 2.11's caching "
      "allocator, simulated: peak allocated and reserved, retries, out of memory, under the recorded settings and "
      "others; no GPU. A self-check replays the recorded settings and compares the segment events: exit 4 when "
      "they differ");
  d.add_options()                                                                                        //
      ("device-index", text_value(), "the device whose trace is replayed, 0 or more (default 0)")        //
      ("alloc-conf", text_value(),
       "a setting as PYTORCH_CUDA_ALLOC_CONF reads it, e.g. expandable_segments:True,max_split_size_mb:128; may "
       "repeat; \"\" is the recorded settings (the default)")  //
      ("capacity-bytes", text_value(), "the bytes the allocator may reserve, a positive integer")  //
      ("capacity-gib", text_value(), "the same in GiB, a decimal (rounded down to a whole byte)")  //
      ("smallest-capacity", po::bool_switch(), "find, per setting, the smallest capacity that runs the trace")  //
      ("outside-bytes", text_value(),
       "the memory outside the allocator counted in a memory need, in bytes (default 718077952, measured on the "
       "H200)")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire replay`.
struct replay_command_options {
  std::string file;                              ///< the snapshot
  std::size_t device{0};                         ///< --device-index
  std::vector<std::string> alloc_confs;          ///< --alloc-conf, in order (empty: the recorded settings)
  std::optional<byte_count> capacity{};          ///< --capacity-bytes or --capacity-gib
  bool smallest_capacity{false};                 ///< --smallest-capacity
  byte_count outside{prediction::memory_outside_allocator_default};  ///< --outside-bytes
  bool json{false};                              ///< --json
};

/// The largest device index --device-index takes.
inline constexpr std::uint64_t max_device_index = 1023;

/// The largest snapshot read: 2 GiB, the pickle reader's own limit (tens of millions of events).
inline constexpr std::size_t largest_snapshot_file = std::size_t{2} << 30U;

namespace detail::replay_flags {

// --alloc-conf may repeat, which the common parser refuses for every other
// flag: its values are taken out first; the other words are returned.
[[nodiscard]] inline std::vector<std::string> take_alloc_confs(std::span<const std::string> args,
                                                               std::vector<std::string>& confs) {
  std::vector<std::string> rest;
  constexpr std::string_view inline_form = "--alloc-conf=";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.starts_with(inline_form)) {
      confs.push_back(word.substr(inline_form.size()));
      continue;
    }
    if (word != "--alloc-conf") {
      rest.push_back(word);
      continue;
    }
    if (i + 1 == args.size()) {
      throw usage_error("--alloc-conf needs a value; expected a setting such as expandable_segments:True");
    }
    if (const auto next = flag_named_by(replay_description(), args[i + 1])) {
      throw usage_error("--alloc-conf needs a value; got the flag " + *next);
    }
    confs.push_back(args[++i]);
  }
  return rest;
}

// The snapshot is the first word that is neither a flag nor a flag's value;
// the flags and their values are returned.
[[nodiscard]] inline std::vector<std::string> take_file(const std::vector<std::string>& words, std::string& file) {
  const auto description = replay_description();
  std::vector<std::string> named;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!word.starts_with("-")) {
      if (!file.empty()) {
        throw usage_error("unexpected word " + quoted(word) + "; expected one snapshot file");
      }
      file = word;
      continue;
    }
    named.push_back(word);
    const auto flag = flag_named_by(description, word);
    if (!flag || word.find('=') != std::string::npos || flag == "-h") {
      continue;
    }
    const auto* option = description.find_nothrow(flag->substr(2), false);
    if (option != nullptr && option->semantic()->max_tokens() > 0 && i + 1 < words.size()) {
      named.push_back(words[++i]);
    }
  }
  if (file.empty()) {
    throw usage_error("expected a snapshot file (the pickle of torch.cuda.memory._dump_snapshot, or its JSON)");
  }
  return named;
}

[[nodiscard]] inline std::optional<byte_count> capacity_of(const po::variables_map& values) {
  if (given(values, "capacity-bytes") && given(values, "capacity-gib")) {
    throw usage_error("--capacity-bytes and --capacity-gib do not go together (expected one capacity)");
  }
  if (given(values, "capacity-bytes")) {
    return byte_count{positive_flag(values, "capacity-bytes")};
  }
  if (!given(values, "capacity-gib")) {
    return std::nullopt;
  }
  const std::string text = required_text(values, "capacity-gib", "a positive decimal number of GiB");
  const auto bytes = gib_to_bytes_rounded_down(decimal_flag("capacity-gib", text));
  if (!bytes || bytes->value == 0) {
    throw usage_error("--capacity-gib: " + quoted(text) + (bytes ? " is below one byte" : " passes 2^64 bytes") +
                      "; expected a positive decimal of GiB");
  }
  return *bytes;
}

}  // namespace detail::replay_flags

/// The words of `mesure_memoire replay` as options, or a usage_error.
[[nodiscard]] inline replay_command_options parse_replay_options(std::span<const std::string> args) {
  namespace d = detail::replay_flags;
  replay_command_options o;
  const auto rest = d::take_alloc_confs(args, o.alloc_confs);
  const auto values = parse_arguments(replay_description(), d::take_file(rest, o.file));
  if (given(values, "device-index")) {
    const auto device = integer_flag("device-index", required_text(values, "device-index", accepted_non_negative), 0,
                                     "a device index, 0 to 1023");
    if (device > max_device_index) {
      throw usage_error("--device-index: " + quoted(to_decimal_string(device)) + " is too large; expected 0 to 1023");
    }
    o.device = static_cast<std::size_t>(device);
  }
  o.capacity = d::capacity_of(values);
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{non_negative_flag(values, "outside-bytes")};
  }
  o.smallest_capacity = values["smallest-capacity"].as<bool>();
  o.json = values["json"].as<bool>();
  return o;
}

/// The snapshot file read and typed, or a usage_error naming the file.
[[nodiscard]] inline memory::snapshot read_snapshot_file(const std::string& file) {
  const std::filesystem::path path(file);
  const std::string shown = quoted(file);
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
    if (const auto duplicate = report::first_duplicate_key(*bytes)) {
      throw usage_error(shown + " is refused: " + report::duplicate_key_message(*duplicate));
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
[[nodiscard]] inline std::optional<prediction::allocator_settings> settings_of_flag(const std::string& text) {
  if (text.empty()) {
    return std::nullopt;
  }
  auto settings = prediction::parse_alloc_conf(text);
  if (!settings) {
    throw usage_error("--alloc-conf " + quoted(text) + ": " + report::describe(settings.error()));
  }
  return *settings;
}

/// The trace of the device asked, or a usage_error when the snapshot has none.
[[nodiscard]] inline const memory::device_trace& trace_of(const memory::snapshot& snapshot,
                                                          const replay_command_options& options) {
  if (options.device >= snapshot.devices.size() || snapshot.devices[options.device].events.empty()) {
    throw usage_error("--device-index " + to_decimal_string(options.device) + ": " + quoted(options.file) +
                      " has no trace events for that device (it has traces for " +
                      to_decimal_string(snapshot.devices.size()) +
                      " device(s)); record with torch.cuda.memory._record_memory_history() before the first "
                      "allocation");
  }
  return snapshot.devices[options.device];
}

/// A replay's study and how the reports name what was asked.
struct replay_run {
  memory::study study;             ///< the replays
  report::replay_context context;  ///< the file, the device, the settings recorded, the flags
};

/// Reads the snapshot and replays it as `options` ask; a usage_error names
/// what is refused. Every --alloc-conf is checked before the file is read.
[[nodiscard]] inline replay_run replay_file(const replay_command_options& options) {
  std::vector<std::optional<prediction::allocator_settings>> asked;
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
  request.smallest_capacity = options.smallest_capacity;
  request.outside = options.outside;
  auto study = memory::run_study(trace, recorded, request);
  if (!study) {
    throw usage_error(quoted(options.file) + ": " + report::describe(study.error()));
  }
  return replay_run{std::move(*study),
                    report::replay_context{std::filesystem::path(options.file).filename().string(), options.device,
                                           snapshot.settings.has_value(),
                                           snapshot.settings ? snapshot.settings->alloc_conf : std::string(),
                                           options.smallest_capacity, options.capacity, options.outside}};
}

/// Exit code of a replay whose self-check failed: the figures are printed,
/// but the simulation did not reproduce the recorded segment events.
inline constexpr int exit_self_check = 4;

/// `mesure_memoire replay`: reads the snapshot, replays it and prints the study as text or JSON;
/// exit 0, 2 for bad input, 4 when the self-check failed.
[[nodiscard]] inline int run_replay(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire replay";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire replay SNAPSHOT [--device-index N] [--alloc-conf CONF]... "
             "[--capacity-bytes N | --capacity-gib X] [--smallest-capacity] [--outside-bytes N] [--json]\n"
          << replay_description() << '\n';
      return exit_success;
    }
    const auto options = parse_replay_options(args);
    const auto [study, context] = replay_file(options);
    if (options.json) {
      out << boost::json::serialize(report::to_json(study, context)) << '\n';
    } else {
      report::write_text(out, study, context);
    }
    if (!report::self_check_passed(study)) {
      err << command << ": the self-check failed: the replay under the recorded settings does not make the "
                        "recorded segment events at event "
          << study.self_check.divergence->event << "; the figures are not exact\n";
      return exit_self_check;
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_REPLAY_COMMAND_HPP
