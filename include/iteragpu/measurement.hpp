#ifndef ITERAGPU_MEASUREMENT_HPP
#define ITERAGPU_MEASUREMENT_HPP

/// \file
/// Measurement as a library call (target iteragpu::iteragpu), the header
/// that integrators of iteragpu::memory::measure() include: the memory domain
/// (memory.hpp) and the sweeps over it (sweep.hpp).
#include "iteragpu/memory.hpp"
#include "iteragpu/sweep.hpp"

#endif  // ITERAGPU_MEASUREMENT_HPP
