#ifndef ITERAGPU_ITERAGPU_HPP
#define ITERAGPU_ITERAGPU_HPP

/// \file
/// Every public header that needs neither LibTorch nor Boost.Program_options
/// (link iteragpu::json, which brings Boost.JSON for the reports and the
/// snapshot and measurement files). The LibTorch adapters (iteragpu/torch/, target
/// iteragpu::torch) are not part of it, and the programs' command line
/// (examples/cli/) is not part of the library. A test checks that every
/// public header is reached by the umbrellas it belongs to.
#include "iteragpu/core.hpp"
#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/pricing.hpp"
#include "iteragpu/measurement.hpp"
#include "iteragpu/memory.hpp"
#include "iteragpu/sweep.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/memory/files/memory_need_file.hpp"
#include "iteragpu/memory/files/pickle.hpp"
#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"
#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/files/report_files.hpp"
#include "iteragpu/report.hpp"

#endif  // ITERAGPU_ITERAGPU_HPP
