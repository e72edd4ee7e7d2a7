#ifndef ITERAGPU_CORE_HPP
#define ITERAGPU_CORE_HPP

// The arithmetic core, with no dependency (target iteragpu::iteragpu): the
// weight estimate, exact decimals and units, money, the package catalog and
// its quotes, the error model, text and files.
#include "iteragpu/catalog.hpp"
#include "iteragpu/estimate.hpp"
#include "iteragpu/fit.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/memory_rule.hpp"
#include "iteragpu/money.hpp"
#include "iteragpu/package.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"
#include "iteragpu/version.hpp"

#endif  // ITERAGPU_CORE_HPP
