#ifndef ITERAGPU_CLI_PLAN_COMMAND_HPP
#define ITERAGPU_CLI_PLAN_COMMAND_HPP

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "cli/gpu_commands.hpp"
#include "iteragpu/memory/prediction/plan.hpp"
#include "iteragpu/report/plan.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// `mesure_memoire plan`: the prediction of every phase of a run, with no GPU.
namespace iteragpu::cli {

/// The flags of `mesure_memoire plan`, with its help.
[[nodiscard]] inline po::options_description plan_description() {
  po::options_description d(
      "mesure_memoire plan: every phase of a measurement of the synthetic network predicted to the byte, with no "
      "GPU (PyTorch 2.11's caching allocator simulated)");
  d.add_options()                                                                                     //
      ("batch", text_value("N"), "input batch, a positive integer (default 1)")                       //
      ("context", text_value("N"), "positions per input, a positive integer (default 16)")            //
      ("width", text_value("N"), "model width, a positive integer (default 64; hidden = 4 x width)")  //
      ("dtype", text_value("TYPE"), "float32, float16 or bfloat16 (default float32)")                 //
      ("warmup", text_value("N"), "warm-up passes, 0 to 10000 (default 1)")                           //
      ("repeats", text_value("N"), "measured passes, 1 to 10000 (default 2)")                         //
      ("workspace-bytes", text_value("N"),
       "the GPU library's workspace in bytes (default 34603008: cuBLAS 32 MiB + cuBLASLt 1 MiB, an H200 with "
       "PyTorch 2.11)")  //
      ("outside-bytes", text_value("N"),
       "the memory a measuring process takes outside the allocator, in bytes (default 718077952, measured on the "
       "H200)")  //
      ("memory-gib", text_value("X"),
       "a card's memory in GiB, a decimal: say whether the run fits, with the headroom")  //
      ("largest", text_value("AXIS"),
       "batch, context or width: the largest value that fits --memory-gib, the others fixed")  //
      ("json", po::bool_switch(), "print one JSON object instead of text")                     //
      ("help,h", po::bool_switch(), "show this help");
  return d;
}

/// The validated options of `mesure_memoire plan`.
struct plan_options {
  memory::prediction::plan_request request;                     ///< the run to predict
  std::optional<byte_count> memory{};                           ///< --memory-gib, rounded down to a whole byte
  std::optional<exact_decimal> memory_gib{};                    ///< --memory-gib as typed
  std::optional<memory::prediction::plan_dimension> largest{};  ///< --largest
  bool json{false};                                             ///< --json
};

/// Validated options, or a usage_error naming the flag.
[[nodiscard]] inline plan_options parse_plan_options(const po::variables_map& values) {
  plan_options o;
  const auto integer = [&](std::string_view flag, std::string_view fallback, std::uint64_t minimum) {
    return integer_flag(flag, optional_text(values, flag, fallback), minimum,
                        minimum == 0 ? accepted_non_negative : accepted_positive);
  };
  o.request.shape.batch = integer("batch", "1", 1);
  o.request.shape.context = integer("context", "16", 1);
  o.request.shape.width = integer("width", "64", 1);
  o.request.dtype = dtype_flag(optional_text(values, "dtype", "float32"));
  o.request.passes.warmup = warmup_flag(optional_text(values, "warmup", "1"));
  o.request.passes.repeats =
      integer_flag("repeats", optional_text(values, "repeats", "2"), 1, accepted_repeat_count, memory::pass_limit);
  // An H200's figures with PyTorch 2.11 unless the flags give the card's.
  o.request.workspaces = memory::prediction::h200_pytorch_2_11;
  if (given(values, "workspace-bytes")) {
    o.request.workspaces = workspace_total_flag(required_text(values, "workspace-bytes", accepted_workspace_total));
  }
  o.request.outside_allocator = memory::prediction::h200_pytorch_2_11_outside_allocator;
  if (given(values, "outside-bytes")) {
    o.request.outside_allocator = byte_count{integer("outside-bytes", "0", 0)};
  }
  if (given(values, "memory-gib")) {
    const std::string text = required_text(values, "memory-gib", "a decimal number of GiB");
    const exact_decimal typed = decimal_flag("memory-gib", text);
    const auto bytes = gib_to_bytes_rounded_down(typed);
    if (!bytes || bytes->value == 0) {
      throw usage_error("--memory-gib: " + quoted(text) +
                        " is not a memory size; expected a positive decimal of GiB below 2^34 (such as 139.8)");
    }
    o.memory = *bytes;
    o.memory_gib = typed;
  }
  if (given(values, "largest")) {
    const std::string text = required_text(values, "largest", "batch, context or width");
    o.largest = memory::prediction::parse_plan_dimension(text);
    if (!o.largest) {
      throw usage_error("--largest: " + quoted(text) + " is not accepted; expected batch, context or width");
    }
    if (!o.memory) {
      throw usage_error("--largest needs --memory-gib (the card the largest value must fit)");
    }
  }
  o.json = values["json"].as<bool>();
  return o;
}

/// `mesure_memoire plan`: the predicted rows and need, and with `--memory-gib` whether the run fits
/// (or with `--largest` the largest value that does), as text or JSON on `out`.
[[nodiscard]] inline int run_plan(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  constexpr std::string_view command = "mesure_memoire plan";
  return guarded(command, out, err, [&] {
    const auto description = plan_description();
    if (help_requested(args)) {
      out << "usage: mesure_memoire plan [--batch N] [--context N] [--width N] [--dtype TYPE] [--warmup N] "
             "[--repeats N] [--workspace-bytes N] [--outside-bytes N] [--memory-gib X [--largest AXIS]] [--json]\n"
          << description << '\n';
      return exit_success;
    }
    const auto options = parse_plan_options(parse_arguments(description, args));
    const auto& r = options.request;
    auto rows = memory::prediction::predict_synthetic(r.shape, r.dtype, r.workspaces, r.passes);
    if (!rows) {
      throw usage_error("--batch/--context/--width: " + rows.error().message + "; expected smaller positive integers");
    }
    report::plan_outcome outcome{r, std::move(*rows)};
    outcome.memory_gib = options.memory_gib;
    if (options.memory) {
      outcome.fit = memory::prediction::check_fit(r, *options.memory);
    }
    if (options.largest) {
      auto largest = memory::prediction::find_largest(r, *options.largest, *options.memory);
      if (!largest) {
        throw usage_error("--largest: every " + std::string(name_of(*options.largest)) +
                          " up to 2^62 fits; expected a --memory-gib the model can fill");
      }
      outcome.largest = *largest;
    }
    if (options.json) {
      out << boost::json::serialize(report::to_json(outcome)) << '\n';
    } else {
      report::write_text(out, outcome);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_PLAN_COMMAND_HPP
