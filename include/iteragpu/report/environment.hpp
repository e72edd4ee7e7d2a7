#ifndef ITERAGPU_REPORT_ENVIRONMENT_HPP
#define ITERAGPU_REPORT_ENVIRONMENT_HPP

#include <cstdint>
#include <optional>
#include <string>

#include <boost/json.hpp>

#include "iteragpu/environment.hpp"
#include "iteragpu/version.hpp"

namespace iteragpu::report {

[[nodiscard]] inline boost::json::value optional_json(const std::optional<std::string>& v) {
  return v ? boost::json::value(boost::json::string(*v)) : boost::json::value(nullptr);
}

[[nodiscard]] inline boost::json::value optional_json(const std::optional<std::uint64_t>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

[[nodiscard]] inline boost::json::object to_json(const environment_report& e) {
  boost::json::object o;
  o["library"] = {{"name", library_name}, {"version", library_version}};
  o["compiler"] = e.compiler;
  o["cxx_standard"] = e.cxx_standard;
  o["libtorch"] = {{"available", e.libtorch_available}, {"version", optional_json(e.libtorch_version)}};
  o["cuda_build"] = optional_json(e.build_of(gpu_platform::cuda));
  o["hip_build"] = optional_json(e.build_of(gpu_platform::hip));
  boost::json::array gpus;
  for (const auto& g : e.gpus) {
    gpus.push_back(boost::json::object{{"index", g.index.value},
                                       {"name", g.name},
                                       {"capability", g.capability},
                                       {"total_memory_bytes", g.total_memory_bytes}});
  }
  o["gpus"] = std::move(gpus);
  o["device"] = {{"requested", device_name(e.device.requested)},
                 {"available", e.device.available},
                 {"reason", optional_json(e.device.reason)},
                 {"name", optional_json(e.device.name)},
                 {"capability", optional_json(e.device.capability)},
                 {"free_memory_bytes", optional_json(e.device.free_memory_bytes)},
                 {"total_memory_bytes", optional_json(e.device.total_memory_bytes)}};
  o["notes"] = boost::json::array{driver_note};
  return o;
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_ENVIRONMENT_HPP
