#ifndef ITERAGPU_CLI_GPU_COMMANDS_HPP
#define ITERAGPU_CLI_GPU_COMMANDS_HPP

#include <cstdint>
#include <filesystem>
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

#include "iteragpu/cli/common.hpp"
#include "iteragpu/device.hpp"
#include "iteragpu/gpu_runtime.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/synthetic_measurement.hpp"
#include "iteragpu/text.hpp"

// `environment` and `measure`, written once over a GPU runtime object: the
// program passes LibTorch's (iteragpu/torch/runtime.hpp) or, in a build
// without LibTorch, iteragpu::unavailable_runtime. Each is parse -> library
// call -> render -> write.
namespace iteragpu::cli {

inline constexpr std::string_view accepted_device = "cuda:N with N a GPU index, e.g. cuda:0 (never cpu)";

[[nodiscard]] inline device_index device_flag(std::string_view text) {
  if (const auto d = parse_device(text)) {
    return *d;
  }
  throw usage_error("--device: " + quoted(text) + " is not accepted; expected " + std::string(accepted_device));
}

// Reserves the new file named by `--flag` before any work, or refuses it
// (exit 2, nothing written).
[[nodiscard]] inline new_file reserve_output(std::string_view flag, const std::string& text) {
  auto reserved = new_file::reserve(std::filesystem::path(text));
  if (!reserved) {
    throw usage_error("--" + std::string(flag) + ": " + reserved.error().message);
  }
  return std::move(*reserved);
}

// Writes the reserved file. What fails now (a full disk) is no bad input:
// exit 1, and nothing is left at the name.
[[nodiscard]] inline int commit_output(std::string_view command, new_file&& file, std::string_view text,
                                       std::ostream& err) {
  if (auto written = std::move(file).commit(text); !written) {
    err << command << ": --output: " << written.error().message << "; nothing was written\n";
    return exit_internal_error;
  }
  return exit_success;
}

// ---- environment ---------------------------------------------------------

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
    std::optional<new_file> output;
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

struct measure_options {
  synthetic_run run;
  std::string output;
};

[[nodiscard]] inline po::options_description measure_description() {
  po::options_description d(
      "mesure_memoire measure: memory and time of the synthetic network Linear(width -> 4*width) -> GELU -> "
      "Linear(4*width -> width), phase by phase, on one GPU (inference only)");
  d.add_options()                                                                                         //
      ("device", text_value(), "the GPU, cuda:N (required; the CPU is never used as a fallback)")        //
      ("batch", text_value(), "input batch, a positive integer (default 1)")                              //
      ("context", text_value(), "positions per input, a positive integer (default 16; no attention)")     //
      ("width", text_value(), "model width, a positive integer (default 64; hidden = 4 x width)")         //
      ("dtype", text_value(), "float32, float16 or bfloat16 for weights and inputs (default float32)")    //
      ("warmup", text_value(), "warm-up passes, 0 or more, measured together (default 1)")                //
      ("repeats", text_value(), "measured passes after the warm-up, 1 or more (default 2)")               //
      ("output", text_value(), "the JSON result, a new file (required; never overwritten)")               //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

[[nodiscard]] inline element_type dtype_flag(std::string_view text) {
  const auto element = parse_element_type(text);
  if (!element) {
    throw usage_error("--dtype: " + quoted(text) + " is not accepted; expected float32, float16 or bfloat16");
  }
  return *element;
}

// Validated options; the output file is not touched here.
[[nodiscard]] inline measure_options parse_measure_options(const po::variables_map& values) {
  measure_options o;
  o.run.device = device_flag(required_text(values, "device", accepted_device));
  const auto integer = [&](std::string_view flag, std::string_view fallback, std::uint64_t minimum) {
    return integer_flag(flag, optional_text(values, flag, fallback), minimum,
                        minimum == 0 ? accepted_non_negative : accepted_positive);
  };
  o.run.shape.batch = integer("batch", "1", 1);
  o.run.shape.context = integer("context", "16", 1);
  o.run.shape.width = integer("width", "64", 1);
  o.run.dtype = dtype_flag(optional_text(values, "dtype", "float32"));
  o.run.plan.warmup = integer("warmup", "1", 0);
  o.run.plan.repeats = integer("repeats", "2", 1);
  o.output = required_text(values, "output", "a path to a new file");
  return o;
}

inline void write_phase_table(std::ostream& out, const std::vector<phase_row>& rows) {
  out << std::left << std::setw(14) << "phase" << std::right << std::setw(7) << "repeat" << std::setw(13)
      << "seconds" << std::setw(13) << "gpu_seconds" << std::setw(15) << "base_alloc" << std::setw(15)
      << "base_reserved" << std::setw(15) << "end_alloc" << std::setw(15) << "end_reserved" << std::setw(15)
      << "peak_alloc" << std::setw(15) << "peak_reserved" << '\n';
  for (const auto& r : rows) {
    out << std::left << std::setw(14) << name_of(r.phase) << std::right << std::setw(7)
        << (r.repeat ? to_decimal_string(*r.repeat) : std::string("-")) << std::setw(13) << std::fixed
        << std::setprecision(6) << r.seconds << std::setw(13) << r.gpu_seconds << std::setw(15)
        << r.baseline_allocated_bytes << std::setw(15) << r.baseline_reserved_bytes << std::setw(15)
        << r.end_allocated_bytes << std::setw(15) << r.end_reserved_bytes << std::setw(15) << r.peak_allocated_bytes
        << std::setw(15) << r.peak_reserved_bytes << '\n';
  }
}

// The exit code and the one-line message of a measurement that did not
// happen or did not finish.
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
    // Whatever can fail about the output fails now, before the first phase.
    new_file output = reserve_output("output", options.output);
    const auto record = measure_synthetic(runtime, options.run);
    if (!record) {
      return report_failure(command, record.error(), err);
    }
    const std::string json =
        boost::json::serialize(report::to_json(*record, output.path().filename().string())) + "\n";
    if (const int written = commit_output(command, std::move(output), json, err); written != exit_success) {
      return written;
    }
    write_phase_table(out, record->phases);
    out << "wrote " << escaped(options.output) << '\n';
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_GPU_COMMANDS_HPP
