#ifndef ITERAGPU_PRICING_HPP
#define ITERAGPU_PRICING_HPP

/// \file
/// The pricing domain, with no dependency (target iteragpu::iteragpu):
/// money, the rental catalog (offers in a snapshot), package quotes, the
/// packages that hold a memory need, and the memory rule of thumb; and the
/// words of a refused catalog (report/catalog_errors.hpp, which needs no
/// dependency either).
#include "iteragpu/memory_need.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/catalog_fault.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/pricing/money.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/pricing/text_position.hpp"
#include "iteragpu/report/catalog_errors.hpp"

#endif  // ITERAGPU_PRICING_HPP
