#ifndef ITERAGPU_REPORT_CATALOG_HPP
#define ITERAGPU_REPORT_CATALOG_HPP

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The catalog as a table for people (every offer, one a line), and its GPU ids for messages.
namespace iteragpu::report {

/// The catalog's GPU ids in its order, comma-separated, as messages list them.
[[nodiscard]] std::string gpu_ids(const pricing::catalog& c);

/// The whole catalog as an aligned table, one package per line in the
/// order of the file: text columns left-aligned, numbers right-aligned.
/// `source` names the catalog as in write_text() of a quote.
void write_catalog_table(std::ostream& out, const pricing::catalog& c, std::string_view source);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/catalog.ipp"
#endif

#endif  // ITERAGPU_REPORT_CATALOG_HPP
