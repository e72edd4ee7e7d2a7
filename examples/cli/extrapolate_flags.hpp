#ifndef ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP

#include <array>
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
#include "cli/snapshot_input.hpp"
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

/// The sizes `extrapolate --torchscript` records without --sizes: 2, 3 and
/// 4, where a program's small-size paths show, then doubling up to 512, so
/// that the requests that stop growing (one part per multiprocessor) and
/// the kernels that switch past a size are seen; the recording stops at the
/// first size that runs out of memory on the card (docs/extrapolate.md).
inline constexpr std::array<std::uint64_t, 10> default_recorded_sizes{2, 3, 4, 8, 16, 32, 64, 128, 256, 512};

/// The flags of `mesure_memoire extrapolate`, with its help.
[[nodiscard]] inline po::options_description extrapolate_description() {
  po::options_description d(
      "mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,...: snapshots of one program recorded at several "
      "values of one dimension (the batch size, a sequence length), matched request by request; each request's "
      "size fitted exactly (constant, a + b*n, a + b*n + c*n^2, a cap reached along a line), the trace built at "
      "any size and replayed as `replay` does; no GPU. Requests that follow no confirmed function make a figure a "
      "range (docs/extrapolate.md)");
  d.add_options()                                                                                                   //
      ("sizes", text_value("LIST"), "the size each snapshot was recorded at, in the snapshots' order, e.g. 1,2,4")  //
      ("to", text_list("LIST"), "a size to predict, or a comma-separated list; may repeat")                         //
      ("device-index", text_value("N"), "the device whose traces are read, 0 or more (default 0)")                  //
      ("alloc-conf", text_value("CONF"),
       "a setting as PYTORCH_CUDA_ALLOC_CONF reads it; may repeat; \"\" is the recorded settings (the default)")  //
      ("capacity-bytes", text_list("N"), "the bytes the allocator may reserve, a positive integer; may repeat")   //
      ("capacity-gib", text_list("X"), "the same in GiB, a decimal (rounded down to a whole byte); may repeat")   //
      ("memory-fraction", text_list("F"),
       "a capacity as torch.cuda.set_per_process_memory_fraction(F) sets it on the device of "
       "--device-memory-bytes: (size_t)(F x total) in double; may repeat")  //
      ("card-gib", text_list("X"),
       "a card whose runtime reports this many GiB of total memory, less --outside-bytes; may repeat")  //
      ("largest", po::bool_switch(),
       "find the largest size up to 1000000 that completes under each capacity, each --gpu, or every GPU of the "
       "catalog")  //
      ("gpu", text_list("ID"),
       "a catalog GPU id; may repeat: its capacity is its memory under the memory rule less --outside-bytes "
       "(default: every GPU of the catalog)")                                            //
      ("catalog", text_value("PATH"), "the catalog of GPUs (default: the shipped one)")  //
      ("device-memory-bytes", text_value("N"),
       "the device's total memory in bytes (its totalGlobalMem, 85017493504 on an H100 80GB HBM3), which sizes an "
       "expandable segment's address space and --memory-fraction (a catalog GPU or --card-gib gives its own)")  //
      ("outside-bytes", text_value("N"),
       "the memory outside the allocator taken off a card's memory, in bytes (default 718077952: the CUDA context "
       "and library handles of PyTorch 2.11, measured on an H200)")                                         //
      ("json", po::bool_switch(), "print one JSON object instead of text")                                  //
      ("verbose", po::bool_switch(), "with the text: list every request that is unexplained or unmatched")  //
      ("torchscript", text_value("FILE"),
       "instead of SNAPSHOT files: record them on this machine's GPU, this TorchScript file measured as `measure "
       "--torchscript` does, once per size, each in a fresh process; with --input and --traces; without --sizes "
       "the sizes 2,3,4,8,...,512, up to the first that runs out of memory")  //
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
  bool sizes_given{true};                     ///< --sizes given (else the default recorded sizes)
  std::vector<std::uint64_t> to;              ///< --to, in order
  std::size_t device{0};                      ///< --device-index
  std::vector<std::string> alloc_confs;       ///< --alloc-conf, in order (empty: the recorded settings)
  std::vector<capacity_flag> capacities;      ///< --capacity-bytes, --capacity-gib, --memory-fraction, --card-gib
  std::optional<byte_count> device_memory{};  ///< --device-memory-bytes
  bool largest{false};                        ///< --largest
  std::vector<std::string> gpus{};            ///< --gpu, in order (none: every GPU of the catalog)
  std::optional<std::string> catalog{};       ///< --catalog
  byte_count outside{memory::prediction::h200_pytorch_2_11_outside_allocator};  ///< --outside-bytes
  bool outside_given{false};                                                    ///< --outside-bytes given
  bool json{false};                                                             ///< --json
  bool verbose{false};                                                          ///< --verbose
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
    throw usage_error("--sizes: --torchscript needs two sizes or more to record; expected e.g. 2,3,4,16");
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

// --gpu (may repeat) and --catalog, and --device-memory-bytes, which a
// GPU of the catalog or --card-gib gives itself.
inline void device_flags(const po::variables_map& values, extrapolate_command_options& o) {
  o.gpus = words_of(values, "gpu");
  if (given(values, "catalog")) {
    o.catalog = required_text(values, "catalog", "a catalog CSV file");
  }
  if (given(values, "device-memory-bytes")) {
    if (!o.gpus.empty()) {
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
  const auto rest = take_alloc_confs(args, extrapolate_description(), o.alloc_confs);
  const auto values = parse_arguments(extrapolate_description(), d::take_files(rest, o.files));
  o.sizes_given = given(values, "sizes") || !given(values, "torchscript");
  if (o.sizes_given) {
    o.sizes = d::size_list("sizes", required_text(values, "sizes", accepted_size_list));
  } else {
    o.sizes.assign(default_recorded_sizes.begin(), default_recorded_sizes.end());
  }
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
  o.capacities = capacity_flags(values);
  o.largest = values["largest"].as<bool>();
  d::device_flags(values, o);
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{non_negative_flag(values, "outside-bytes")};
    o.outside_given = true;
  }
  // Each capacity is checked now, before any file is read or recorded.
  for (const auto& c : o.capacities) {
    static_cast<void>(resolve_capacity(c, o.device_memory, o.outside));
  }
  if (o.to.empty() && !o.largest) {
    throw usage_error("nothing asked; expected --to N (sizes to predict) or --largest");
  }
  o.json = values["json"].as<bool>();
  o.verbose = values["verbose"].as<bool>();
  return o;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_FLAGS_HPP
