#ifndef ITERAGPU_CLI_MEASURE_COMMAND_HPP
#define ITERAGPU_CLI_MEASURE_COMMAND_HPP

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/documents.hpp"
#include "cli/flags.hpp"
#include "cli/measure_failures.hpp"
#include "cli/output.hpp"
#include "cli/torchscript_flags.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire measure`, written once over a GPU runtime object: the
/// synthetic network or a TorchScript module measured phase by phase, the
/// record written to a new file. Parse -> library call -> render -> write.
namespace iteragpu::cli {

/// The validated options of `mesure_memoire measure`.
struct measure_options {
  memory::synthetic_run run;                                        ///< device, shape, dtype and passes
  std::string output;                                               ///< the new file the record goes to
  std::optional<memory::prediction::blas_workspaces> workspaces{};  ///< --workspace-bytes
  std::optional<std::string> memory_snapshot{};  ///< --memory-snapshot: the new file the allocator's history goes to
  std::optional<memory::torchscript_run>
      torchscript{};  ///< --torchscript: a module of the user's instead of the synthetic network
};

/// The flags of `mesure_memoire measure`, with its help.
[[nodiscard]] inline po::options_description measure_description() {
  po::options_description d(
      "mesure_memoire measure: memory and time of the synthetic network Linear(width -> 4*width) -> GELU -> "
      "Linear(4*width -> width) (inference), or of a TorchScript module (--torchscript), phase by phase, on one GPU");
  d.add_options()                                                                                             //
      ("device", text_value("cuda:N"), "the GPU, cuda:N (required; the CPU is never used as a fallback)")     //
      ("batch", text_value("N"), "input batch, a positive integer (default 1)")                               //
      ("context", text_value("N"), "positions per input, a positive integer (default 16; no attention)")      //
      ("width", text_value("N"), "model width, a positive integer (default 64; hidden = 4 x width)")          //
      ("dtype", text_value("TYPE"), "float32, float16 or bfloat16 for weights and inputs (default float32)")  //
      ("warmup", text_value("N"), "warm-up passes, 0 to 10000, measured together (default 1)")                //
      ("repeats", text_value("N"),
       "measured passes after the warm-up: 1 to 10000, or auto (until the 95 % confidence interval of the median "
       "GPU time is within --max-noise of it; default 2)")                                                            //
      ("min-repeats", text_value("N"), "with --repeats auto: at least this many passes (default 10)")                 //
      ("max-repeats", text_value("N"), "with --repeats auto: at most this many passes, up to 10000 (default 10000)")  //
      ("max-noise", text_value("X"),
       "with --repeats auto: how far the interval may reach from the median, as a fraction of it (default 0.01)")  //
      ("max-seconds", text_value("X"),
       "with --repeats auto: stop once the repeats have taken this long (default 15)")  //
      ("workspace-bytes", text_value("N"),
       "the GPU library's workspace the prediction assumes, in bytes (default: what LibTorch reports, else the "
       "H200 figure 34603008)")  //
      ("memory-snapshot", text_value("NEW_FILE"),
       "also write PyTorch's allocator snapshot (a pickle for torch.cuda._memory_viz) to this new file, even when a "
       "phase fails (LibTorch 2.1 or newer)")  //
      ("torchscript", text_value("FILE"),
       "measure this TorchScript file (torch.jit.save) instead of the synthetic network; with --input")  //
      ("aoti", text_value("FILE"),
       "measure this AOTInductor package (.pt2, torch._inductor.aoti_compile_and_package) instead of the synthetic "
       "network, for inference; with --input; needs a build against LibTorch 2.6 or later")  //
      ("input", text_list("SPEC"),
       "with --torchscript or --aoti: one input of forward, in order, as SIZExSIZE...:DTYPE (e.g. 8x512:int64); repeat the "
       "flag for each input")  //
      ("train", po::bool_switch(),
       "with --torchscript: each pass is forward and backward of the sum of the floating outputs")  //
      ("input-high", text_value("N"),
       "with --torchscript or --aoti: integer inputs are uniform in [0, N) (default 2); floating inputs are standard normal")  //
      ("output", text_value("NEW_FILE"), "the JSON result, a new file (required; never overwritten)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// Validated options; the output file is not touched here.
[[nodiscard]] inline measure_options parse_measure_options(const po::variables_map& values) {
  measure_options o;
  if (given(values, "aoti")) {
    o.torchscript = torchscript_flags(values, memory::model_format::aoti_package);
  } else if (given(values, "torchscript")) {
    o.torchscript = torchscript_flags(values, memory::model_format::torchscript);
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
    memory::stopping_parameters p;
    const auto count = [&](std::string_view flag, std::string_view fallback) {
      return integer_flag(flag, optional_text(values, flag, fallback), 1, accepted_repeat_count, memory::pass_limit);
    };
    p.min_repeats = count("min-repeats", "10");
    p.max_repeats = count("max-repeats", "10000");
    p.max_noise = positive_decimal_flag(values, "max-noise", "0.01");
    p.max_seconds = std::chrono::duration<double>(positive_decimal_flag(values, "max-seconds", "15"));
    auto rule = memory::make_stopping_rule(p);
    if (!rule) {
      throw usage_error("--min-repeats/--max-repeats: " + std::string(describe(rule.error())) +
                        "; expected --max-repeats at least --min-repeats");
    }
    o.run.plan.until = *rule;
    o.run.plan.repeats = 0;
  } else {
    o.run.plan.repeats = integer_flag("repeats", repeats, 1,
                                      "an integer from 1 to 10000 (the most passes a command "
                                      "runs), or auto",
                                      memory::pass_limit);
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

/// Writes a measurement's record to the reserved file, then prints it with
/// the file's name: `code` (the snapshot's) when written, else the write's.
/// `words` go to the record's report (what a TorchScript record says in
/// place of a prediction).
template <class Measurement, class... Words>
[[nodiscard]] int write_record(const Measurement& record, const std::string& output_text, new_file&& output, int code,
                               std::ostream& out, std::ostream& err, const Words&... words) {
  const std::string json =
      boost::json::serialize(report::to_json(record, output.path().filename().string(), words...)) + "\n";
  if (const int written = commit_output("mesure_memoire measure", std::move(output), json, err);
      written != exit_success) {
    return written;
  }
  report::write_text(out, record, words...);
  out << "wrote " << escaped(output_text) << '\n';
  return code;
}

/// `measure --torchscript`: measures the module, writes the snapshot (unless
/// the module refused the user's input: then nothing is written), then the record.
template <memory::environment_runtime Runtime>
[[nodiscard]] int measure_torchscript_and_write(Runtime& runtime, const memory::torchscript_run& run,
                                                const std::string& output_text, new_file&& output,
                                                std::optional<new_file> snapshot, std::ostream& out,
                                                std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire measure";
  auto record = measure_torchscript(runtime, run);
  if (!record && record.error().code == memory::torchscript_errc::refused) {
    return report_failure(command, run, record.error(), err);
  }
  const int code = finish_memory_snapshot(runtime, command, std::move(snapshot), err);
  if (!record) {
    return report_failure(command, run, record.error(), err);
  }
  // Hashed last: on a machine without the device, a model of gigabytes is
  // refused in milliseconds, not after the seconds its hash takes.
  hash_model_file(record->run);
  return write_record(*record, output_text, std::move(output), code, out, err, no_torchscript_prediction);
}

/// `mesure_memoire measure`: measures the synthetic network on the runtime's GPU and writes the
/// record to a new file, after a failure too; the exit code says how it went (docs/conventions.md, "Exit codes").
template <memory::environment_runtime Runtime>
[[nodiscard]] int run_measure(Runtime& runtime, std::span<const std::string> args, std::ostream& out,
                              std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire measure";
  return guarded(command, out, err, [&]() -> int {
    const auto description = measure_description();
    if (help_requested(args)) {
      out << "usage: mesure_memoire measure --device cuda:N --output NEW_FILE [--batch N] [--context N] [--width N] "
             "[--dtype TYPE] [--warmup N] [--repeats N | --repeats auto [--min-repeats N] [--max-repeats N] "
             "[--max-noise X] [--max-seconds X]] [--workspace-bytes N] [--memory-snapshot NEW_FILE]\n"
             "       mesure_memoire measure --device cuda:N --output NEW_FILE (--torchscript FILE [--train] | --aoti FILE) "
             "--input SPEC... [--input-high N] [--warmup N] [--repeats ...] [--memory-snapshot NEW_FILE]\n"
          << description << '\n';
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
        measure_synthetic(runtime, options.run, options.workspaces.value_or(memory::prediction::h200_pytorch_2_11));
    // Written whether or not the measurement succeeded: after a failure (out
    // of memory above all) is when it is wanted.
    const int code = finish_memory_snapshot(runtime, command, std::move(snapshot), err);
    if (!record) {
      return report_failure(command, record.error(), err);
    }
    return write_record(*record, options.output, std::move(output), code, out, err);
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_MEASURE_COMMAND_HPP
