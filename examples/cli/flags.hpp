#ifndef ITERAGPU_CLI_FLAGS_HPP
#define ITERAGPU_CLI_FLAGS_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags that describe a measurement, shared by `measure`, `plan` and
/// `sweep`: the device, the passes, the element type, the workspaces, and a
/// flag that may repeat.
namespace iteragpu::cli {

/// What `--device` accepts, as messages say it.
inline constexpr std::string_view accepted_device = "cuda:N with N a GPU index, e.g. cuda:0 (never cpu)";

/// The device of `--device`, or a usage_error naming the flag.
[[nodiscard]] inline device_index device_flag(std::string_view text) {
  if (const auto d = memory::parse_device(text)) {
    return *d;
  }
  throw usage_error("--device: " + quoted(text) + " is not accepted; expected " + std::string(accepted_device));
}

/// A flag that may be repeated, each word kept as text in order (a
/// std::vector<std::string>): Boost's typed_value of a vector trips GCC 12's
/// -Wnull-dereference, as its typed_value<std::string> does.
class text_list_value : public po::value_semantic_codecvt_helper<char> {
 public:
  /// A value the help shows as `value_name` (see text_value()).
  explicit text_list_value(std::string_view value_name) : value_name_(value_name) {}
  /// The argument's name in the help.
  [[nodiscard]] std::string name() const override { return value_name_; }
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

 private:
  std::string value_name_;
};

/// A repeatable flag whose words are kept in order (text_list_value).
[[nodiscard]] inline const po::value_semantic* text_list(std::string_view value_name) {
  return new text_list_value(value_name);
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
inline constexpr std::string_view accepted_repeat_count = "an integer from 1 to 10000, the most passes a command runs";
/// What `--workspace-bytes` accepts, as messages say it (prediction::largest_workspace_total).
inline constexpr std::string_view accepted_workspace_total =
    "a non-negative integer up to 1152921504607895551 (2^60 + 1 MiB - 1: from there the cuBLAS workspace is a "
    "request the caching allocator refuses)";
static_assert(memory::pass_limit == 10'000, "accepted_warmup and accepted_repeat_count quote pass_limit");
static_assert(memory::prediction::largest_workspace_total.value == 1'152'921'504'607'895'551U,
              "accepted_workspace_total quotes largest_workspace_total");

/// `--warmup`: 0 to pass_limit passes, or a usage_error naming the flag.
[[nodiscard]] inline std::uint64_t warmup_flag(std::string_view text) {
  return integer_flag("warmup", text, 0, accepted_warmup, memory::pass_limit);
}

/// `--workspace-bytes` split as prediction::split_workspace_total() does, or
/// a usage_error naming the flag for a total whose workspaces cannot be allocated.
[[nodiscard]] inline memory::prediction::blas_workspaces workspace_total_flag(std::string_view text) {
  return memory::prediction::split_workspace_total(byte_count{integer_flag(
      "workspace-bytes", text, 0, accepted_workspace_total, memory::prediction::largest_workspace_total.value)});
}

/// The element type of `--dtype`, or a usage_error naming the flag.
[[nodiscard]] inline memory::element_type dtype_flag(std::string_view text) {
  const auto element = memory::parse_element_type(text);
  if (!element) {
    throw usage_error("--dtype: " + quoted(text) + " is not accepted; expected float32, float16 or bfloat16");
  }
  return *element;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_FLAGS_HPP
