#ifndef ITERAGPU_CORE_HPP
#define ITERAGPU_CORE_HPP

// Every public header that needs neither Boost nor LibTorch.
#include "iteragpu/catalog.hpp"
#include "iteragpu/estimate.hpp"
#include "iteragpu/forfait.hpp"
#include "iteragpu/money.hpp"
#include "iteragpu/units.hpp"
#include "iteragpu/version.hpp"

#endif  // ITERAGPU_CORE_HPP
