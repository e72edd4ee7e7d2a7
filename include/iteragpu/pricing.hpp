#ifndef ITERAGPU_PRICING_HPP
#define ITERAGPU_PRICING_HPP

/// \file
/// The pricing domain, with no dependency (target iteragpu::iteragpu):
/// money, the rental catalog (offers in a snapshot), package quotes, the
/// packages that hold a memory need, and the memory rule of thumb; and the
/// words of a refused catalog, beside the catalog.
#include "iteragpu/memory_need.hpp"             // IWYU pragma: export
#include "iteragpu/pricing/catalog.hpp"         // IWYU pragma: export
#include "iteragpu/pricing/catalog_errors.hpp"  // IWYU pragma: export
#include "iteragpu/pricing/catalog_fault.hpp"   // IWYU pragma: export
#include "iteragpu/pricing/fit.hpp"             // IWYU pragma: export
#include "iteragpu/pricing/memory_rule.hpp"     // IWYU pragma: export
#include "iteragpu/pricing/money.hpp"           // IWYU pragma: export
#include "iteragpu/pricing/package.hpp"         // IWYU pragma: export
#include "iteragpu/pricing/text_position.hpp"   // IWYU pragma: export

#endif  // ITERAGPU_PRICING_HPP
