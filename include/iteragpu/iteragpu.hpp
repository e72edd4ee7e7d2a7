#ifndef ITERAGPU_ITERAGPU_HPP
#define ITERAGPU_ITERAGPU_HPP

// Every public header that needs no LibTorch (link iteragpu::cli, which
// brings Boost.JSON and Boost.Program_options). iteragpu/core.hpp holds the
// part that needs nothing at all.
#include "iteragpu/core.hpp"

#include "iteragpu/cli/calcul_forfaits_command.hpp"
#include "iteragpu/cli/common.hpp"
#include "iteragpu/cli/dispatch.hpp"
#include "iteragpu/cli/estimate_command.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/estimate.hpp"
#include "iteragpu/report/quote.hpp"

#endif  // ITERAGPU_ITERAGPU_HPP
