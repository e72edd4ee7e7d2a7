#ifndef ITERAGPU_REPORT_IMPL_MEASUREMENT_IPP
#define ITERAGPU_REPORT_IMPL_MEASUREMENT_IPP

#include <iomanip>
#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/measurement.hpp"

// The bodies of the functions that <iteragpu/report/measurement.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::object byte_fields_json(const phase_row& row) {
  boost::json::object o;
  o["phase"] = name_of(row.phase);
  o["repeat"] = row.repeat ? boost::json::value(*row.repeat) : boost::json::value(nullptr);
  const auto fields = memory::prediction::byte_fields(row);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    o[memory::prediction::byte_field_names[i]] = fields[i];
  }
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const phase_row& row) {
  boost::json::object o;
  o["phase"] = name_of(row.phase);
  o["repeat"] = row.repeat ? boost::json::value(*row.repeat) : boost::json::value(nullptr);
  o["seconds"] = row.seconds;
  o["gpu_seconds"] = row.gpu_seconds;
  const auto fields = memory::prediction::byte_fields(row);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    o[memory::prediction::byte_field_names[i]] = fields[i];
  }
  o["baseline_device_used_bytes"] = optional_json(row.baseline_device_used_bytes, nullptr);
  o["end_device_used_bytes"] = optional_json(row.end_device_used_bytes, nullptr);
  o["gpu_state"] = to_json(row.state_at_end);
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::prediction::prediction_check& check) {
  boost::json::object o;
  o["workspaces"] = workspaces_json(check.workspaces);
  if (check.predicted) {
    boost::json::array rows;
    for (const auto& row : *check.predicted) {
      rows.push_back(byte_fields_json(row));
    }
    o["rows"] = std::move(rows);
    o["failure"] = nullptr;
  } else {
    o["rows"] = nullptr;
    o["failure"] = check.predicted.error().message;
  }
  boost::json::array differences;
  for (const auto& row : check.differences) {
    boost::json::array fields;
    for (const auto& d : row) {
      fields.push_back({{"field", memory::prediction::byte_field_names[d.field]},
                        {"measured", d.measured},
                        {"predicted", d.predicted},
                        {"difference", d.signed_difference()}});
    }
    differences.push_back(std::move(fields));
  }
  o["differences"] = std::move(differences);
  o["exact_rows"] = check.exact_rows;
  o["rows_compared"] = check.differences.size();
  o["observed_workspace_bytes"] = optional_json(check.observed_workspace_bytes, nullptr);
  boost::json::array not_modelled;
  for (const auto item : memory::prediction::not_modelled) {
    not_modelled.emplace_back(item);
  }
  o["not_modelled"] = std::move(not_modelled);
  return o;
}

