#ifndef ITERAGPU_CLI_GPU_COMMANDS_HPP
#define ITERAGPU_CLI_GPU_COMMANDS_HPP

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/sha256.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"

/// \file
/// `environment` and `measure`, written once over a GPU runtime object: the
/// program passes LibTorch's (iteragpu/torch/runtime.hpp) or, in a build
/// without LibTorch, iteragpu::unavailable_runtime. Each is parse -> library
/// call -> render -> write.
namespace iteragpu::cli {

/// What `--device` accepts, as messages say it.
inline constexpr std::string_view accepted_device = "cuda:N with N a GPU index, e.g. cuda:0 (never cpu)";

/// The device of `--device`, or a usage_error naming the flag.
[[nodiscard]] inline device_index device_flag(std::string_view text) {
  if (const auto d = parse_device(text)) {
    return *d;
  }
  throw usage_error("--device: " + quoted(text) + " is not accepted; expected " + std::string(accepted_device));
}

/// Reserves the new file named by `--flag` before any work, or refuses it
/// (exit 2, nothing written).
[[nodiscard]] inline new_file reserve_output(std::string_view flag, const std::string& text) {
  auto reserved = new_file::reserve(std::filesystem::path(text));
  if (!reserved) {
    throw usage_error("--" + std::string(flag) + ": " + reserved.error().message);
  }
  return std::move(*reserved);
}

/// Writes the reserved file. What fails now (a full disk) is no bad input:
/// exit 1, and nothing is left at the name. A name another process took
/// meanwhile: exit 5, the result kept under the new name the message gives.
[[nodiscard]] inline int commit_output(std::string_view command, new_file&& file, std::string_view text,
                                       std::ostream& err) {
  if (auto written = std::move(file).commit(text); !written) {
    if (written.error().kind == new_file_error::name_taken) {
      err << command << ": --output: " << written.error().message << '\n';
      return exit_output_name_taken;
    }
    err << command << ": --output: " << written.error().message << "; nothing was written\n";
    return exit_internal_error;
  }
  return exit_success;
}

// ---- environment ---------------------------------------------------------

/// The flags of `mesure_memoire environment`, with its help.
[[nodiscard]] inline po::options_description environment_description() {
  po::options_description d(
      "mesure_memoire environment: versions and the GPUs the runtime reports (a diagnostic: exit 0 when no GPU "
      "is available)");
  d.add_options()                                                                                        //
      ("device", text_value(), "the GPU to describe, cuda:N (default cuda:0)")                          //
      ("output", text_value(), "write the JSON to this new file instead of stdout (never overwritten)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// `mesure_memoire environment`: the environment report as JSON on `out` or in a new file; exit 0
/// even when no GPU is available.
template <environment_runtime Runtime>
[[nodiscard]] int run_environment(Runtime& runtime, std::span<const std::string> args, std::ostream& out,
                                  std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire environment";
  return guarded(command, out, err, [&] {
    const auto description = environment_description();
    if (help_requested(args)) {
      out << description << '\n';
      return exit_success;
    }
    const auto values = parse_arguments(description, args);
    const device_index device = device_flag(optional_text(values, "device", "cuda:0"));
    std::optional<new_file> output{};
    if (values.count("output") != 0) {
      output.emplace(reserve_output("output", required_text(values, "output", "a path to a new file")));
    }
    const std::string text = boost::json::serialize(report::to_json(runtime.environment(device))) + "\n";
    if (output) {
      return commit_output(command, std::move(*output), text, err);
    }
    out << text;
    return exit_success;
  });
}

// ---- measure -------------------------------------------------------------

/// The validated options of `mesure_memoire measure`.
struct measure_options {
  synthetic_run run;  ///< device, shape, dtype and passes
  std::string output;  ///< the new file the record goes to
  std::optional<prediction::blas_workspaces> workspaces{};  ///< --workspace-bytes
  std::optional<std::string> memory_snapshot{};  ///< --memory-snapshot: the new file the allocator's history goes to
  std::optional<torchscript_run> torchscript{};  ///< --torchscript: a module of the user's instead of the synthetic network
};

/// A flag that may be repeated, each word kept as text in order (a
/// std::vector<std::string>): Boost's typed_value of a vector trips GCC 12's
/// -Wnull-dereference, as its typed_value<std::string> does.
class text_list_value : public po::value_semantic_codecvt_helper<char> {
 public:
  /// The argument's name in the help.
  [[nodiscard]] std::string name() const override { return "arg"; }
  /// One word per occurrence.
  [[nodiscard]] unsigned min_tokens() const override { return 1; }
  /// One word per occurrence.
  [[nodiscard]] unsigned max_tokens() const override { return 1; }
  /// Occurrences add up rather than conflict.
  [[nodiscard]] bool is_composing() const override { return true; }
  /// Never required by the parser itself.
  [[nodiscard]] bool is_required() const override { return false; }
  /// No default.
  bool apply_default(boost::any& /*value*/) const override { return false; }
  /// Nothing to notify.
  void notify(const boost::any& /*value*/) const override {}

 protected:
  /// Appends the occurrence's words.
  void xparse(boost::any& value, const std::vector<std::string>& tokens) const override {
    if (value.empty()) {
      value = std::vector<std::string>{};
    }
    auto& words = boost::any_cast<std::vector<std::string>&>(value);
    words.insert(words.end(), tokens.begin(), tokens.end());
  }
};

/// A repeatable flag whose words are kept in order (text_list_value).
[[nodiscard]] inline const po::value_semantic* text_list() { return new text_list_value(); }

/// The flags of `mesure_memoire measure`, with its help.
[[nodiscard]] inline po::options_description measure_description() {
  po::options_description d(
      "mesure_memoire measure: memory and time of the synthetic network Linear(width -> 4*width) -> GELU -> "
      "Linear(4*width -> width) (inference), or of a TorchScript module (--torchscript), phase by phase, on one GPU");
  d.add_options()                                                                                         //
      ("device", text_value(), "the GPU, cuda:N (required; the CPU is never used as a fallback)")        //
      ("batch", text_value(), "input batch, a positive integer (default 1)")                              //
      ("context", text_value(), "positions per input, a positive integer (default 16; no attention)")     //
      ("width", text_value(), "model width, a positive integer (default 64; hidden = 4 x width)")         //
      ("dtype", text_value(), "float32, float16 or bfloat16 for weights and inputs (default float32)")    //
      ("warmup", text_value(), "warm-up passes, 0 to 10000, measured together (default 1)")               //
      ("repeats", text_value(),
       "measured passes after the warm-up: 1 to 10000, or auto (until the 95 % confidence interval of the median "
       "GPU time is within --max-noise of it; default 2)")  //
      ("min-repeats", text_value(), "with --repeats auto: at least this many passes (default 10)")  //
      ("max-repeats", text_value(), "with --repeats auto: at most this many passes, up to 10000 (default 10000)")  //
      ("max-noise", text_value(),
       "with --repeats auto: how far the interval may reach from the median, as a fraction of it (default 0.01)")  //
      ("max-seconds", text_value(), "with --repeats auto: stop once the repeats have taken this long (default 15)")  //
      ("workspace-bytes", text_value(),
       "the GPU library's workspace the prediction assumes, in bytes (default: what LibTorch reports, else the "
       "H200 figure 34603008)")  //
      ("memory-snapshot", text_value(),
       "also write PyTorch's allocator snapshot (a pickle for torch.cuda._memory_viz) to this new file, even when a "
       "phase fails (LibTorch 2.1 or newer)")  //
      ("torchscript", text_value(),
       "measure this TorchScript file (torch.jit.save) instead of the synthetic network; with --input")  //
      ("aoti", text_value(),
       "measure this AOTInductor package (.pt2, torch._inductor.aoti_compile_and_package) instead of the synthetic "
       "network, for inference; with --input; needs a build against LibTorch 2.6 or later")  //
      ("input", text_list(),
       "with --torchscript or --aoti: one input of forward, in order, as SIZExSIZE...:DTYPE (e.g. 8x512:int64); repeat the "
       "flag for each input")  //
      ("train", po::bool_switch(),
       "with --torchscript: each pass is forward and backward of the sum of the floating outputs")  //
      ("input-high", text_value(),
       "with --torchscript or --aoti: integer inputs are uniform in [0, N) (default 2); floating inputs are standard normal")  //
      ("output", text_value(), "the JSON result, a new file (required; never overwritten)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// What `--torchscript` accepts, as messages say it.
inline constexpr std::string_view accepted_torchscript = "a TorchScript file saved by torch.jit.save";
/// What `--aoti` accepts, as messages say it.
inline constexpr std::string_view accepted_aoti =
    "an AOTInductor package (.pt2) written by torch._inductor.aoti_compile_and_package";

/// The flag that names the file of a run, without its dashes.
[[nodiscard]] inline std::string_view model_flag(model_format format) noexcept {
  return format == model_format::torchscript ? "torchscript" : "aoti";
}

/// The file of `--torchscript` (or `--aoti`), checked without LibTorch and
/// before any GPU is touched: a readable regular file with the layout of a
/// TorchScript archive (or an AOTInductor package). Its name (without the
/// folder) and SHA-256 go in `run`.
inline void check_torchscript_file(torchscript_run& run) {
  const std::filesystem::path path(run.path);
  const bool aoti = run.format == model_format::aoti_package;
  const auto refuse = [&](const std::string& why) {
    throw usage_error("--" + std::string(model_flag(run.format)) + ": " + iteragpu::quoted(run.path) + " " + why +
                      "; expected " + std::string(aoti ? accepted_aoti : accepted_torchscript));
  };
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) {
    refuse("does not exist");
  }
  if (!std::filesystem::is_regular_file(status)) {
    refuse("is not a regular file");
  }
  const auto size = std::filesystem::file_size(path, error);
  std::ifstream file(path, std::ios::binary);
  if (error || !file) {
    refuse("cannot be read");
  }
  const auto read_at = [&](std::uint64_t offset, std::uint64_t length) {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(length));
    file.seekg(static_cast<std::streamoff>(offset));
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length));  // NOLINT
    if (!file) {
      refuse("cannot be read");
    }
    return bytes;
  };
  const auto archive = [&]() -> result<void, memory::archive_error> {
    if (auto start = memory::check_zip_start(read_at(0, std::min<std::uint64_t>(size, 4))); !start) {
      return start;
    }
    const std::uint64_t tail_length = std::min(size, memory::zip_tail_bytes);
    const auto where = memory::find_central_directory(read_at(size - tail_length, tail_length), size);
    if (!where) {
      return unexpected{where.error()};
    }
    const auto entries = read_at(where->offset, where->size);
    return aoti ? memory::check_aoti_package_entries(entries, *where)
                : memory::check_torchscript_entries(entries, *where);
  }();
  if (!archive) {
    refuse(report::describe(archive.error(), run.format));
  }
  memory::sha256_hasher hasher;
  file.clear();
  file.seekg(0);
  constexpr std::size_t block = std::size_t{1} << 20U;
  std::vector<std::uint8_t> bytes(block);
  while (file) {
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(block));  // NOLINT
    hasher.update(std::span<const std::uint8_t>(bytes.data(), static_cast<std::size_t>(file.gcount())));
  }
  if (!file.eof()) {
    refuse("cannot be read");
  }
  run.file_name = path.filename().string();
  run.sha256 = memory::to_hex(hasher.finish());
}

