#ifndef ITERAGPU_SWEEP_FILES_IMPL_PROCESS_RUNNER_IPP
#define ITERAGPU_SWEEP_FILES_IMPL_PROCESS_RUNNER_IPP

#include <csignal>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/files/process_runner.hpp"

// The bodies of the functions that <iteragpu/sweep/files/process_runner.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep::detail {

[[nodiscard]] ITERAGPU_INLINE result<device_reading, std::string> device_in_output(std::string_view output,
                                                                                   device_index d) {
  boost::system::error_code ec;
  const auto doc = boost::json::parse(output, ec);
  if (ec) {
    return unexpected{"`environment` printed no JSON: " + ec.message()};
  }
  auto reading = files::device_from(doc);
  if (!reading.has_value()) {
    return unexpected{device_name(d) + " cannot be measured: " + report::words_of(reading.error())};
  }
  return *reading;
}

}  // namespace iteragpu::sweep::detail

#endif  // ITERAGPU_SWEEP_FILES_IMPL_PROCESS_RUNNER_IPP
