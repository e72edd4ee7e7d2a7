#ifndef ITERAGPU_MEMORY_HPP
#define ITERAGPU_MEMORY_HPP

/// \file
/// The memory domain, with no dependency (target iteragpu::iteragpu): the
/// weight estimate; measurement as a library call, iteragpu::memory::measure() over
/// an integrator's policy objects (memory/protocol.hpp, memory/policies/);
/// the statistics of the repeats; the GPU's state through NVML loaded at run
/// time (nvml/); the prediction of the synthetic network through a simulated
/// caching allocator (memory/prediction/); the trace and replay of recorded
/// allocator snapshots, and traces at several sizes extended to any size
/// (memory/extrapolation.hpp); the figures derived from a measurement
/// (memory/measured_need.hpp). Reading a snapshot or measurement file needs Boost.JSON:
/// memory/files/ (target iteragpu::json).
#include "iteragpu/memory_need.hpp"
#include "iteragpu/memory/compare.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/estimate.hpp"
#include "iteragpu/memory/extrapolation.hpp"
#include "iteragpu/memory/fwd.hpp"
#include "iteragpu/memory/gpu_runtime.hpp"
#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/measured_need.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/prediction/outside_allocator.hpp"
#include "iteragpu/memory/prediction/plan.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/memory/sha256.hpp"
#include "iteragpu/memory/statistics.hpp"
#include "iteragpu/memory/stopping_rule.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/nvml/session.hpp"

#endif  // ITERAGPU_MEMORY_HPP
