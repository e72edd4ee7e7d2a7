#ifndef ITERAGPU_MEASUREMENT_HPP
#define ITERAGPU_MEASUREMENT_HPP

/// \file
/// Measurement as a library call (target iteragpu::iteragpu), the header
/// that integrators of iteragpu::memory::measure() include: the memory domain
/// (memory.hpp) and the sweeps over it (sweep.hpp).
#include "iteragpu/memory.hpp"  // IWYU pragma: export
#include "iteragpu/sweep.hpp"  // IWYU pragma: export

#endif  // ITERAGPU_MEASUREMENT_HPP
