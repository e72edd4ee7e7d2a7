#ifndef ITERAGPU_REPORT_TORCHSCRIPT_HPP
#define ITERAGPU_REPORT_TORCHSCRIPT_HPP

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"

/// \file
/// A TorchScript module's measurement as JSON (data/schema/measurement.schema.json,
/// `workload.kind` "torchscript") and as text, and the words for what is
/// wrong with an input spec or a file that is not a TorchScript archive.
namespace iteragpu::report {

/// What stands where the synthetic network's prediction stands: nothing
/// predicts an arbitrary module.
inline constexpr std::string_view no_torchscript_prediction =
    "no prediction for a TorchScript module; replay its --memory-snapshot with `mesure_memoire replay`";

/// What an input spec looks like, as messages say it.
inline constexpr std::string_view accepted_input_spec =
    "SIZExSIZE...:DTYPE with positive sizes, e.g. 8x512:int64 or 16x3x224x224:float32; dtypes float32, float16, "
    "bfloat16, float64, int64, int32, int16, int8, uint8";

/// What is wrong with an input spec, in words (the offset is a 0-based column).
[[nodiscard]] inline std::string describe(const memory::input_spec_error& e) {
  const std::string at = " at column " + std::to_string(e.offset + 1);
  switch (e.problem) {
    case memory::input_spec_problem::empty:
      return "is empty";
    case memory::input_spec_problem::no_dtype:
      return "has no ':DTYPE'";
    case memory::input_spec_problem::bad_size:
      return "has a size that is not a positive integer" + at;
    case memory::input_spec_problem::unknown_dtype:
      return "has an unknown dtype" + at;
    case memory::input_spec_problem::too_many_elements:
      return "has more than 2^63-1 elements or bytes";
  }
  return "is not an input spec";
}

/// Why a file is not a TorchScript archive (or, for `format`
/// aoti_package, not an AOTInductor package), in words.
[[nodiscard]] inline std::string describe(const memory::archive_error& e,
                                          model_format format = model_format::torchscript) {
  const std::string kind = format == model_format::torchscript ? "a TorchScript archive" : "an AOTInductor package";
  switch (e.problem) {
    case memory::archive_problem::not_a_zip:
      return "is not " + kind + " (not a zip file)";
    case memory::archive_problem::no_end_record:
      return "is not " + kind + " (a zip file without its central directory: cut short?)";
    case memory::archive_problem::bad_central_directory:
      return "is not " + kind + " (its zip directory is damaged at byte " + std::to_string(e.offset) + ")";
    case memory::archive_problem::weights_only:
      return "holds weights saved by torch.save, not a module saved by torch.jit.save";
    case memory::archive_problem::not_torchscript:
      return "is a zip file without a data.pkl record, not a TorchScript archive";
    case memory::archive_problem::not_aoti_package:
      return "is a zip file without a data/aotinductor/ entry, not an AOTInductor package";
  }
  return "is not " + kind;
}

/// The inputs as written, joined by spaces.
[[nodiscard]] inline std::string inputs_text(const std::vector<memory::input_spec>& inputs) {
  std::string text;
  for (const auto& spec : inputs) {
    text += (text.empty() ? "" : " ") + memory::to_string(spec);
  }
  return text;
}

/// The workload object: kind "torchscript" (or "aoti_package"), the file's name and SHA-256, the inputs,
/// train, input_high.
[[nodiscard]] inline boost::json::object workload_json(const torchscript_run& run) {
  boost::json::array inputs;
  for (const auto& spec : run.inputs) {
    inputs.emplace_back(memory::to_string(spec));
  }
  return {{"kind", run.format == model_format::torchscript ? "torchscript" : "aoti_package"},
          {"file", run.file_name}, {"sha256", run.sha256},
          {"inputs", std::move(inputs)}, {"train", run.train},  {"input_high", run.input_high}};
}

/// The record as JSON; `output_name` is the result file's name, without its folder.
[[nodiscard]] inline boost::json::object to_json(const torchscript_record& m, std::string_view output_name) {
  boost::json::object o;
  o["schema_version"] = measurement_schema_version;
  o["environment"] = to_json(m.environment);
  o["workload"] = workload_json(m.run);
  boost::json::object configuration{{"device", device_name(m.run.device)}};
  add_plan(configuration, m.run.plan);
  configuration["output"] = output_name;
  o["configuration"] = std::move(configuration);
  o["synthetic_model"] = nullptr;
  boost::json::array phases;
  for (const auto& row : m.phases) {
    phases.push_back(to_json(row));
  }
  o["phases"] = std::move(phases);
  o["statistics"] = statistics_json(m.statistics, m.stopped_by);
  o["prediction"] = nullptr;
  o["allocator_settings"] = allocator_settings_json(m.allocator_settings);
  o["memory_outside_allocator_bytes"] = optional_json(memory_outside_allocator(m.phases), nullptr);
  o["memory_need"] = to_json(need_of(m.phases));
  o["notes"] = boost::json::array{device_used_note, no_torchscript_prediction};
  return o;
}

/// The measurement for people: the module, the rows, the GPU's state, the statistics, the memory
/// outside the allocator, and in place of a prediction the line that says there is none.
inline void write_text(std::ostream& out, const torchscript_record& m) {
  out << (m.run.format == model_format::torchscript ? "TorchScript module " : "AOTInductor package ")
      << escaped(m.run.file_name) << " (sha256 " << m.run.sha256 << "), inputs "
      << inputs_text(m.run.inputs) << (m.run.train ? ", training (forward and backward)" : ", inference") << '\n';
  write_measured(out, m.phases, m.stopped_by, m.statistics);
  out << "prediction: " << no_torchscript_prediction << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_TORCHSCRIPT_HPP
