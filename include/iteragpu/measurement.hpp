#ifndef ITERAGPU_MEASUREMENT_HPP
#define ITERAGPU_MEASUREMENT_HPP

/// \file
/// Measurement as a library call (target iteragpu::iteragpu), the header
/// that integrators of iteragpu::memory::measure() include: the memory domain's
/// ground (memory.hpp), the prediction (prediction.hpp), the measurements of
/// the synthetic network and of a TorchScript module and their comparison,
/// and the sweeps over them (sweep.hpp).
#include "iteragpu/memory.hpp"                          // IWYU pragma: export
#include "iteragpu/memory/compare.hpp"                  // IWYU pragma: export
#include "iteragpu/memory/synthetic_measurement.hpp"    // IWYU pragma: export
#include "iteragpu/memory/torchscript_measurement.hpp"  // IWYU pragma: export
#include "iteragpu/nvml.hpp"                            // IWYU pragma: export
#include "iteragpu/prediction.hpp"                      // IWYU pragma: export
#include "iteragpu/sweep.hpp"                           // IWYU pragma: export

#endif  // ITERAGPU_MEASUREMENT_HPP
