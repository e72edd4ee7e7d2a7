#ifndef ITERAGPU_REPORT_MEASUREMENT_HPP
#define ITERAGPU_REPORT_MEASUREMENT_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "iteragpu/environment.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/synthetic_measurement.hpp"
#include "iteragpu/synthetic_model.hpp"

namespace iteragpu::report {

inline constexpr std::int64_t measurement_schema_version = 1;

[[nodiscard]] inline boost::json::object to_json(const phase_row& row) {
  boost::json::object o;
  o["phase"] = name_of(row.phase);
  o["repeat"] = row.repeat ? boost::json::value(*row.repeat) : boost::json::value(nullptr);
  o["seconds"] = row.seconds;
  o["gpu_seconds"] = row.gpu_seconds;
  o["baseline_allocated_bytes"] = row.baseline_allocated_bytes;
  o["baseline_reserved_bytes"] = row.baseline_reserved_bytes;
  o["end_allocated_bytes"] = row.end_allocated_bytes;
  o["end_reserved_bytes"] = row.end_reserved_bytes;
  o["peak_allocated_bytes"] = row.peak_allocated_bytes;
  o["peak_reserved_bytes"] = row.peak_reserved_bytes;
  return o;
}

// `output_name` is the result file's name, without its folder: no path of
// the user's is recorded.
[[nodiscard]] inline boost::json::object to_json(const measurement_record& m, std::string_view output_name) {
  boost::json::object o;
  o["schema_version"] = measurement_schema_version;
  o["environment"] = to_json(m.environment);
  o["configuration"] = {{"device", device_name(m.run.device)},
                        {"batch", m.run.shape.batch},
                        {"context", m.run.shape.context},
                        {"width", m.run.shape.width},
                        {"hidden", m.model.hidden},
                        {"dtype", name_of(m.model.dtype)},
                        {"warmup", m.run.plan.warmup},
                        {"repeats", m.run.plan.repeats},
                        {"output", output_name}};
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
  return o;
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_MEASUREMENT_HPP
