#ifndef ITERAGPU_PREDICTION_OUTSIDE_ALLOCATOR_HPP
#define ITERAGPU_PREDICTION_OUTSIDE_ALLOCATOR_HPP

#include "iteragpu/units.hpp"

/// \file
/// The memory a measuring process takes on its GPU outside LibTorch's caching
/// allocator: the CUDA context, the kernels loaded, the GPU libraries'
/// handles. The allocator's counters do not see it; the device's used memory
/// (total minus free) does. A prediction of whether a run fits a card adds it
/// to the predicted peak reserved.
namespace iteragpu::prediction {

/// On the H200 with PyTorch 2.11 (CUDA 13.0, driver 580): total minus free as
/// `mesure_memoire environment` read it before any tensor existed, 552,402,944
/// bytes (526.8 MiB). It depends on the GPU, the driver and the libraries
/// loaded; `plan` and `sweep` take another figure where one is given.
inline constexpr byte_count memory_outside_allocator_default{552'402'944};

}  // namespace iteragpu::prediction

#endif  // ITERAGPU_PREDICTION_OUTSIDE_ALLOCATOR_HPP
