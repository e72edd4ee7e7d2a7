#ifndef ITERAGPU_REPORT_IMPL_TORCHSCRIPT_IPP
#define ITERAGPU_REPORT_IMPL_TORCHSCRIPT_IPP

#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/torchscript.hpp"

// The bodies of the functions that <iteragpu/report/torchscript.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::input_spec_error& e) {
  const std::string at = " at column " + std::to_string(e.offset + 1);
  switch (e.code) {
    case memory::input_spec_errc::empty:
      return "is empty";
    case memory::input_spec_errc::no_dtype:
      return "has no ':DTYPE'";
    case memory::input_spec_errc::bad_size:
      return "has a size that is not a positive integer" + at;
    case memory::input_spec_errc::unknown_dtype:
      return "has an unknown dtype" + at;
    case memory::input_spec_errc::too_many_elements:
      return "has more than 2^63-1 elements or bytes";
  }
  return "is not an input spec";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::archive_error& e, memory::model_format format) {
  const std::string kind =
      format == memory::model_format::torchscript ? "a TorchScript archive" : "an AOTInductor package";
  switch (e.code) {
    case memory::archive_errc::not_a_zip:
      return "is not " + kind + " (not a zip file)";
    case memory::archive_errc::no_end_record:
      return "is not " + kind + " (a zip file without its central directory: cut short?)";
    case memory::archive_errc::bad_central_directory:
      return "is not " + kind + " (its zip directory is damaged at byte " + std::to_string(e.offset) + ")";
    case memory::archive_errc::weights_only:
      return "holds weights saved by torch.save, not a module saved by torch.jit.save";
    case memory::archive_errc::not_torchscript:
      return "is a zip file without a data.pkl record, not a TorchScript archive";
    case memory::archive_errc::not_aoti_package:
      return "is a zip file without a data/aotinductor/ entry, not an AOTInductor package";
  }
  return "is not " + kind;
}

[[nodiscard]] ITERAGPU_INLINE std::string inputs_text(const std::vector<memory::input_spec>& inputs) {
  std::string text;
  for (const auto& spec : inputs) {
    text += (text.empty() ? "" : " ") + memory::to_string(spec);
  }
  return text;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object workload_json(const memory::torchscript_run& run) {
  boost::json::array inputs;
  for (const auto& spec : run.inputs) {
    inputs.emplace_back(memory::to_string(spec));
  }
  return {{"kind", run.format == memory::model_format::torchscript ? "torchscript" : "aoti_package"},
          {"file", run.file_name},
          {"sha256", run.sha256},
          {"inputs", std::move(inputs)},
          {"train", run.train},
          {"input_high", run.input_high}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::torchscript_record& m,
                                                          std::string_view output_name,
                                                          std::string_view no_prediction) {
  boost::json::object o;
  o["schema_version"] = measurement_schema_version;
  o["environment"] = to_json(m.environment);
  o["workload"] = workload_json(m.run);
  boost::json::object configuration{{"device", memory::device_name(m.run.device)}};
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
  o["memory_outside_allocator_bytes"] = optional_json(memory::memory_outside_allocator(m.phases), nullptr);
  o["memory_need"] = to_json(need_of(m.phases));
  o["notes"] = boost::json::array{device_used_note, no_prediction};
  return o;
}

ITERAGPU_INLINE void write_text(std::ostream& out, const memory::torchscript_record& m,
                                std::string_view no_prediction) {
  out << (m.run.format == memory::model_format::torchscript ? "TorchScript module " : "AOTInductor package ")
      << escaped(m.run.file_name) << " (sha256 " << m.run.sha256 << "), inputs " << inputs_text(m.run.inputs)
      << (m.run.train ? ", training (forward and backward)" : ", inference") << '\n';
  write_measured(out, m.phases, m.stopped_by, m.statistics);
  out << "prediction: " << no_prediction << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_TORCHSCRIPT_IPP
