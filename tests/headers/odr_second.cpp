// The second TU of the ODR test: every torch-free header again.
#include "odr_all_headers.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "odr_addresses.hpp"

odr_view view_from_second() {
  const std::vector<std::string> args{"--parameters", "7000000000", "--bits", "16", "--json"};
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_estimate(args, out, err);
  return {&iteragpu::memory::not_included_in_estimate, &iteragpu::library_version, &iteragpu::cli::accepted_positive,
          std::to_string(code) + " " + out.str() + err.str()};
}
