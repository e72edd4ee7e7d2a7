#ifndef ITERAGPU_TESTS_ODR_ADDRESSES_HPP
#define ITERAGPU_TESTS_ODR_ADDRESSES_HPP

#include <string>

// What each TU of the ODR test reports: the addresses of inline variables
// as that TU sees them (one object each in a correct program), and the
// output of an inline function instantiated in both.
struct odr_view {
  const void* exclusions{nullptr};
  const void* version{nullptr};
  const void* accepted_positive{nullptr};
  std::string estimate_json;
};

[[nodiscard]] odr_view view_from_first();
[[nodiscard]] odr_view view_from_second();

#endif  // ITERAGPU_TESTS_ODR_ADDRESSES_HPP
