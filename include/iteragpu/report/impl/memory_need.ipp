#ifndef ITERAGPU_REPORT_IMPL_MEMORY_NEED_IPP
#define ITERAGPU_REPORT_IMPL_MEMORY_NEED_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/memory_need.hpp"

// The bodies of the functions that <iteragpu/report/memory_need.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value to_json(const std::optional<memory_need>& need) {
  if (!need) {
    return nullptr;
  }
  return boost::json::object{{"bytes", need->bytes.value},
                             {"gib", to_gib(need->bytes).to_string()},
                             {"gb", to_gb(need->bytes).to_string()},
                             {"source", need->source}};
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_MEMORY_NEED_IPP
