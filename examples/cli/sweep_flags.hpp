#ifndef ITERAGPU_CLI_SWEEP_FLAGS_HPP
#define ITERAGPU_CLI_SWEEP_FLAGS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/gpu_commands.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags of `mesure_memoire sweep`: its help, and the validated options
/// of its four forms (a new sweep, --plan-only, --run-point, --resume).
namespace iteragpu::cli {

/// The usage lines of `mesure_memoire sweep`, before its flags in --help.
inline constexpr std::string_view sweep_usage =
    "usage: mesure_memoire sweep (--device cuda:N | --devices LIST | --predict-only) --output-dir NEW_DIR "
    "[--batch LIST] [--context LIST] [--width LIST] [--dtype LIST] [FLAGS]\n"
    "       mesure_memoire sweep --plan-only --output-dir NEW_DIR [LISTS]   writes points.tsv only\n"
    "       mesure_memoire sweep --run-point N --output-dir DIR (--device cuda:N | --predict-only)   one point "
    "(a job array's task)\n"
    "       mesure_memoire sweep --resume DIR (--device cuda:N | --devices LIST | --predict-only)   the points "
    "without a result\n";

/// The flags of `mesure_memoire sweep`, with its help and its exit codes
/// (sweep_usage gives its four forms).
[[nodiscard]] inline po::options_description sweep_description() {
  po::options_description d(
      "mesure_memoire sweep: the synthetic network measured over lists of shapes, one fresh `measure` process per "
      "point, points that cannot fit skipped by prediction; summary.csv, plot.svg and index.html at the end. "
      "A LIST is comma-separated values or doubling ranges: 8,16 or 64..8192 (64, 128, ..., 8192). Exit 0 when the "
      "sweep ran to its end (skipped and failed points are results), 2 bad input, 1 a file that could not be "
      "written, 130 (SIGINT) or 143 (SIGTERM) when interrupted");
  d.add_options()                                                                                                    //
      ("device", text_value("cuda:N"), "the GPU, cuda:N: one point at a time")                                       //
      ("devices", text_value("LIST"), "several GPUs, cuda:0,cuda:1,...: one point at a time on each, concurrently")  //
      ("predict-only", po::bool_switch(), "no process and no GPU: every point's figures are predictions")            //
      ("output-dir", text_value("DIR"), "the sweep's folder: a new one (or, with --run-point, the planned one)")     //
      ("batch", text_value("LIST"), "LIST of batch sizes (default 1)")                                               //
      ("context", text_value("LIST"), "LIST of positions per input (default 16)")                                    //
      ("width", text_value("LIST"), "LIST of model widths (default 64)")                                             //
      ("dtype", text_value("LIST"), "comma-separated float32, float16, bfloat16 (default float32)")                  //
      ("warmup", text_value("N"), "warm-up passes of each point, 0 to 10000 (default 1)")                            //
      ("repeats", text_value("N"), "measured passes of each point, 1 to 10000 or auto (default 2)")                  //
      ("plan-only", po::bool_switch(), "write points.tsv and nothing else")                                          //
      ("run-point", text_value("N"),
       "run point N of the plan in --output-dir alone; a point with a result is left alone")        //
      ("resume", text_value("DIR"), "run the points of this sweep folder that have no result yet")  //
      ("memory-gib", text_value("X"),
       "with --predict-only: the card's usable memory in GiB, a decimal; points predicted not to fit are skipped "
       "(without it none is skipped for the device)")  //
      ("host-memory-gib", text_value("X"),
       "with --predict-only: the host's available memory in GiB for the host rule (without it, no host rule)")  //
      ("workspace-bytes", text_value("N"),
       "the GPU library workspaces the prediction assumes, in bytes (default 34603008: H200, PyTorch 2.11)")  //
      ("outside-bytes", text_value("N"),
       "the memory a measuring process takes outside the allocator, in bytes (default 718077952, measured on the "
       "H200)")  //
      ("point-program", text_value("FILE"),
       "the program run for each point as `PROGRAM measure ...` and `PROGRAM environment --device D` (default: this "
       "program)")  //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire sweep`.
struct sweep_options {
  /// Which of the command's four forms was given.
  enum class mode {
    full,                                          ///< a new folder: plan it, then run every point
    plan_only,                                     ///< --plan-only: write points.tsv and nothing else
    run_point,                                     ///< --run-point N: run one point of a planned folder
    resume                                         ///< --resume DIR: run the points of a folder that have no result yet
  } what{mode::full};                              ///< the form given
  std::filesystem::path folder;                    ///< --output-dir, or the folder of --resume
  sweep::sweep_axes axes;                          ///< the lists of full and plan_only; the others read points.tsv
  std::optional<std::size_t> point;                ///< --run-point
  bool predict_only{false};                        ///< --predict-only
  std::vector<device_index> devices;               ///< --device or --devices; empty with --predict-only
  bool devices_listed{false};                      ///< the devices came from --devices
  std::optional<std::uint64_t> memory_bytes;       ///< --memory-gib in whole bytes, rounded down; predictions only
  std::optional<std::uint64_t> host_memory_bytes;  ///< --host-memory-gib, as memory_bytes; predictions only
  /// --workspace-bytes, split as prediction::split_workspace_total() does.
  memory::prediction::blas_workspaces workspaces{memory::prediction::h200_pytorch_2_11};
  byte_count outside{memory::prediction::h200_pytorch_2_11_outside_allocator};  ///< --outside-bytes
  std::optional<std::string> program;  ///< --point-program; nothing: this program
};

namespace detail {

// Whole bytes of an amount of GiB, rounded down: a capacity never grows in
// the conversion.
[[nodiscard]] inline std::uint64_t gib_flag(const po::variables_map& values, std::string_view flag) {
  const exact_decimal gib = decimal_flag(flag, required_text(values, flag, "a decimal number of GiB"));
  const auto bytes = gib_to_bytes_rounded_down(gib);
  if (!bytes) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(required_text(values, flag, "")) +
                      " GiB passes 2^64 bytes; expected a smaller decimal");
  }
  if (bytes->value == 0) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(required_text(values, flag, "")) +
                      " is less than a byte; expected a positive decimal of GiB (such as 139.8)");
  }
  return bytes->value;
}

