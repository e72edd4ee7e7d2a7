#ifndef ITERAGPU_MEASUREMENT_HPP
#define ITERAGPU_MEASUREMENT_HPP

/// \file
/// Measurement as a library call, with no LibTorch and no Boost (target
/// iteragpu::iteragpu): iteragpu::measure() over an integrator's policy
/// objects (protocol.hpp, policies/), the prediction of the synthetic
/// network through a simulated caching allocator (prediction/), the
/// statistics of the repeats and the
/// stopping rule, the GPU's state through NVML loaded at run time, the
/// environment report, the synthetic network's description and its
/// measurement through a GPU runtime, the replay of recorded allocator
/// traces under other settings and capacities (memory/), and sweeps over shapes (sweep/: the
/// plan, the skip rules, the point processes, the summary, plot and page). The
/// LibTorch adapters are in iteragpu/torch/ (target iteragpu::torch).
#include "iteragpu/compare.hpp"
#include "iteragpu/device.hpp"
#include "iteragpu/environment.hpp"
#include "iteragpu/gpu_runtime.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/memory/sha256.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/nvml/session.hpp"
#include "iteragpu/policies/backend.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/policies/gpu_state.hpp"
#include "iteragpu/policies/memory_counter.hpp"
#include "iteragpu/policies/workload.hpp"
#include "iteragpu/prediction/allocator_settings.hpp"
#include "iteragpu/prediction/caching_allocator.hpp"
#include "iteragpu/prediction/check.hpp"
#include "iteragpu/prediction/outside_allocator.hpp"
#include "iteragpu/prediction/plan.hpp"
#include "iteragpu/prediction/synthetic_prediction.hpp"
#include "iteragpu/prediction/workspace.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/statistics.hpp"
#include "iteragpu/sweep/html.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/plan.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/sweep/svg.hpp"
#include "iteragpu/synthetic_measurement.hpp"
#include "iteragpu/synthetic_model.hpp"
#include "iteragpu/torchscript_measurement.hpp"

#endif  // ITERAGPU_MEASUREMENT_HPP