/// The inputs of `--input`, each parsed, or a usage_error naming the first that does not parse.
[[nodiscard]] inline std::vector<memory::input_spec> input_flags(const po::variables_map& values,
                                                                std::string_view model) {
  std::vector<memory::input_spec> inputs;
  const auto found = values.find("input");
  if (found == values.end() || found->second.empty()) {
    throw usage_error("--" + std::string(model) + " needs --input, once per input of forward; expected " +
                      std::string(report::accepted_input_spec));
  }
  for (const auto& text : found->second.as<std::vector<std::string>>()) {
    auto spec = memory::parse_input_spec(text);
    if (!spec) {
      throw usage_error("--input: " + iteragpu::quoted(text) + " " + report::describe(spec.error()) + "; expected " +
                        std::string(report::accepted_input_spec));
    }
    inputs.push_back(std::move(*spec));
  }
  return inputs;
}

/// The TorchScript run of `--torchscript`, the flags of the synthetic network refused beside it, then
/// the file and the inputs checked, so that their mistakes are reported whatever else is missing. The
/// device and the plan are set by the caller.
[[nodiscard]] inline torchscript_run torchscript_flags(const po::variables_map& values, model_format format) {
  for (const char* flag : {"batch", "context", "width", "dtype", "workspace-bytes"}) {
    if (given(values, flag)) {
      throw usage_error("--" + std::string(flag) +
                        " describes the synthetic network, not a TorchScript module; expected --input for each "
                        "input of forward");
    }
  }
  const bool aoti = format == model_format::aoti_package;
  if (aoti && given(values, "torchscript")) {
    throw usage_error("--aoti and --torchscript: one model at a time; expected one of them");
  }
  if (aoti && given(values, "train")) {
    throw usage_error("--train: an AOTInductor package is compiled for inference; expected --torchscript FILE to "
                      "measure training");
  }
  torchscript_run run;
  run.format = format;
  run.path = required_text(values, model_flag(format), aoti ? accepted_aoti : accepted_torchscript);
  check_torchscript_file(run);
  run.inputs = input_flags(values, model_flag(format));
  run.train = given(values, "train");
  run.input_high = integer_flag("input-high", optional_text(values, "input-high", "2"), 1, accepted_positive);
  for (const auto& spec : run.inputs) {
    const auto largest = memory::largest_input_high(spec.dtype);
    if (largest && run.input_high > *largest) {
      throw usage_error("--input-high: " + std::to_string(run.input_high) + " is past what " +
                        std::string(memory::name_of(spec.dtype)) + " holds; expected at most " +
                        std::to_string(*largest));
    }
  }
  return run;
}

