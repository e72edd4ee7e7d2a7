// The first TU of the ODR test, and its main: both TUs include every
// torch-free header, so a header that defines a non-inline function or
// variable fails to link, and one that gives an inline variable internal
// linkage shows two addresses.
#include "odr_all_headers.hpp"

#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "odr_addresses.hpp"

odr_view view_from_first() {
  const std::vector<std::string> args{"--parameters", "7000000000", "--bits", "16", "--json"};
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_estimate(args, out, err);
  return {&iteragpu::memory::not_included_in_estimate, &iteragpu::library_version, &iteragpu::cli::accepted_positive,
          std::to_string(code) + " " + out.str() + err.str()};
}

int check_one_definition() {
  const odr_view first = view_from_first();
  const odr_view second = view_from_second();
  int failures = 0;
  const auto expect = [&failures](bool ok, const char* what) {
    if (!ok) {
      std::cerr << "odr test: " << what << '\n';
      ++failures;
    }
  };
  expect(first.exclusions == second.exclusions, "not_included_in_estimate has two addresses");
  expect(first.version == second.version, "library_version has two addresses");
  expect(first.accepted_positive == second.accepted_positive, "cli::accepted_positive has two addresses");
  expect(first.estimate_json == second.estimate_json, "run_estimate differs between the two TUs");
  expect(first.estimate_json.find(R"("weight_gib":"13.03851604461669921875")") != std::string::npos,
         "run_estimate did not print the 7e9 x 16 bit estimate");
  return failures == 0 ? 0 : 1;
}

int main() {
  try {
    return check_one_definition();
  } catch (const std::exception& e) {
    std::cerr << "odr test: " << e.what() << '\n';
    return 1;
  }
}
