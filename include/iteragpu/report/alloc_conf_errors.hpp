#ifndef ITERAGPU_REPORT_ALLOC_CONF_ERRORS_HPP
#define ITERAGPU_REPORT_ALLOC_CONF_ERRORS_HPP

#include <string>

#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Words for a refused PYTORCH_CUDA_ALLOC_CONF text: one line naming the key,
/// the offending value and what is accepted.
namespace iteragpu::report {

/// One line saying why the allocator settings text was refused and what is accepted.
[[nodiscard]] std::string describe(const memory::prediction::alloc_conf_error& e);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/alloc_conf_errors.ipp"
#endif

#endif  // ITERAGPU_REPORT_ALLOC_CONF_ERRORS_HPP
