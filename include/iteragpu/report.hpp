#ifndef ITERAGPU_REPORT_HPP
#define ITERAGPU_REPORT_HPP

/// \file
/// The reports (target iteragpu::json): typed values rendered as text and
/// JSON, and the words of every error enum.
#include "iteragpu/report/alloc_conf_errors.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/catalog_errors.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/estimate.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/report/gpu_state.hpp"
#include "iteragpu/report/measure_failure.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/report/need_input.hpp"
#include "iteragpu/report/new_file.hpp"
#include "iteragpu/report/plan.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/report/snapshot_errors.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/report/statistics.hpp"
#include "iteragpu/report/torchscript.hpp"

#endif  // ITERAGPU_REPORT_HPP
