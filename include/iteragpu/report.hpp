#ifndef ITERAGPU_REPORT_HPP
#define ITERAGPU_REPORT_HPP

/// \file
/// The reports (target iteragpu::json): typed values rendered as text and
/// JSON, and the words of every error enum.
#include "iteragpu/report/alloc_conf_errors.hpp"  // IWYU pragma: export
#include "iteragpu/report/catalog.hpp"            // IWYU pragma: export
#include "iteragpu/report/catalog_errors.hpp"     // IWYU pragma: export
#include "iteragpu/report/compare.hpp"            // IWYU pragma: export
#include "iteragpu/report/environment.hpp"        // IWYU pragma: export
#include "iteragpu/report/estimate.hpp"           // IWYU pragma: export
#include "iteragpu/report/fit.hpp"                // IWYU pragma: export
#include "iteragpu/report/gpu_state.hpp"          // IWYU pragma: export
#include "iteragpu/report/measure_failure.hpp"    // IWYU pragma: export
#include "iteragpu/report/measurement.hpp"        // IWYU pragma: export
#include "iteragpu/report/memory_need.hpp"        // IWYU pragma: export
#include "iteragpu/report/need_input.hpp"         // IWYU pragma: export
#include "iteragpu/report/plan.hpp"               // IWYU pragma: export
#include "iteragpu/report/quote.hpp"              // IWYU pragma: export
#include "iteragpu/report/replay.hpp"             // IWYU pragma: export
#include "iteragpu/report/snapshot_errors.hpp"    // IWYU pragma: export
#include "iteragpu/report/statistics.hpp"         // IWYU pragma: export
#include "iteragpu/report/sweep_errors.hpp"       // IWYU pragma: export
#include "iteragpu/report/torchscript.hpp"        // IWYU pragma: export

#endif  // ITERAGPU_REPORT_HPP