/// A non-negative decimal such as 0.01 or 15, for the stopping rule.
[[nodiscard]] inline double positive_decimal_flag(const po::variables_map& values, std::string_view flag,
                                                  std::string_view fallback) {
  const std::string text = optional_text(values, flag, fallback);
  const exact_decimal parsed = decimal_flag(flag, text);
  if (parsed == exact_decimal{}) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(text) + " is not above 0; expected a positive decimal");
  }
  // The rule's parameters are doubles; the text is a plain decimal, which
  // strtod reads exactly as written up to double precision.
  return std::stod(parsed.to_string());
}

/// What `--warmup` accepts, as messages say it (pass_limit).
inline constexpr std::string_view accepted_warmup = "an integer from 0 to 10000, the most passes a command runs";
/// What a count of repeats accepts, as messages say it (pass_limit).
inline constexpr std::string_view accepted_repeat_count =
    "an integer from 1 to 10000, the most passes a command runs";
/// What `--workspace-bytes` accepts, as messages say it (prediction::largest_workspace_total).
inline constexpr std::string_view accepted_workspace_total =
    "a non-negative integer up to 1152921504607895551 (2^60 + 1 MiB - 1: from there the cuBLAS workspace is a "
    "request the caching allocator refuses)";
static_assert(pass_limit == 10'000, "accepted_warmup and accepted_repeat_count quote pass_limit");
static_assert(prediction::largest_workspace_total.value == 1'152'921'504'607'895'551U,
              "accepted_workspace_total quotes largest_workspace_total");

/// `--warmup`: 0 to pass_limit passes, or a usage_error naming the flag.
[[nodiscard]] inline std::uint64_t warmup_flag(std::string_view text) {
  return integer_flag("warmup", text, 0, accepted_warmup, pass_limit);
}

/// `--workspace-bytes` split as prediction::split_workspace_total() does, or
/// a usage_error naming the flag for a total whose workspaces cannot be allocated.
[[nodiscard]] inline prediction::blas_workspaces workspace_total_flag(std::string_view text) {
  return prediction::split_workspace_total(byte_count{
      integer_flag("workspace-bytes", text, 0, accepted_workspace_total, prediction::largest_workspace_total.value)});
}

/// The element type of `--dtype`, or a usage_error naming the flag.
[[nodiscard]] inline element_type dtype_flag(std::string_view text) {
  const auto element = parse_element_type(text);
  if (!element) {
    throw usage_error("--dtype: " + quoted(text) + " is not accepted; expected float32, float16 or bfloat16");
  }
  return *element;
}

/// Validated options; the output file is not touched here.
[[nodiscard]] inline measure_options parse_measure_options(const po::variables_map& values) {
  measure_options o;
  if (given(values, "aoti")) {
    o.torchscript = torchscript_flags(values, model_format::aoti_package);
  } else if (given(values, "torchscript")) {
    o.torchscript = torchscript_flags(values, model_format::torchscript);
  }
  o.run.device = device_flag(required_text(values, "device", accepted_device));
  const auto integer = [&](std::string_view flag, std::string_view fallback, std::uint64_t minimum) {
    return integer_flag(flag, optional_text(values, flag, fallback), minimum,
                        minimum == 0 ? accepted_non_negative : accepted_positive);
  };
  o.run.shape.batch = integer("batch", "1", 1);
  o.run.shape.context = integer("context", "16", 1);
  o.run.shape.width = integer("width", "64", 1);
  o.run.dtype = dtype_flag(optional_text(values, "dtype", "float32"));
  o.run.plan.warmup = warmup_flag(optional_text(values, "warmup", "1"));
  const std::string repeats = optional_text(values, "repeats", "2");
  if (repeats == "auto") {
    stopping_parameters p;
    const auto count = [&](std::string_view flag, std::string_view fallback) {
      return integer_flag(flag, optional_text(values, flag, fallback), 1, accepted_repeat_count, pass_limit);
    };
    p.min_repeats = count("min-repeats", "10");
    p.max_repeats = count("max-repeats", "10000");
    p.max_noise = positive_decimal_flag(values, "max-noise", "0.01");
    p.max_seconds = std::chrono::duration<double>(positive_decimal_flag(values, "max-seconds", "15"));
    auto rule = stopping_rule::make(p);
    if (!rule) {
      throw usage_error("--min-repeats/--max-repeats: " + std::string(describe(rule.error())) +
                        "; expected --max-repeats at least --min-repeats");
    }
    o.run.plan.until = *rule;
    o.run.plan.repeats = 0;
  } else {
    o.run.plan.repeats = integer_flag("repeats", repeats, 1, "an integer from 1 to 10000 (the most passes a command "
                                      "runs), or auto", pass_limit);
    for (const char* flag : {"min-repeats", "max-repeats", "max-noise", "max-seconds"}) {
      if (given(values, flag)) {
        throw usage_error("--" + std::string(flag) + " goes with --repeats auto only; expected --repeats auto");
      }
    }
  }
  if (given(values, "workspace-bytes")) {
    o.workspaces = workspace_total_flag(required_text(values, "workspace-bytes", accepted_workspace_total));
  }
  if (given(values, "memory-snapshot")) {
    o.memory_snapshot = required_text(values, "memory-snapshot", "a path to a new file");
  }
  o.output = required_text(values, "output", "a path to a new file");
  if (o.torchscript) {
    o.torchscript->device = o.run.device;
    o.torchscript->plan = o.run.plan;
  } else {
    for (const char* flag : {"input", "train", "input-high"}) {
      if (given(values, flag)) {
        throw usage_error("--" + std::string(flag) +
                          " goes with --torchscript or --aoti only; expected --torchscript FILE or --aoti FILE");
      }
    }
  }
  return o;
}

/// The exit code and the one-line message of a measurement that did not
/// happen or did not finish.
[[nodiscard]] inline int report_failure(std::string_view command, const synthetic_failure& failure,
                                        std::ostream& err) {
  switch (failure.kind) {
    case synthetic_failure_kind::shape_too_large:
      err << command << ": --batch/--context/--width: " << failure.message
          << "; expected smaller positive integers\n";
      return exit_usage;
    case synthetic_failure_kind::device_unavailable:
      err << command << ": " << failure.message << "; nothing was measured and no file was written\n";
      return exit_usage;
    case synthetic_failure_kind::cannot_measure:
      err << command << ": " << failure.message << "; no file was written\n";
      return exit_usage;
    case synthetic_failure_kind::phase_failed:
      err << command << ": failed during phase " << name_of(failure.phase.value_or(phase_kind::model_load)) << ": "
          << escaped(failure.message) << "; no file was written\n";
      return exit_measurement;
  }
  return exit_internal_error;
}

/// --memory-snapshot: reserves the file and starts recording the allocator's
/// history, before the first phase; refused where the runtime cannot record.
template <environment_runtime Runtime>
[[nodiscard]] std::optional<new_file> start_memory_snapshot(Runtime& runtime, const std::optional<std::string>& path) {
  if (!path) {
    return std::nullopt;
  }
  if constexpr (memory_history_recording<Runtime>) {
    new_file file = reserve_output("memory-snapshot", *path);
    if (auto started = runtime.start_memory_history(memory_snapshot_entries); !started) {
      throw usage_error("--memory-snapshot: " + report::describe(started.error()));
    }
    return file;
  } else {
    static_cast<void>(runtime);
    throw usage_error(
        "--memory-snapshot: this build cannot record the allocator's history (it needs a LibTorch 2.1 or newer with "
        "a GPU runtime); leave the flag out");
  }
}

/// Writes the snapshot, if one was started: exit_success, or
/// exit_internal_error with one line when it could not be written.
template <environment_runtime Runtime>
[[nodiscard]] int finish_memory_snapshot(Runtime& runtime, std::string_view command, std::optional<new_file> file,
                                         std::ostream& err) {
  if (!file) {
    return exit_success;
  }
  if constexpr (memory_history_recording<Runtime>) {
    const auto pickled = runtime.memory_snapshot();
    if (!pickled) {
      err << command << ": --memory-snapshot: " << escaped(report::describe(pickled.error())) << "; no snapshot was written\n";
      return exit_internal_error;
    }
    return commit_output(command, std::move(*file), *pickled, err) == exit_success ? exit_success
                                                                                     : exit_internal_error;
  } else {
    static_cast<void>(runtime);
    static_cast<void>(command);
    static_cast<void>(err);
    return exit_success;
  }
}

/// The exit code and the one-line message of a TorchScript measurement that did not happen or did not
/// finish: the module's refusals are bad input (exit 2), a failed phase exit 3.
[[nodiscard]] inline int report_failure(std::string_view command, const torchscript_run& run,
                                        const torchscript_failure& failure, std::ostream& err) {
  constexpr std::string_view nothing = "; no file was written\n";
  const std::string file = iteragpu::quoted(run.file_name);
  const std::string given_inputs = report::inputs_text(run.inputs);
  const auto& e = failure.error.value_or(torchscript_error{});
  switch (failure.kind) {
    case torchscript_failure_kind::device_unavailable:
      err << command << ": " << failure.message << "; nothing was measured and no file was written\n";
      return exit_usage;
    case torchscript_failure_kind::cannot_measure:
      err << command << ": " << failure.message << nothing;
      return exit_usage;
    case torchscript_failure_kind::refused:
      switch (e.refusal.value_or(torchscript_refusal::not_loadable)) {
        case torchscript_refusal::not_loadable:
          err << command << ": --" << model_flag(run.format) << ": " << file << " could not be loaded as "
              << (run.format == model_format::torchscript ? "a TorchScript module: " : "an AOTInductor package: ")
              << escaped(e.message) << nothing;
          break;
        case torchscript_refusal::wrong_inputs:
          err << command << ": --input: forward of " << file << " expects " << escaped(e.message) << "; given "
              << run.inputs.size() << (run.inputs.size() == 1 ? " input (" : " inputs (") << given_inputs << ")"
              << nothing;
          break;
        case torchscript_refusal::inputs_refused:
          err << command << ": --input: forward of " << file << " refused the inputs " << given_inputs << ": "
              << escaped(e.message) << nothing;
          break;
        case torchscript_refusal::nothing_to_train:
          err << command << ": --train: " << escaped(e.message) << "; expected a module with trainable parameters"
              << nothing;
          break;
      }
      return exit_usage;
    case torchscript_failure_kind::phase_failed:
      err << command << ": failed during phase " << name_of(e.phase) << ": " << escaped(e.message) << nothing;
      return exit_measurement;
  }
  return exit_internal_error;
}

/// `measure --torchscript`: measures the module, writes the snapshot (unless
/// the module refused the user's input: then nothing is written), then the record.
template <environment_runtime Runtime>
[[nodiscard]] int measure_torchscript_and_write(Runtime& runtime, const torchscript_run& run,
                                                const std::string& output_text, new_file&& output,
                                                std::optional<new_file> snapshot, std::ostream& out,
                                                std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire measure";
  const auto record = measure_torchscript(runtime, run);
  if (!record && record.error().kind == torchscript_failure_kind::refused) {
    return report_failure(command, run, record.error(), err);
  }
  const int code = finish_memory_snapshot(runtime, command, std::move(snapshot), err);
  if (!record) {
    return report_failure(command, run, record.error(), err);
  }
  const std::string json =
      boost::json::serialize(report::to_json(*record, output.path().filename().string())) + "\n";
  if (const int written = commit_output(command, std::move(output), json, err); written != exit_success) {
    return written;
  }
  report::write_text(out, *record);
  out << "wrote " << escaped(output_text) << '\n';
  return code;
}

/// `mesure_memoire measure`: measures the synthetic network on the runtime's GPU and writes the
/// record to a new file, after a failure too; the exit code says how it went (README "Exit codes").
template <environment_runtime Runtime>
[[nodiscard]] int run_measure(Runtime& runtime, std::span<const std::string> args, std::ostream& out,
                              std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire measure";
  return guarded(command, out, err, [&]() -> int {
    const auto description = measure_description();
    if (help_requested(args)) {
      out << description << '\n';
      return exit_success;
    }
    const measure_options options = parse_measure_options(parse_arguments(description, args));
    // Whatever can fail about the outputs fails now, before the first phase.
    new_file output = reserve_output("output", options.output);
    auto snapshot = start_memory_snapshot(runtime, options.memory_snapshot);
    if (options.torchscript) {
      return measure_torchscript_and_write(runtime, *options.torchscript, options.output, std::move(output),
                                           std::move(snapshot), out, err);
    }
    const auto record =
        measure_synthetic(runtime, options.run, options.workspaces.value_or(prediction::default_workspaces()));
    // Written whether or not the measurement succeeded: after a failure (out
    // of memory above all) is when it is wanted.
    const int code = finish_memory_snapshot(runtime, command, std::move(snapshot), err);
    if (!record) {
      return report_failure(command, record.error(), err);
    }
    const std::string json =
        boost::json::serialize(report::to_json(*record, output.path().filename().string())) + "\n";
    if (const int written = commit_output(command, std::move(output), json, err); written != exit_success) {
      return written;
    }
    report::write_text(out, *record);
    out << "wrote " << escaped(options.output) << '\n';
    return code;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_GPU_COMMANDS_HPP
