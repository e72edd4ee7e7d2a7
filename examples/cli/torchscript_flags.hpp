#ifndef ITERAGPU_CLI_TORCHSCRIPT_FLAGS_HPP
#define ITERAGPU_CLI_TORCHSCRIPT_FLAGS_HPP

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/common.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/sha256.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The flags of `measure --torchscript` and `measure --aoti`: the model's
/// file checked (without LibTorch, before any GPU is touched) and hashed,
/// its inputs parsed.
namespace iteragpu::cli {

/// What `--torchscript` accepts, as messages say it.
inline constexpr std::string_view accepted_torchscript = "a TorchScript file saved by torch.jit.save";
/// What `--aoti` accepts, as messages say it.
inline constexpr std::string_view accepted_aoti =
    "an AOTInductor package (.pt2) written by torch._inductor.aoti_compile_and_package";

/// The flag that names the file of a run, without its dashes.
[[nodiscard]] inline std::string_view model_flag(memory::model_format format) noexcept {
  return format == memory::model_format::torchscript ? "torchscript" : "aoti";
}

/// The usage_error for the file of `run`: its flag, its name, `why`, and what is expected.
[[nodiscard]] inline usage_error model_file_refused(const memory::torchscript_run& run, const std::string& why) {
  const bool aoti = run.format == memory::model_format::aoti_package;
  usage_error refused("--" + std::string(model_flag(run.format)) + ": " + iteragpu::quoted(run.path) + " " + why +
                      "; expected " + std::string(aoti ? accepted_aoti : accepted_torchscript));
  return refused;
}

/// The file of `--torchscript` (or `--aoti`), checked without LibTorch and
/// before any GPU is touched: a readable regular file with the layout of a
/// TorchScript archive (or an AOTInductor package), read only where the
/// layout is. Its name (without the folder) goes in `run`; its SHA-256 is
/// left to hash_model_file(), once the cheap checks have all passed (a
/// model of gigabytes takes seconds to hash).
inline void check_torchscript_file(memory::torchscript_run& run) {
  const std::filesystem::path path(run.path);
  const bool aoti = run.format == memory::model_format::aoti_package;
  const auto refuse = [&](const std::string& why) { throw model_file_refused(run, why); };
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
  const auto archive =
      aoti ? memory::check_aoti_package(read_at, size) : memory::check_torchscript_archive(read_at, size);
  if (!archive) {
    refuse(report::describe(archive.error(), run.format));
  }
  run.file_name = path.filename().string();
}

/// The SHA-256 of the file of `run`, in `run`; a usage_error naming the
/// file when it can no longer be read.
inline void hash_model_file(memory::torchscript_run& run) {
  std::ifstream file(std::filesystem::path(run.path), std::ios::binary);
  memory::sha256_hasher hasher;
  constexpr auto block = std::size_t{mebibyte};
  std::vector<std::uint8_t> bytes(block);
  while (file) {
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(block));  // NOLINT
    hasher.update(std::span<const std::uint8_t>(bytes.data(), static_cast<std::size_t>(file.gcount())));
  }
  if (!file.eof()) {
    throw model_file_refused(run, "cannot be read");
  }
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

/// The run of `--torchscript` (or `--aoti`, `format`), the flags of the synthetic network refused
/// beside it, then the file and the inputs checked, so that their mistakes are reported whatever else
/// is missing. The device and the plan are set by the caller.
[[nodiscard]] inline memory::torchscript_run torchscript_flags(const po::variables_map& values,
                                                               memory::model_format format) {
  for (const char* flag : {"batch", "context", "width", "dtype", "workspace-bytes"}) {
    if (given(values, flag)) {
      throw usage_error("--" + std::string(flag) +
                        " describes the synthetic network, not a TorchScript module; expected --input for each "
                        "input of forward");
    }
  }
  const bool aoti = format == memory::model_format::aoti_package;
  if (aoti && given(values, "torchscript")) {
    throw usage_error("--aoti and --torchscript: one model at a time; expected one of them");
  }
  if (aoti && given(values, "train")) {
    throw usage_error("--train: an AOTInductor package is compiled for inference; expected --torchscript FILE to "
                      "measure training");
  }
  memory::torchscript_run run;
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

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_TORCHSCRIPT_FLAGS_HPP