[[nodiscard]] inline std::vector<device_index> devices_flag(std::string_view text) {
  std::vector<device_index> devices;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const auto d = memory::parse_device(item);
    if (!d) {
      throw usage_error("--devices: " + quoted(item) + " in " + quoted(text) +
                        " is not accepted; expected comma-separated cuda:N, e.g. cuda:0,cuda:1");
    }
    if (std::find(devices.begin(), devices.end(), *d) != devices.end()) {
      throw usage_error("--devices: " + quoted(item) + " is given twice; expected each device once");
    }
    devices.push_back(*d);
    if (comma == std::string_view::npos) {
      return devices;
    }
    start = comma + 1;
  }
}

}  // namespace detail

namespace detail {

// Refuses every flag of `flags` given with `mode`, saying why.
inline void refuse_with(const po::variables_map& values, std::string_view mode,
                        std::initializer_list<std::string_view> flags, std::string_view why) {
  for (const auto flag : flags) {
    if (given(values, flag)) {
      throw usage_error("--" + std::string(flag) + " cannot be used with " + std::string(mode) + ": " +
                        std::string(why));
    }
  }
}

inline void refuse_plan_flags(const po::variables_map& values, std::string_view mode) {
  refuse_with(values, mode, {"batch", "context", "width", "dtype", "warmup", "repeats"},
              "the plan is read from the folder's points.tsv");
}

// The mode, the folder and the point of --run-point.
inline void parse_mode(const po::variables_map& values, sweep_options& o) {
  const int modes =
      (given(values, "plan-only") ? 1 : 0) + (given(values, "run-point") ? 1 : 0) + (given(values, "resume") ? 1 : 0);
  if (modes > 1) {
    throw usage_error("--plan-only, --run-point and --resume are exclusive; expected at most one of them");
  }
  if (given(values, "plan-only")) {
    o.what = sweep_options::mode::plan_only;
    refuse_with(values, "--plan-only",
                {"device", "devices", "predict-only", "memory-gib", "host-memory-gib", "workspace-bytes",
                 "outside-bytes", "point-program"},
                "it writes the plan only; give the flags of a run to --run-point or --resume");
  } else if (given(values, "run-point")) {
    o.what = sweep_options::mode::run_point;
    refuse_plan_flags(values, "--run-point");
    refuse_with(values, "--run-point", {"devices"}, "one point runs on one device; give --device");
    o.point = integer_flag("run-point", required_text(values, "run-point", "a point index"), 0, accepted_non_negative);
  } else if (given(values, "resume")) {
    o.what = sweep_options::mode::resume;
    refuse_plan_flags(values, "--resume");
    refuse_with(values, "--resume", {"output-dir"}, "the folder is the one given to --resume");
    o.folder = required_text(values, "resume", "the folder of a sweep");
    return;
  }
  o.folder = required_text(values, "output-dir",
                           o.what == sweep_options::mode::run_point ? "the folder of a planned sweep"
                                                                    : "a new folder for the sweep's files");
}

[[nodiscard]] inline std::vector<std::uint64_t> size_list_flag(const po::variables_map& values, std::string_view flag,
                                                               std::string_view fallback) {
  auto parsed = sweep::parse_size_list(optional_text(values, flag, fallback));
  if (!parsed.has_value()) {
    throw usage_error("--" + std::string(flag) + ": " + report::words_of(parsed.error()) + "; expected " +
                      std::string(sweep::accepted_size_list));
  }
  return std::move(*parsed);
}

[[nodiscard]] inline sweep::sweep_axes axes_flags(const po::variables_map& values) {
  sweep::sweep_axes axes;
  axes.batch = size_list_flag(values, "batch", "1");
  axes.context = size_list_flag(values, "context", "16");
  axes.width = size_list_flag(values, "width", "64");
  auto dtypes = sweep::parse_dtype_list(optional_text(values, "dtype", "float32"));
  if (!dtypes.has_value()) {
    throw usage_error("--dtype: " + report::words_of(dtypes.error()) + "; expected " +
                      std::string(sweep::accepted_dtype_list));
  }
  axes.dtype = std::move(*dtypes);
  axes.warmup = warmup_flag(optional_text(values, "warmup", "1"));
  auto repeats = sweep::parse_repeats(optional_text(values, "repeats", "2"));
  if (!repeats.has_value()) {
    throw usage_error("--repeats: " + report::words_of(repeats.error()));
  }
  axes.repeats = *repeats;
  return axes;
}

// Predictions or devices.
inline void parse_target(const po::variables_map& values, sweep_options& o) {
  o.predict_only = given(values, "predict-only");
  if (given(values, "device") && given(values, "devices")) {
    throw usage_error("--device and --devices are exclusive; expected one of them");
  }
  if (o.predict_only) {
    refuse_with(values, "--predict-only", {"device", "devices", "point-program"},
                "no process runs and no device is used");
    return;
  }
  refuse_with(values, "a device", {"memory-gib", "host-memory-gib"},
              "the device's free memory and the host's available memory are read before each point; these are for "
              "--predict-only");
  if (given(values, "devices")) {
    o.devices = devices_flag(required_text(values, "devices", "cuda:0,cuda:1,..."));
    o.devices_listed = true;
  } else if (given(values, "device")) {
    o.devices = {device_flag(required_text(values, "device", accepted_device))};
  } else {
    throw usage_error("--device, --devices or --predict-only is required; expected " + std::string(accepted_device) +
                      ", a list of them, or --predict-only to run nothing");
  }
}

[[nodiscard]] inline std::uint64_t bytes_flag(const po::variables_map& values, std::string_view flag) {
  return integer_flag(flag, required_text(values, flag, accepted_non_negative), 0, accepted_non_negative);
}

// The figures the rules use, and the program that runs the points.
inline void parse_settings(const po::variables_map& values, sweep_options& o) {
  if (given(values, "memory-gib")) {
    o.memory_bytes = gib_flag(values, "memory-gib");
  }
  if (given(values, "host-memory-gib")) {
    o.host_memory_bytes = gib_flag(values, "host-memory-gib");
  }
  if (given(values, "workspace-bytes")) {
    o.workspaces = workspace_total_flag(required_text(values, "workspace-bytes", accepted_workspace_total));
  }
  if (given(values, "outside-bytes")) {
    o.outside = byte_count{bytes_flag(values, "outside-bytes")};
  }
  if (given(values, "point-program")) {
    o.program = required_text(values, "point-program", "the path of a program");
  }
}

}  // namespace detail

/// Validated options. Every combination that makes no sense is refused with
/// the flags named: a usage_error, as is a value that is not accepted.
[[nodiscard]] inline sweep_options parse_sweep_options(const po::variables_map& values) {
  sweep_options o;
  detail::parse_mode(values, o);
  if (o.what == sweep_options::mode::full || o.what == sweep_options::mode::plan_only) {
    o.axes = detail::axes_flags(values);
  }
  if (o.what == sweep_options::mode::plan_only) {
    return o;
  }
  detail::parse_target(values, o);
  detail::parse_settings(values, o);
  return o;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SWEEP_FLAGS_HPP
