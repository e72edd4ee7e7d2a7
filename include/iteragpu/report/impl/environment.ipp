#ifndef ITERAGPU_REPORT_IMPL_ENVIRONMENT_IPP
#define ITERAGPU_REPORT_IMPL_ENVIRONMENT_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/environment.hpp"

// The bodies of the functions that <iteragpu/report/environment.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::environment_report& e) {
  boost::json::object o;
  o["library"] = {{"name", library_name}, {"version", library_version}};
  o["compiler"] = e.compiler;
  o["cxx_standard"] = e.cxx_standard;
  o["libtorch"] = {{"available", e.libtorch_available}, {"version", optional_json(e.libtorch_version)}};
  o["cuda_build"] = optional_json(e.build_of(memory::gpu_platform::cuda));
  o["hip_build"] = optional_json(e.build_of(memory::gpu_platform::hip));
  boost::json::array gpus;
  for (const auto& g : e.gpus) {
    gpus.push_back(boost::json::object{{"index", g.index.value},
                                       {"name", g.name},
                                       {"capability", g.capability},
                                       {"total_memory_bytes", g.total_memory_bytes}});
  }
  o["gpus"] = std::move(gpus);
  o["device"] = {{"requested", memory::device_name(e.device.requested)},
                 {"available", e.device.available},
                 {"reason", optional_json(e.device.reason)},
                 {"name", optional_json(e.device.name)},
                 {"capability", optional_json(e.device.capability)},
                 {"free_memory_bytes", optional_json(e.device.free_memory_bytes)},
                 {"total_memory_bytes", optional_json(e.device.total_memory_bytes)}};
  if (e.management) {
    const auto& m = *e.management;
    const auto reading = [](const auto& r) { return r ? boost::json::value(*r) : boost::json::value(nullptr); };
    boost::json::object management{{"driver_version", reading(m.driver_version)},
                                   {"nvml_version", reading(m.nvml_version)}};
    if (!m.driver_version) {
      management["unavailable"] = describe(m.driver_version.error());
    }
    boost::json::array facts;
    for (std::size_t i = 0; i < m.gpus.size(); ++i) {
      const auto& f = m.gpus[i];
      const auto mode = [](const memory::gpu_reading<memory::enablement>& r) {
        return r ? boost::json::value(memory::name_of(*r)) : boost::json::value(nullptr);
      };
      facts.push_back(
          {{"index", i},
           {"persistence_mode", mode(f.persistence_mode)},
           {"mig_mode", mode(f.mig_mode)},
           {"ecc_mode", mode(f.ecc_mode)},
           {"power_limit_mw", f.power_limit ? boost::json::value(f.power_limit->value) : boost::json::value(nullptr)},
           {"max_sm_clock_mhz",
            f.max_sm_clock ? boost::json::value(f.max_sm_clock->value) : boost::json::value(nullptr)},
           {"max_memory_clock_mhz",
            f.max_memory_clock ? boost::json::value(f.max_memory_clock->value) : boost::json::value(nullptr)}});
    }
    management["gpus"] = std::move(facts);
    o["management"] = std::move(management);
  } else {
    o["management"] = nullptr;
  }
  o["notes"] = boost::json::array{memory::driver_note, management_note};
  return o;
}

}  // namespace iteragpu::report

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_json(const std::optional<std::string>& v) {
  return v ? boost::json::value(boost::json::string(*v)) : boost::json::value(nullptr);
}

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_json(const std::optional<std::uint64_t>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_ENVIRONMENT_IPP
