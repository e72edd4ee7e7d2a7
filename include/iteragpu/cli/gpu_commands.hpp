#ifndef ITERAGPU_CLI_GPU_COMMANDS_HPP
#define ITERAGPU_CLI_GPU_COMMANDS_HPP

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "iteragpu/cli/common.hpp"
#include "iteragpu/device.hpp"
#include "iteragpu/environment.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/synthetic_model.hpp"

// `environment` and `measure`, written once over a GPU runtime: the program
// passes the LibTorch runtime (iteragpu/torch/runtime.hpp) or, in a build
// without LibTorch, one that can only say that no GPU is reachable.
namespace iteragpu::cli {

template <class R>
concept gpu_runtime = requires(device_index d) {
  { R::environment(d) } -> std::same_as<environment_report>;
};

template <class R>
concept measuring_runtime =
    gpu_runtime<R> && requires(element_type e, device_index d, const synthetic_shape& s, const protocol_plan& p) {
      { R::measure(e, d, s, p) } -> std::same_as<std::vector<phase_row>>;
    };

// The runtime of a build in which no GPU can be reached.
template <class Reason>
struct unavailable_runtime {
  [[nodiscard]] static environment_report environment(device_index d) {
    return probe_environment<unavailable_backend<Reason>>(d, std::nullopt);
  }
};

inline constexpr std::string_view accepted_device = "cuda:N with N a GPU index, e.g. cuda:0 (never cpu)";

[[nodiscard]] inline device_index device_flag(std::string_view text) {
  if (const auto d = parse_device(text)) {
    return *d;
  }
  throw usage_error("--device: " + quoted(text) + " is not accepted; expected " + std::string(accepted_device));
}

[[nodiscard]] inline std::filesystem::path new_file_flag(std::string_view flag, const std::string& text) {
  std::filesystem::path path(text);
  if (const auto problem = check_new_file(path)) {
    throw usage_error("--" + std::string(flag) + ": " + problem->message);
  }
  return path;
}

// Writes `text` to the new file or reports why not (exit 2, nothing written).
[[nodiscard]] inline int write_output(std::string_view command, const std::filesystem::path& path,
                                      const std::string& text, std::ostream& err) {
  if (const auto problem = write_new_file(path, text)) {
    err << command << ": --output: " << problem->message << '\n';
    return exit_usage;
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
      ("help", po::bool_switch(), "show this help");
  return d;
}

template <gpu_runtime Runtime>
[[nodiscard]] int run_environment(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire environment";
  return guarded(command, err, [&] {
    const auto description = environment_description();
    if (help_requested(args)) {
      out << description << '\n';
      return exit_success;
    }
    const auto values = parse_arguments(description, args);
    const device_index device = device_flag(optional_text(values, "device", "cuda:0"));
    std::optional<std::filesystem::path> output;
    if (values.count("output") != 0) {
      output = new_file_flag("output", required_text(values, "output", "a path to a new file"));
    }
    const std::string text = boost::json::serialize(report::to_json(Runtime::environment(device))) + "\n";
    if (output) {
      return write_output(command, *output, text, err);
    }
    out << text;
    return exit_success;
  });
}

// ---- measure -------------------------------------------------------------

struct measure_options {
  device_index device;
  synthetic_shape shape;
  element_type dtype{element_type::float32};
  protocol_plan plan;
  std::filesystem::path output;
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
      ("help", po::bool_switch(), "show this help");
  return d;
}

[[nodiscard]] inline measure_options parse_measure_options(const po::variables_map& values) {
  measure_options o;
  o.device = device_flag(required_text(values, "device", accepted_device));
  const auto integer = [&](std::string_view flag, std::string_view fallback, std::uint64_t minimum) {
    return integer_flag(flag, optional_text(values, flag, fallback), minimum,
                        minimum == 0 ? accepted_non_negative : accepted_positive);
  };
  o.shape.batch = integer("batch", "1", 1);
  o.shape.context = integer("context", "16", 1);
  o.shape.width = integer("width", "64", 1);
  const std::string dtype = optional_text(values, "dtype", "float32");
  const auto element = parse_element_type(dtype);
  if (!element) {
    throw usage_error("--dtype: " + quoted(dtype) + " is not accepted; expected float32, float16 or bfloat16");
  }
  o.dtype = *element;
  o.plan.warmup = integer("warmup", "1", 0);
  o.plan.repeats = integer("repeats", "2", 1);
  o.output = new_file_flag("output", required_text(values, "output", "a path to a new file"));
  return o;
}

[[nodiscard]] inline std::size_t bytes_per_element(element_type e) {
  return with_dtype(e, []<dtype_policy D>() { return D::bytes_per_element; });
}

inline void write_phase_table(std::ostream& out, const std::vector<phase_row>& rows) {
  out << std::left << std::setw(14) << "phase" << std::right << std::setw(7) << "repeat" << std::setw(13)
      << "seconds" << std::setw(13) << "gpu_seconds" << std::setw(15) << "base_alloc" << std::setw(15)
      << "base_reserved" << std::setw(15) << "end_alloc" << std::setw(15) << "end_reserved" << std::setw(15)
      << "peak_alloc" << std::setw(15) << "peak_reserved" << '\n';
  for (const auto& r : rows) {
    out << std::left << std::setw(14) << name_of(r.phase) << std::right << std::setw(7)
        << (r.repeat ? std::to_string(*r.repeat) : std::string("-")) << std::setw(13) << std::fixed
        << std::setprecision(6) << r.seconds << std::setw(13) << r.gpu_seconds << std::setw(15)
        << r.baseline_allocated_bytes << std::setw(15) << r.baseline_reserved_bytes << std::setw(15)
        << r.end_allocated_bytes << std::setw(15) << r.end_reserved_bytes << std::setw(15) << r.peak_allocated_bytes
        << std::setw(15) << r.peak_reserved_bytes << '\n';
  }
}

template <gpu_runtime Runtime>
[[nodiscard]] int run_measure(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire measure";
  return guarded(command, err, [&]() -> int {
    const auto description = measure_description();
    if (help_requested(args)) {
      out << description << '\n';
      return exit_success;
    }
    const measure_options options = parse_measure_options(parse_arguments(description, args));
    const auto model = summarise(options.shape, options.dtype, bytes_per_element(options.dtype));
    if (!model) {
      throw usage_error("--batch/--context/--width: the model or its activations would have more than 2^63-1 "
                        "elements or bytes; expected smaller positive integers");
    }
    report::measurement_record record;
    record.environment = Runtime::environment(options.device);
    if (!record.environment.device.available) {
      err << command << ": " << device_name(options.device)
          << " cannot be measured: " << record.environment.device.reason.value_or("unavailable")
          << "; nothing was measured and no file was written\n";
      return exit_usage;
    }
    if constexpr (measuring_runtime<Runtime>) {
      record.device = options.device;
      record.shape = options.shape;
      record.plan = options.plan;
      record.output_name = options.output.filename().string();
      record.model = *model;
      try {
        record.phases = Runtime::measure(options.dtype, options.device, options.shape, options.plan);
      } catch (const measurement_failure& e) {
        err << command << ": failed during phase " << name_of(e.phase()) << ": " << e.what()
            << "; no file was written\n";
        return exit_measurement;
      }
      const int written =
          write_output(command, options.output, boost::json::serialize(report::to_json(record)) + "\n", err);
      if (written == exit_success) {
        write_phase_table(out, record.phases);
        out << "wrote " << options.output.string() << '\n';
      }
      return written;
    } else {
      err << command << ": this build cannot measure; no file was written\n";
      return exit_usage;
    }
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_GPU_COMMANDS_HPP
