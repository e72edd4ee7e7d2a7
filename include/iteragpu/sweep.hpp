#ifndef ITERAGPU_SWEEP_HPP
#define ITERAGPU_SWEEP_HPP

/// \file
/// Sweeps of the synthetic network, with no dependency (target
/// iteragpu::iteragpu): the plan of points, their processes and scheduler,
/// outcomes, progress, and the summary with its SVG and HTML pictures.
#include "iteragpu/sweep/html.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/new_folder.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/prediction_runner.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/stop.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"

#endif  // ITERAGPU_SWEEP_HPP
