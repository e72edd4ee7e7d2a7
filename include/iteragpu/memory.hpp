#ifndef ITERAGPU_MEMORY_HPP
#define ITERAGPU_MEMORY_HPP

/// \file
/// The memory domain's ground, with no dependency (target iteragpu::iteragpu):
/// the weight estimate; measurement as a library call,
/// iteragpu::memory::measure() over an integrator's policy objects
/// (memory/protocol.hpp, memory/policies/); the statistics of the repeats
/// and the stopping rule; the GPU's state as a policy reads it (NVML, which
/// reads it on NVIDIA GPUs, has its umbrella: nvml.hpp); the trace of a recorded allocator snapshot (memory/trace.hpp);
/// the figures derived from a measurement (memory/measured_need.hpp). The
/// rest of the domain has umbrellas of its own, so that a file that needs
/// this ground does not compile them: prediction.hpp (the simulated caching
/// allocator and the synthetic network's prediction), traces.hpp (the replay
/// of recorded traces and their extension to other sizes), measurement.hpp
/// (with the measurements of the synthetic network and of a TorchScript
/// module, and their comparison). Reading a snapshot or measurement file
/// needs Boost.JSON: memory/files/ (target iteragpu::json).
#include "iteragpu/memory/device.hpp"                   // IWYU pragma: export
#include "iteragpu/memory/environment.hpp"              // IWYU pragma: export
#include "iteragpu/memory/estimate.hpp"                 // IWYU pragma: export
#include "iteragpu/memory/fwd.hpp"                      // IWYU pragma: export
#include "iteragpu/memory/gpu_runtime.hpp"              // IWYU pragma: export
#include "iteragpu/memory/input_spec.hpp"               // IWYU pragma: export
#include "iteragpu/memory/measured_need.hpp"            // IWYU pragma: export
#include "iteragpu/memory/policies/backend.hpp"         // IWYU pragma: export
#include "iteragpu/memory/policies/dtype.hpp"           // IWYU pragma: export
#include "iteragpu/memory/policies/gpu_state.hpp"       // IWYU pragma: export
#include "iteragpu/memory/policies/memory_counter.hpp"  // IWYU pragma: export
#include "iteragpu/memory/policies/workload.hpp"        // IWYU pragma: export
#include "iteragpu/memory/protocol.hpp"                 // IWYU pragma: export
#include "iteragpu/memory/sha256.hpp"                   // IWYU pragma: export
#include "iteragpu/memory/statistics.hpp"               // IWYU pragma: export
#include "iteragpu/memory/stopping_rule.hpp"            // IWYU pragma: export
#include "iteragpu/memory/synthetic_model.hpp"          // IWYU pragma: export
#include "iteragpu/memory/torchscript_archive.hpp"      // IWYU pragma: export
#include "iteragpu/memory/trace.hpp"                    // IWYU pragma: export
#include "iteragpu/memory_need.hpp"                     // IWYU pragma: export

#endif  // ITERAGPU_MEMORY_HPP
