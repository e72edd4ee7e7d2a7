#ifndef ITERAGPU_CLI_REPLAY_FLAGS_HPP
#define ITERAGPU_CLI_REPLAY_FLAGS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/card_capacity.hpp"
#include "cli/common.hpp"
#include "cli/flags.hpp"
#include "cli/snapshot_input.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags of `mesure_memoire replay SNAPSHOT`: the snapshot as a bare
/// word, --alloc-conf that may repeat, one capacity in bytes or GiB, parsed
/// into replay_command_options.
namespace iteragpu::cli {

/// The flags of `mesure_memoire replay`, with its help.
[[nodiscard]] inline po::options_description replay_description() {
  po::options_description d(
      "mesure_memoire replay SNAPSHOT: the allocator trace of a PyTorch memory snapshot (the pickle of "
      "torch.cuda.memory._dump_snapshot, or the same dict as JSON) replayed through PyTorch 2.11's caching "
      "allocator, simulated: peak allocated and reserved, retries, out of memory, under the recorded settings and "
      "others; no GPU. A self-check replays the recorded settings and compares the segment events: exit 4 when "
      "they differ");
  d.add_options()                                                                                     //
      ("device-index", text_value("N"), "the device whose trace is replayed, 0 or more (default 0)")  //
      ("alloc-conf", text_value("CONF"),
       "a setting as PYTORCH_CUDA_ALLOC_CONF reads it, e.g. expandable_segments:True,max_split_size_mb:128; may "
       "repeat; \"\" is the recorded settings (the default)")                                         //
      ("capacity-bytes", text_value("N"), "the bytes the allocator may reserve, a positive integer")  //
      ("capacity-gib", text_value("X"), "the same in GiB, a decimal (rounded down to a whole byte)")  //
      ("gpu", text_list("ID"),
       "the capacity of this catalog GPU: the low end of its memory under the memory rule less --outside-bytes; "
       "may repeat: one replay per GPU")                                                           //
      ("catalog", text_value("PATH"), "the catalog of GPUs for --gpu (default: the shipped one)")  //
      ("card-gib", text_value("X"),
       "the capacity of a card whose runtime reports this many GiB of total memory, less --outside-bytes")  //
      ("device-memory-bytes", text_value("N"),
       "the device's total memory in bytes (its totalGlobalMem, 150109880320 on the H200), which sizes an "
       "expandable segment's address space: needed under expandable segments unless --gpu or --card-gib names "
       "the card")                                                                                              //
      ("smallest-capacity", po::bool_switch(), "find, per setting, the smallest capacity that runs the trace")  //
      ("on-gpu", po::bool_switch(),
       "make the trace's requests to PyTorch's own caching allocator on this machine's GPU too (a process per "
       "setting; needs a build against a LibTorch with CUDA) and print both, with the first difference: exit 6 "
       "when they differ")  //
      ("outside-bytes", text_value("N"),
       "the memory outside the allocator counted in a memory need, in bytes (default 718077952, measured on the "
       "H200)")                                                             //
      ("json", po::bool_switch(), "print one JSON object instead of text")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire replay`.
struct replay_command_options {
  std::string file;                           ///< the snapshot
  std::size_t device{0};                      ///< --device-index
  std::vector<std::string> alloc_confs;       ///< --alloc-conf, in order (empty: the recorded settings)
  std::optional<byte_count> capacity{};       ///< --capacity-bytes or --capacity-gib
  std::vector<std::string> gpus{};            ///< --gpu, in order: the capacity of each catalog GPU
  std::optional<std::string> catalog{};       ///< --catalog
  std::optional<std::string> card_gib{};      ///< --card-gib, as typed
  std::optional<byte_count> card_bytes{};     ///< --card-gib in bytes
  std::optional<byte_count> device_memory{};  ///< --device-memory-bytes
  bool smallest_capacity{false};              ///< --smallest-capacity
  bool on_gpu{false};                         ///< --on-gpu
  byte_count outside{memory::prediction::h200_pytorch_2_11_outside_allocator};  ///< --outside-bytes
  bool json{false};                                                             ///< --json
};

/// The largest device index --device-index takes.
inline constexpr std::uint64_t max_device_index = 1023;

namespace detail::replay_flags {

// The snapshot is the first word that is neither a flag nor a flag's value;
// the flags and their values are returned. A word that names no flag is
// refused at once, before its value is taken for the snapshot.
[[nodiscard]] inline std::vector<std::string> take_file(const std::vector<std::string>& words, std::string& file) {
  const auto description = replay_description();
  std::vector<std::string> named;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!word.starts_with("-")) {
      if (!file.empty()) {
        throw usage_error("unexpected word " + iteragpu::quoted(word) + "; expected one snapshot file");
      }
      file = word;
      continue;
    }
    named.push_back(word);
    const auto flag = flag_named_by(description, word);
    if (!flag) {
      // Refused here, not by the common parser: its value would be taken for
      // the snapshot, and the snapshot for a stray word.
      throw usage_error(unknown_flag_message(description, word));
    }
    if (word.find('=') != std::string::npos || flag == "-h") {
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
  // One text for every refusal: 0 is a decimal, but no capacity.
  constexpr std::string_view accepted =
      "a decimal of GiB of at least one byte and under 2^64 bytes, such as 80 or 0.5 (no sign, no exponent)";
  const std::string text = required_text(values, "capacity-gib", accepted);
  const auto bytes = gib_to_bytes_rounded_down(decimal_flag("capacity-gib", text, accepted));
  if (!bytes || bytes->value == 0) {
    throw usage_error("--capacity-gib: " + iteragpu::quoted(text) +
                      (bytes ? " is below one byte" : " passes 2^64 bytes") + "; expected " + std::string(accepted));
  }
  return *bytes;
}

// --gpu (with --catalog) or --card-gib: a card whose capacity the command
// works out; neither goes with a capacity given in bytes or GiB.
inline void card_of(const po::variables_map& values, replay_command_options& o) {
  const bool gpu = given(values, "gpu");
  const bool card = given(values, "card-gib");
  if (given(values, "catalog") && !gpu) {
    throw usage_error("--catalog goes with --gpu; expected --gpu ID too");
  }
  if (!gpu && !card) {
    return;
  }
  if (gpu && card) {
    throw usage_error("--gpu and --card-gib do not go together (expected one card)");
  }
  if (o.capacity) {
    throw usage_error(std::string(gpu ? "--gpu" : "--card-gib") +
                      " and --capacity-bytes or --capacity-gib do not go together (expected one capacity)");
  }
  if (gpu) {
    o.gpus = values["gpu"].as<std::vector<std::string>>();
    if (given(values, "catalog")) {
      o.catalog = required_text(values, "catalog", "a catalog CSV file");
    }
    return;
  }
  const std::string text = required_text(values, "card-gib", accepted_card_gib);
  const auto bytes = gib_to_bytes_rounded_down(decimal_flag("card-gib", text, accepted_card_gib));
  if (!bytes || bytes->value == 0) {
    throw usage_error("--card-gib: " + iteragpu::quoted(text) + (bytes ? " is below one byte" : " passes 2^64 bytes") +
                      "; expected " + std::string(accepted_card_gib));
  }
  o.card_gib = text;
  o.card_bytes = *bytes;
}

}  // namespace detail::replay_flags

/// The words of `mesure_memoire replay` as options, or a usage_error.
[[nodiscard]] inline replay_command_options parse_replay_options(std::span<const std::string> args) {
  namespace d = detail::replay_flags;
  replay_command_options o;
  const auto rest = take_alloc_confs(args, replay_description(), o.alloc_confs);
  const auto values = parse_arguments(replay_description(), d::take_file(rest, o.file));
  if (given(values, "device-index")) {
    const auto device = integer_flag("device-index", required_text(values, "device-index", accepted_non_negative), 0,
                                     "a device index, 0 to 1023");
    if (device > max_device_index) {
      throw usage_error("--device-index: " + iteragpu::quoted(to_decimal_string(device)) +
                        " is too large; expected 0 to 1023");
    }
    o.device = static_cast<std::size_t>(device);
  }
  o.capacity = d::capacity_of(values);
  d::card_of(values, o);
  if (given(values, "device-memory-bytes")) {
    if (!o.gpus.empty() || o.card_bytes) {
      throw usage_error(std::string(!o.gpus.empty() ? "--gpu" : "--card-gib") +
                        " and --device-memory-bytes do not go together (the card gives the device's memory)");
    }
    o.device_memory = byte_count{positive_flag(values, "device-memory-bytes")};
  }
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{non_negative_flag(values, "outside-bytes")};
  }
  o.smallest_capacity = values["smallest-capacity"].as<bool>();
  o.on_gpu = values["on-gpu"].as<bool>();
  if (o.on_gpu && o.smallest_capacity) {
    throw usage_error("--on-gpu and --smallest-capacity do not go together (expected one of them)");
  }
  o.json = values["json"].as<bool>();
  return o;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_REPLAY_FLAGS_HPP
