#ifndef ITERAGPU_SWEEP_HPP
#define ITERAGPU_SWEEP_HPP

/// \file
/// Sweeps of the synthetic network, with no dependency (target
/// iteragpu::iteragpu): the plan of points, their processes and scheduler,
/// outcomes, progress, and the summary with its SVG and HTML pictures.
#include "iteragpu/sweep/html.hpp"               // IWYU pragma: export
#include "iteragpu/sweep/lists.hpp"              // IWYU pragma: export
#include "iteragpu/sweep/new_folder.hpp"         // IWYU pragma: export
#include "iteragpu/sweep/outcome.hpp"            // IWYU pragma: export
#include "iteragpu/sweep/points.hpp"             // IWYU pragma: export
#include "iteragpu/sweep/prediction_runner.hpp"  // IWYU pragma: export
#include "iteragpu/sweep/process.hpp"            // IWYU pragma: export
#include "iteragpu/sweep/progress.hpp"           // IWYU pragma: export
#include "iteragpu/sweep/scheduler.hpp"          // IWYU pragma: export
#include "iteragpu/sweep/stop.hpp"               // IWYU pragma: export
#include "iteragpu/sweep/summary.hpp"            // IWYU pragma: export
#include "iteragpu/sweep/svg.hpp"                // IWYU pragma: export

#endif  // ITERAGPU_SWEEP_HPP
