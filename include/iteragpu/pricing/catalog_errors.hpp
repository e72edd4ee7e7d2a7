#ifndef ITERAGPU_PRICING_CATALOG_ERRORS_HPP
#define ITERAGPU_PRICING_CATALOG_ERRORS_HPP

#include <string>

#include "iteragpu/pricing/catalog.hpp"

/// \file
/// Words for a refused catalog, beside the catalog whose errors they word:
/// one line naming the file, the line and column, what was found there and
/// what is accepted.
namespace iteragpu::pricing {

/// What was found at the error's position, in words (`days '14'`).
[[nodiscard]] std::string found_words(const catalog_error& e);

/// What is accepted there, in words (`3, 7 or 30 (days of a package)`).
[[nodiscard]] std::string expected_words(const catalog_error& e);

/// `FILE:LINE:COLUMN: what was found; expected what is accepted`, one line
/// of displayable text whatever the file held (found text is quoted and cut
/// by quoted_excerpt()).
[[nodiscard]] std::string describe(const catalog_error& e);

}  // namespace iteragpu::pricing

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/pricing/impl/catalog_errors.ipp"
#endif

#endif  // ITERAGPU_PRICING_CATALOG_ERRORS_HPP
