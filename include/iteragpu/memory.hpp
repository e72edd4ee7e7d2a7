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
#include "iteragpu/memory_need.hpp"  // IWYU pragma: export
#include "iteragpu/memory/compare.hpp"  // IWYU pragma: export
#include "iteragpu/memory/device.hpp"  // IWYU pragma: export
#include "iteragpu/memory/environment.hpp"  // IWYU pragma: export
#include "iteragpu/memory/estimate.hpp"  // IWYU pragma: export
#include "iteragpu/memory/extrapolation.hpp"  // IWYU pragma: export
#include "iteragpu/memory/fwd.hpp"  // IWYU pragma: export
#include "iteragpu/memory/gpu_runtime.hpp"  // IWYU pragma: export
#include "iteragpu/memory/input_spec.hpp"  // IWYU pragma: export
#include "iteragpu/memory/measured_need.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/backend.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/dtype.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/gpu_state.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/memory_counter.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/workload.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/allocator_settings.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/caching_allocator.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/check.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/outside_allocator.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/plan.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/workspace.hpp"  // IWYU pragma: export
#include "iteragpu/memory/protocol.hpp"  // IWYU pragma: export
#include "iteragpu/memory/replay.hpp"  // IWYU pragma: export
#include "iteragpu/memory/replay_study.hpp"  // IWYU pragma: export
#include "iteragpu/memory/sha256.hpp"  // IWYU pragma: export
#include "iteragpu/memory/statistics.hpp"  // IWYU pragma: export
#include "iteragpu/memory/stopping_rule.hpp"  // IWYU pragma: export
#include "iteragpu/memory/synthetic_measurement.hpp"  // IWYU pragma: export
#include "iteragpu/memory/synthetic_model.hpp"  // IWYU pragma: export
#include "iteragpu/memory/torchscript_archive.hpp"  // IWYU pragma: export
#include "iteragpu/memory/torchscript_measurement.hpp"  // IWYU pragma: export
#include "iteragpu/memory/trace.hpp"  // IWYU pragma: export
#include "iteragpu/nvml/session.hpp"  // IWYU pragma: export

#endif  // ITERAGPU_MEMORY_HPP
