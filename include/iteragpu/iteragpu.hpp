#ifndef ITERAGPU_ITERAGPU_HPP
#define ITERAGPU_ITERAGPU_HPP

/// \file
/// Every public header that needs neither LibTorch nor Boost.Program_options
/// (link iteragpu::json, which brings Boost.JSON for the reports). The
/// command lines of the example programs (iteragpu/cli/, target
/// iteragpu::cli) and the LibTorch adapters (iteragpu/torch/, target
/// iteragpu::torch) are not part of it. A test checks that every public
/// header is reached by the umbrellas it belongs to.
#include "iteragpu/core.hpp"
#include "iteragpu/measurement.hpp"

#include "iteragpu/memory/files/pickle.hpp"
#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"

#include "iteragpu/report/alloc_conf_errors.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/estimate.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/report/json_keys.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/report/need_input.hpp"
#include "iteragpu/report/plan.hpp"
#include "iteragpu/report/statistics.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/report/snapshot_errors.hpp"
#include "iteragpu/report/torchscript.hpp"

#endif  // ITERAGPU_ITERAGPU_HPP
