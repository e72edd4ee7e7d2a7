#ifndef ITERAGPU_REPORT_DETAIL_DATA_OF_HPP
#define ITERAGPU_REPORT_DETAIL_DATA_OF_HPP

#include "iteragpu/one_of.hpp"

/// \file
/// iteragpu::data_of() (one_of.hpp), under the name the report's words
/// first read it by.
namespace iteragpu::report::detail {

using iteragpu::data_of;

}  // namespace iteragpu::report::detail

#endif  // ITERAGPU_REPORT_DETAIL_DATA_OF_HPP