ITERAGPU_INLINE void add_plan(boost::json::object& configuration, const protocol_plan& plan) {
  configuration["warmup"] = plan.warmup;
  if (plan.until) {
    const auto& p = plan.until->parameters();
    configuration["repeats"] = "auto";
    configuration["stopping"] = {{"min_repeats", p.min_repeats},
                                 {"max_repeats", p.max_repeats},
                                 {"max_noise", p.max_noise},
                                 {"max_seconds", p.max_seconds.count()},
                                 {"series", "gpu_seconds of warm_forward"},
                                 {"clock", "host steady clock from the start of the first warm_forward"}};
  } else {
    configuration["repeats"] = plan.repeats;
    configuration["stopping"] = nullptr;
  }
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object statistics_json(
    const memory::warm_statistics& statistics, const std::optional<memory::stop_reason>& stopped_by) {
  return {
      {"warm_forward", {{"seconds", to_json(statistics.seconds)}, {"gpu_seconds", to_json(statistics.gpu_seconds)}}},
      {"percentile_method", percentile_method},
      {"median_ci_method", median_interval_method},
      {"noise_thresholds", noise_thresholds_json()},
      {"repeats_with_gpu_state", statistics.repeats_with_state},
      {"repeats_under_throttling", statistics.repeats_under_throttling},
      {"stopped_by", stopped_by ? boost::json::value(name_of(*stopped_by)) : boost::json::value(nullptr)}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::value allocator_settings_json(
    const std::optional<std::vector<memory::allocator_setting>>& settings) {
  if (!settings) {
    return nullptr;
  }
  boost::json::object o;
  for (const auto& s : *settings) {
    o[s.name] = s.value;
  }
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::measurement_record& m,
                                                          std::string_view output_name) {
  boost::json::object o;
  o["schema_version"] = measurement_schema_version;
  o["environment"] = to_json(m.environment);
  boost::json::object configuration{{"device", memory::device_name(m.run.device)},
                                    {"batch", m.run.shape.batch},
                                    {"context", m.run.shape.context},
                                    {"width", m.run.shape.width},
                                    {"hidden", m.model.hidden},
                                    {"dtype", name_of(m.model.dtype)}};
  add_plan(configuration, m.run.plan);
  configuration["output"] = output_name;
  o["configuration"] = std::move(configuration);
  boost::json::array layers;
  for (const auto& layer : m.model.layers) {
    layers.emplace_back(layer);
  }
  o["synthetic_model"] = {{"layers", std::move(layers)},
                          {"width", m.model.width},
                          {"hidden", m.model.hidden},
                          {"parameters", m.model.parameters},
                          {"parameter_bytes", m.model.parameter_bytes},
                          {"dtype", name_of(m.model.dtype)}};
  boost::json::array phases;
  for (const auto& row : m.phases) {
    phases.push_back(to_json(row));
  }
  o["phases"] = std::move(phases);
  o["statistics"] = statistics_json(m.statistics, m.stopped_by);
  o["prediction"] = to_json(m.prediction);
  o["allocator_settings"] = allocator_settings_json(m.allocator_settings);
  o["memory_outside_allocator_bytes"] = optional_json(memory::memory_outside_allocator(m.phases), nullptr);
  o["memory_need"] = to_json(need_of(m.phases));
  o["notes"] = boost::json::array{device_used_note};
  return o;
}

ITERAGPU_INLINE void write_phase_table(std::ostream& out, const std::vector<phase_row>& rows) {
  out << std::left << std::setw(14) << "phase" << std::right << std::setw(7) << "repeat" << std::setw(13) << "seconds"
      << std::setw(13) << "gpu_seconds" << std::setw(15) << "base_alloc" << std::setw(15) << "base_reserved"
      << std::setw(15) << "end_alloc" << std::setw(15) << "end_reserved" << std::setw(15) << "peak_alloc"
      << std::setw(15) << "peak_reserved" << '\n';
  for (const auto& r : rows) {
    out << std::left << std::setw(14) << name_of(r.phase) << std::right << std::setw(7)
        << (r.repeat ? to_decimal_string(*r.repeat) : std::string("-")) << std::setw(13) << std::fixed
        << std::setprecision(6) << r.seconds << std::setw(13) << r.gpu_seconds << std::setw(15)
        << r.baseline_allocated_bytes << std::setw(15) << r.baseline_reserved_bytes << std::setw(15)
        << r.end_allocated_bytes << std::setw(15) << r.end_reserved_bytes << std::setw(15) << r.peak_allocated_bytes
        << std::setw(15) << r.peak_reserved_bytes << '\n';
  }
}

ITERAGPU_INLINE void write_state_table(std::ostream& out, const std::vector<phase_row>& rows) {
  bool any = false;
  for (const auto& r : rows) {
    any = any || r.state_at_end.has_value();
  }
  if (!any) {
    return;
  }
  out << "GPU state at the end of each phase (NVML):\n"
      << std::left << std::setw(14) << "phase" << std::right << std::setw(7) << "repeat" << std::setw(9) << "sm_MHz"
      << std::setw(9) << "mem_MHz" << std::setw(9) << "power_W" << std::setw(7) << "temp_C" << "  throttle\n";
  const auto cell = [](const auto& reading, auto value) { return reading ? value(*reading) : std::string("-"); };
  for (const auto& r : rows) {
    if (!r.state_at_end) {
      continue;
    }
    const auto& s = *r.state_at_end;
    std::string reasons = "-";
    if (s.clock_events) {
      reasons.clear();
      for (const auto& name : s.clock_events->names()) {
        reasons += (reasons.empty() ? "" : ",") + name;
      }
      reasons = reasons.empty() ? "none" : reasons;
    }
    out << std::left << std::setw(14) << name_of(r.phase) << std::right << std::setw(7)
        << (r.repeat ? to_decimal_string(*r.repeat) : std::string("-")) << std::setw(9)
        << cell(s.sm_clock, [](memory::megahertz m) { return std::to_string(m.value); }) << std::setw(9)
        << cell(s.memory_clock, [](memory::megahertz m) { return std::to_string(m.value); }) << std::setw(9)
        << cell(s.power_draw, [](memory::milliwatts m) { return std::to_string(m.value / 1000U); }) << std::setw(7)
        << cell(s.temperature, [](memory::degrees_celsius c) { return std::to_string(c.value); }) << "  " << reasons
        << '\n';
  }
}

ITERAGPU_INLINE void write_prediction_line(std::ostream& out, const memory::prediction::prediction_check& check,
                                           const std::vector<phase_row>& rows) {
  if (!check.predicted) {
    out << "prediction: none (" << escaped(check.predicted.error().message) << ")\n";
    return;
  }
  const std::size_t total = check.differences.size();
  if (check.exact_rows == total) {
    out << "prediction: exact in " << check.exact_rows << " of " << total << " rows\n";
    return;
  }
  out << "prediction: exact in " << check.exact_rows << " of " << total << " rows; differs in";
  std::size_t shown = 0;
  for (std::size_t i = 0; i < total && shown < 4; ++i) {
    if (check.differences[i].empty()) {
      continue;
    }
    out << (shown == 0 ? " " : "; ") << name_of(rows[i].phase)
        << (rows[i].repeat ? " " + to_decimal_string(*rows[i].repeat) : "");
    for (const auto& d : check.differences[i]) {
      const auto diff = d.signed_difference();
      out << ' ' << memory::prediction::byte_field_names[d.field] << ' ' << (diff > 0 ? "+" : "") << diff;
    }
    ++shown;
  }
  out << (total - check.exact_rows > shown ? "; ..." : "") << " (measured minus predicted bytes)\n";
}

ITERAGPU_INLINE void write_measured(std::ostream& out, const std::vector<phase_row>& phases,
                                    const std::optional<memory::stop_reason>& stopped_by,
                                    const memory::warm_statistics& statistics) {
  write_phase_table(out, phases);
  write_state_table(out, phases);
  out << "warm_forward statistics (noisy above " << memory::noisy_above_percent << " % IQR/median, very noisy above "
      << memory::very_noisy_above_percent << " %):\n";
  write_summary(out, "seconds    ", statistics.seconds);
  write_summary(out, "gpu_seconds", statistics.gpu_seconds);
  if (stopped_by) {
    out << "  repeats: " << statistics.seconds.value_or(memory::sample_summary{}).count << ", stopped by "
        << name_of(*stopped_by) << '\n';
  }
  if (statistics.repeats_with_state > 0) {
    out << "  repeats under a throttle reason other than gpu_idle: " << statistics.repeats_under_throttling << " of "
        << statistics.repeats_with_state << '\n';
  }
  if (const auto outside = memory_outside_allocator(phases)) {
    out << "memory outside the allocator: " << *outside
        << " bytes (device used minus reserved, whole GPU: CUDA context, libraries, other processes)\n";
  }
}

ITERAGPU_INLINE void write_text(std::ostream& out, const memory::measurement_record& m) {
  write_measured(out, m.phases, m.stopped_by, m.statistics);
  write_prediction_line(out, m.prediction, m.phases);
}

}  // namespace iteragpu::report

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_json(const std::optional<std::uint64_t>& v, std::nullptr_t) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object workspaces_json(const memory::prediction::blas_workspaces& w) {
  return {{"cublas_bytes", w.cublas.value}, {"cublaslt_bytes", w.cublaslt.value}};
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_MEASUREMENT_IPP
