#ifndef ITERAGPU_REPORT_ENVIRONMENT_HPP
#define ITERAGPU_REPORT_ENVIRONMENT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/environment.hpp"
#include "iteragpu/report/gpu_state.hpp"
#include "iteragpu/version.hpp"

/// \file
/// The environment report as JSON (data/schema/environment.schema.json).
namespace iteragpu::report {

/// What the management section holds and what it leaves out, as the JSON notes it.
inline constexpr std::string_view management_note =
    "management is NVML's report (libnvidia-ml.so.1, loaded at run time), with the driver version that "
    "nvidia-smi prints; null where NVML is not there; no UUID, serial number or other identifier is read";

/// The text, or JSON null.
[[nodiscard]] boost::json::value optional_json(const std::optional<std::string>& v);

/// The number, or JSON null.
[[nodiscard]] boost::json::value optional_json(const std::optional<std::uint64_t>& v);

/// The environment report as JSON (data/schema/environment.schema.json).
[[nodiscard]] boost::json::object to_json(const memory::environment_report& e);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/environment.ipp"
#endif

#endif  // ITERAGPU_REPORT_ENVIRONMENT_HPP
