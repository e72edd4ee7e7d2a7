#ifndef ITERAGPU_ITERAGPU_HPP
#define ITERAGPU_ITERAGPU_HPP

/// \file
/// Every public header that needs neither LibTorch nor Boost.Program_options
/// (link iteragpu::json, which brings Boost.JSON for the reports and the
/// snapshot and measurement files). The LibTorch adapters (iteragpu/torch/, target
/// iteragpu::torch) are not part of it, and the programs' command line
/// (examples/cli/) is not part of the library. A test checks that every
/// public header is reached by the umbrellas it belongs to.
#include "iteragpu/core.hpp"                           // IWYU pragma: export
#include "iteragpu/io.hpp"                             // IWYU pragma: export
#include "iteragpu/json_keys.hpp"                      // IWYU pragma: export
#include "iteragpu/measurement.hpp"                    // IWYU pragma: export
#include "iteragpu/memory.hpp"                         // IWYU pragma: export
#include "iteragpu/memory/files/measurement_file.hpp"  // IWYU pragma: export
#include "iteragpu/memory/files/memory_need_file.hpp"  // IWYU pragma: export
#include "iteragpu/memory/files/pickle.hpp"            // IWYU pragma: export
#include "iteragpu/memory/files/snapshot.hpp"          // IWYU pragma: export
#include "iteragpu/memory/files/snapshot_file.hpp"     // IWYU pragma: export
#include "iteragpu/nvml.hpp"                           // IWYU pragma: export
#include "iteragpu/parse.hpp"                          // IWYU pragma: export
#include "iteragpu/prediction.hpp"                     // IWYU pragma: export
#include "iteragpu/pricing.hpp"                        // IWYU pragma: export
#include "iteragpu/report.hpp"                         // IWYU pragma: export
#include "iteragpu/sweep.hpp"                          // IWYU pragma: export
#include "iteragpu/sweep/files/folder.hpp"             // IWYU pragma: export
#include "iteragpu/sweep/files/record.hpp"             // IWYU pragma: export
#include "iteragpu/sweep/files/report_files.hpp"       // IWYU pragma: export
#include "iteragpu/traces.hpp"                         // IWYU pragma: export

#endif  // ITERAGPU_ITERAGPU_HPP
