#ifndef ITERAGPU_TRACES_HPP
#define ITERAGPU_TRACES_HPP

/// \file
/// Recorded PyTorch allocator traces, with no dependency (target
/// iteragpu::iteragpu): a trace replayed through the simulated caching
/// allocator under other settings and capacities (memory/replay.hpp), the
/// study of several settings and the smallest capacity
/// (memory/replay_study.hpp), and traces recorded at a few sizes extended to
/// any size (memory/extrapolation.hpp). Reading the snapshot file needs
/// Boost.JSON: memory/files/snapshot_file.hpp (target iteragpu::json).
#include "iteragpu/memory/extrapolation.hpp"  // IWYU pragma: export
#include "iteragpu/memory/replay.hpp"         // IWYU pragma: export
#include "iteragpu/memory/replay_study.hpp"   // IWYU pragma: export
#include "iteragpu/memory/trace.hpp"          // IWYU pragma: export

#endif  // ITERAGPU_TRACES_HPP
