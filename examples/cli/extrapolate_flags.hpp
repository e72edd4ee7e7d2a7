#ifndef ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/extrapolate_recording.hpp"
#include "cli/flags.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags of `mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,...`:
/// the snapshots as bare words, the sizes they were recorded at, the sizes
/// to predict, settings and capacities that may repeat, parsed into
/// extrapolate_command_options.
namespace iteragpu::cli {

/// The largest size --to and --largest go to.
inline constexpr std::uint64_t largest_extrapolated_size = 1'000'000;

/// What --sizes and --to accept, as messages say it.
inline constexpr std::string_view accepted_size_list = "comma-separated positive integers up to 1000000, e.g. 1,2,4";

/// The flags of `mesure_memoire extrapolate`, with its help.
[[nodiscard]] inline po::options_description extrapolate_description() {
  po::options_description d(
      "mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,...: snapshots of one program recorded at several "
      "values of one dimension (the batch size, a sequence length), matched request by request; each request's "
      "size fitted exactly as a + b*n (or + c*n^2 with three sizes or more), the trace built at any size and "
      "replayed as `replay` does; no GPU. Requests that follow no such function make every figure a range "
      "(docs/extrapolate.md)");
  d.add_options()                                                                                                   //
      ("sizes", text_value("LIST"), "the size each snapshot was recorded at, in the snapshots' order, e.g. 1,2,4")  //
      ("to", text_list("LIST"), "a size to predict, or a comma-separated list; may repeat")                         //
      ("device-index", text_value("N"), "the device whose traces are read, 0 or more (default 0)")                  //
      ("alloc-conf", text_value("CONF"),
       "a setting as PYTORCH_CUDA_ALLOC_CONF reads it; may repeat; \"\" is the recorded settings (the default)")  //
      ("capacity-bytes", text_list("N"), "the bytes the allocator may reserve, a positive integer; may repeat")   //
      ("largest", po::bool_switch(),
       "find the largest size up to 1000000 that completes under each --capacity-bytes, or on --gpu ID, or on "
       "every GPU of the catalog")  //
      ("gpu", text_value("ID"),
       "with --largest: a catalog GPU id; its capacity is its memory under the memory rule "
       "less --outside-bytes")                                                                         //
      ("catalog", text_value("PATH"), "the catalog of GPUs for --largest (default: the shipped one)")  //
      ("device-memory-bytes", text_value("N"),
       "the device's total memory in bytes (its totalGlobalMem, 150109880320 on the H200), which sizes an "
       "expandable segment's address space: needed under expandable segments for --to and --capacity-bytes "
       "(a catalog GPU gives its own)")  //
      ("outside-bytes", text_value("N"),
       "the memory outside the allocator taken off a GPU's memory, in bytes (default 718077952, measured on the "
       "H200)")                                                             //
      ("json", po::bool_switch(), "print one JSON object instead of text")  //
      ("torchscript", text_value("FILE"),
       "instead of SNAPSHOT files: record them on this machine's GPU, this TorchScript file measured as `measure "
       "--torchscript` does, once per size of --sizes, each in a fresh process; with --input and --traces")  //
      ("input", text_list("SPEC"),
       "with --torchscript: one input of forward as `measure` reads it, B standing for the size (e.g. "
       "Bx128:int64); repeat the flag for each input")                                                             //
      ("train", po::bool_switch(), "with --torchscript: each pass is forward and backward, as `measure --train`")  //
      ("input-high", text_value("N"), "with --torchscript: passed to `measure --input-high`")                      //
      ("traces", text_value("FOLDER"),
       "with --torchscript: a new folder for each size's snapshot (size-N.pickle) and measurement "
       "(size-N.measurement.json), kept for later runs")  //
      ("record-program", text_value("PATH"),
       "with --torchscript: the program whose `measure` records each size (default: this one)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire extrapolate`.
struct extrapolate_command_options {
  std::vector<std::string> files;             ///< the snapshots, in order
  std::vector<std::uint64_t> sizes;           ///< --sizes, one per snapshot
  std::vector<std::uint64_t> to;              ///< --to, in order
  std::size_t device{0};                      ///< --device-index
  std::vector<std::string> alloc_confs;       ///< --alloc-conf, in order (empty: the recorded settings)
  std::vector<byte_count> capacities;         ///< --capacity-bytes, in order
  std::optional<byte_count> device_memory{};  ///< --device-memory-bytes
  bool largest{false};                        ///< --largest
  std::optional<std::string> gpu{};           ///< --gpu
  std::optional<std::string> catalog{};       ///< --catalog
  byte_count outside{memory::prediction::h200_pytorch_2_11_outside_allocator};  ///< --outside-bytes
  bool json{false};                                                             ///< --json
  std::optional<extrapolate_recording> recording{};  ///< --torchscript and its flags: files recorded, not given
};

namespace detail::extrapolate_flags {

// A comma-separated list of sizes, each 1 to 1000000.
[[nodiscard]] inline std::vector<std::uint64_t> size_list(std::string_view flag, std::string_view text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const auto item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    sizes.push_back(integer_flag(flag, item, 1, accepted_size_list, largest_extrapolated_size));
    if (comma == std::string_view::npos) {
      return sizes;
    }
    start = comma + 1;
  }
}

// --alloc-conf may be "" or look like anything: its values are taken out
// first; the other words are returned.
[[nodiscard]] inline std::vector<std::string> take_alloc_confs(std::span<const std::string> args,
                                                               std::vector<std::string>& confs) {
  std::vector<std::string> rest;
  constexpr std::string_view inline_form = "--alloc-conf=";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.starts_with(inline_form)) {
      confs.push_back(word.substr(inline_form.size()));
    } else if (word != "--alloc-conf") {
      rest.push_back(word);
    } else if (i + 1 == args.size()) {
      throw usage_error("--alloc-conf needs a value; expected a setting such as expandable_segments:True");
    } else if (const auto next = flag_named_by(extrapolate_description(), args[i + 1])) {
      throw usage_error("--alloc-conf needs a value; got the flag " + *next);
    } else {
      confs.push_back(args[++i]);
    }
  }
  return rest;
}

// The snapshots are the words that are neither flags nor flags' values;
// the flags and their values are returned.
[[nodiscard]] inline std::vector<std::string> take_files(const std::vector<std::string>& words,
                                                         std::vector<std::string>& files) {
  const auto description = extrapolate_description();
  std::vector<std::string> named;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!word.starts_with("-")) {
      files.push_back(word);
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
  return named;
}

[[nodiscard]] inline std::vector<std::string> words_of(const po::variables_map& values, const char* flag) {
  return given(values, flag) ? values[flag].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// --torchscript and the flags that go with it, or nothing when the
// snapshots are files: then two files or more, and none of those flags.
[[nodiscard]] inline std::optional<extrapolate_recording> recording_flags(const po::variables_map& values,
                                                                          const std::vector<std::string>& files,
                                                                          const std::vector<std::uint64_t>& sizes) {
  if (!given(values, "torchscript")) {
    for (const char* flag : {"input", "train", "input-high", "traces", "record-program"}) {
      if (given(values, flag)) {
        throw usage_error("--" + std::string(flag) + " goes with --torchscript; expected --torchscript FILE too");
      }
    }
    if (files.size() < 2) {
      throw usage_error("expected two snapshot files or more (one per size of --sizes), got " +
                        to_decimal_string(files.size()));
    }
    return std::nullopt;
  }
  if (!files.empty()) {
    throw usage_error("unexpected word " + quoted(files.front()) +
                      "; --torchscript records the snapshots, expected no SNAPSHOT file beside it");
  }
  if (sizes.size() < 2) {
    throw usage_error("--sizes: --torchscript needs two sizes or more to record; expected e.g. 1,2,4");
  }
  extrapolate_recording r;
  r.model = required_text(values, "torchscript", "a TorchScript file (torch.jit.save)");
  r.inputs = words_of(values, "input");
  check_size_inputs(r.inputs);
  r.train = values["train"].as<bool>();
  if (given(values, "input-high")) {
    r.input_high = required_text(values, "input-high", accepted_positive);
  }
  r.folder = required_text(values, "traces", "a new folder for the recorded snapshots");
  if (given(values, "record-program")) {
    r.program = required_text(values, "record-program", "a program with a `measure` subcommand");
  }
  return r;
}

// --gpu and --catalog (with --largest), and --device-memory-bytes, which a
// GPU of the catalog gives itself; read after --capacity-bytes and --largest.
inline void device_flags(const po::variables_map& values, extrapolate_command_options& o) {
  if (given(values, "gpu")) {
    o.gpu = required_text(values, "gpu", "a catalog GPU id");
  }
  if (given(values, "catalog")) {
    o.catalog = required_text(values, "catalog", "a catalog CSV file");
  }
  if ((o.gpu || o.catalog) && !o.largest) {
    throw usage_error(std::string(o.gpu ? "--gpu" : "--catalog") + " goes with --largest; expected --largest too");
  }
  if (o.gpu && !o.capacities.empty()) {
    throw usage_error("--gpu and --capacity-bytes do not go together with --largest (expected one: a GPU's "
                      "capacity or capacities in bytes)");
  }
  if (given(values, "device-memory-bytes")) {
    if (o.gpu) {
      throw usage_error("--gpu and --device-memory-bytes do not go together (the GPU gives the device's memory)");
    }
    o.device_memory = byte_count{positive_flag(values, "device-memory-bytes")};
  }
}

}  // namespace detail::extrapolate_flags

/// The words of `mesure_memoire extrapolate` as options, or a usage_error.
[[nodiscard]] inline extrapolate_command_options parse_extrapolate_options(std::span<const std::string> args) {
  namespace d = detail::extrapolate_flags;
  extrapolate_command_options o;
  const auto rest = d::take_alloc_confs(args, o.alloc_confs);
  const auto values = parse_arguments(extrapolate_description(), d::take_files(rest, o.files));
  o.sizes = d::size_list("sizes", required_text(values, "sizes", accepted_size_list));
  o.recording = d::recording_flags(values, o.files, o.sizes);
  if (!o.recording && o.sizes.size() != o.files.size()) {
    throw usage_error("--sizes: " + to_decimal_string(o.sizes.size()) + " size(s) for " +
                      to_decimal_string(o.files.size()) + " snapshots; expected one size per snapshot, in order");
  }
  for (std::size_t i = 0; i < o.sizes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (o.sizes[i] == o.sizes[j]) {
        throw usage_error("--sizes: " + to_decimal_string(o.sizes[i]) +
                          " is given twice; expected one snapshot per size, each size once");
      }
    }
  }
  for (const auto& text : d::words_of(values, "to")) {
    for (const auto n : d::size_list("to", text)) {
      o.to.push_back(n);
    }
  }
  if (given(values, "device-index")) {
    o.device = static_cast<std::size_t>(integer_flag("device-index",
                                                     required_text(values, "device-index", accepted_non_negative), 0,
                                                     "a device index, 0 to 1023", 1023));
  }
  for (const auto& text : d::words_of(values, "capacity-bytes")) {
    o.capacities.push_back(byte_count{integer_flag("capacity-bytes", text, 1, accepted_positive)});
  }
  o.largest = values["largest"].as<bool>();
  d::device_flags(values, o);
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{non_negative_flag(values, "outside-bytes")};
  }
  if (o.to.empty() && !o.largest) {
    throw usage_error("nothing asked; expected --to N (sizes to predict) or --largest");
  }
  o.json = values["json"].as<bool>();
  return o;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP
