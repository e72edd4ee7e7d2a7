#ifndef ITERAGPU_REPORT_CATALOG_ERRORS_HPP
#define ITERAGPU_REPORT_CATALOG_ERRORS_HPP

#include "iteragpu/pricing/catalog_errors.hpp"

/// \file
/// The words of a refused catalog under their earlier name: they live
/// beside the catalog, in iteragpu/pricing/catalog_errors.hpp; include that.
namespace iteragpu::report {

using pricing::describe;        ///< The catalog's words, pricing::describe().
using pricing::expected_words;  ///< pricing::expected_words().
using pricing::found_words;     ///< pricing::found_words().

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_CATALOG_ERRORS_HPP
