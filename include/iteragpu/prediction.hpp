#ifndef ITERAGPU_PREDICTION_HPP
#define ITERAGPU_PREDICTION_HPP

/// \file
/// The prediction, with no dependency (target iteragpu::iteragpu): PyTorch's
/// CUDA caching allocator simulated under its settings
/// (memory/prediction/caching_allocator.hpp, allocator_settings.hpp), the
/// memory outside it, the BLAS workspaces, and every phase of the synthetic
/// network predicted to the byte with no GPU (synthetic_prediction.hpp,
/// plan.hpp, check.hpp).
#include "iteragpu/memory/prediction/allocator_settings.hpp"    // IWYU pragma: export
#include "iteragpu/memory/prediction/allocator_values.hpp"      // IWYU pragma: export
#include "iteragpu/memory/prediction/caching_allocator.hpp"     // IWYU pragma: export
#include "iteragpu/memory/prediction/check.hpp"                 // IWYU pragma: export
#include "iteragpu/memory/prediction/outside_allocator.hpp"     // IWYU pragma: export
#include "iteragpu/memory/prediction/plan.hpp"                  // IWYU pragma: export
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"  // IWYU pragma: export
#include "iteragpu/memory/prediction/workspace.hpp"             // IWYU pragma: export

#endif  // ITERAGPU_PREDICTION_HPP
