#ifndef ITERAGPU_MEMORY_PREDICTION_OUTSIDE_ALLOCATOR_HPP
#define ITERAGPU_MEMORY_PREDICTION_OUTSIDE_ALLOCATOR_HPP

#include "iteragpu/units.hpp"

/// \file
/// The memory a measuring process takes on its GPU outside LibTorch's caching
/// allocator: the CUDA context, the kernels loaded, the GPU libraries'
/// handles. The allocator's counters do not see it; the device's used memory
/// (total minus free) does. A prediction of whether a run fits a card adds it
/// to the predicted peak reserved.
namespace iteragpu::memory::prediction {

/// On the H200 with PyTorch 2.11 (CUDA 13.0, driver 580.159.04): 718,077,952
/// bytes (684.8 MiB): the largest of the device's used memory less the
/// allocator's reserved bytes over a measurement's rows, the same in every
/// measurement of the release checks (bench/gpu_release_checks.sh),
/// whatever the shape and dtype. Of it, 552,402,944 bytes (526.8 MiB) are
/// there before the first tensor, as an environment report reads them (the
/// CUDA context); the rest, 165,675,008 bytes, comes with the first
/// matrix product (cuBLAS and cuBLASLt handles and the kernels they load).
/// It depends on the GPU, the driver and the libraries loaded: the library
/// assumes no card's figure (a request that does not give one has none
/// outside), and the programs take this one unless `--outside-bytes` gives
/// another.
inline constexpr byte_count h200_pytorch_2_11_outside_allocator{718'077'952};

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_OUTSIDE_ALLOCATOR_HPP
