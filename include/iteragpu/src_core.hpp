#ifndef ITERAGPU_SRC_CORE_HPP
#define ITERAGPU_SRC_CORE_HPP

/// \file
/// The bodies of the core's functions (no dependency), compiled once:
/// every header of the core that has bodies. Include it in exactly one
/// translation unit of a program built with `ITERAGPU_SEPARATE_COMPILATION`
/// defined, before any other header of the library; CMake's
/// `iteragpu::compiled` is that translation unit, built (see config.hpp).

#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "<iteragpu/src_core.hpp> is for ITERAGPU_SEPARATE_COMPILATION; header-only use needs no source file"
#endif

#define ITERAGPU_SOURCE_CORE

#include "iteragpu/io.hpp"
#include "iteragpu/memory/compare.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/estimate.hpp"
#include "iteragpu/memory/extrapolation.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/prediction/detail/device_addresses.hpp"
#include "iteragpu/memory/prediction/detail/device_allocator.hpp"
#include "iteragpu/memory/prediction/plan.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/memory/sha256.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/memory/stopping_rule.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/nvml/library.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/catalog_errors.hpp"
#include "iteragpu/pricing/detail/csv.hpp"
#include "iteragpu/pricing/fit.hpp"
#include "iteragpu/pricing/package.hpp"
#include "iteragpu/sweep/html.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/new_folder.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

#endif  // ITERAGPU_SRC_CORE_HPP
