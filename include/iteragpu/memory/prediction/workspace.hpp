#ifndef ITERAGPU_MEMORY_PREDICTION_WORKSPACE_HPP
#define ITERAGPU_MEMORY_PREDICTION_WORKSPACE_HPP

#include <array>
#include <cstdint>
#include <string_view>

#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The GPU matrix library's workspaces, which LibTorch allocates through its
/// caching allocator on the first matrix product of a stream and keeps for
/// the life of the process.
///
/// What aten/src/ATen/cuda/CublasHandlePool.cpp of pytorch/pytorch at commit
/// 26a39059ec580351411f180816c47e2ef5134ae1 does on CUDA, as PyTorch 2.11.0
/// does on an H200 (a later main-branch version shares one workspace
/// between the two libraries by default and gives 32 MiB to Blackwell too):
///   - getCurrentCUDABlasHandle() allocates the cuBLAS workspace of its
///     (handle, stream) pair the first time (setWorkspaceForHandle ->
///     getNewWorkspace), of parseChosenWorkspaceSize() bytes: 4096 * 8 KiB =
///     32 MiB on compute capability 9.0 (Hopper: H100, H200), else the
///     ":4096:2:16:8" default, 4096 KiB x 2 + 16 KiB x 8 = 8,519,680 bytes.
///   - getCUDABlasLtWorkspace() allocates a second, separate cuBLASLt
///     workspace of getCUDABlasLtWorkspaceSize() bytes: 1024 KiB = 1 MiB,
///     capped at the cuBLAS workspace's size (the size function reads the
///     unified setting as on by default, while the allocation shares the
///     cuBLAS workspace only when TORCH_CUBLASLT_UNIFIED_WORKSPACE=1).
///   - gemm_and_bias (aten/src/ATen/cuda/CUDABlas.cpp) builds its
///     CublasLtWorkspace before it fetches the handle, and
///     getCUDABlasLtWorkspace() first fetches the handle (which sets the
///     cuBLAS workspace up), so the order on the first product is: the
///     product's output (allocated by the operator before it runs), then the
///     cuBLAS workspace, then the cuBLASLt one. The counters cannot tell this
///     order from workspaces first: for the synthetic network with these
///     sizes, every shape tried reads the same six fields either way.
/// On an H200 with PyTorch 2.11.0+cu130 the first pass of the synthetic
/// network leaves 34,603,008 bytes allocated beyond its tensors: 32 MiB +
/// 1 MiB, as above. The 1 MiB request is exactly the small pool's largest
/// block, so it is packed into a 2 MiB small segment.
namespace iteragpu::memory::prediction {

/// The two workspaces, each one allocation (a zero size allocates nothing).
struct blas_workspaces {
  byte_count cublas;    ///< cuBLAS's workspace
  byte_count cublaslt;  ///< cuBLASLt's workspace
  friend constexpr bool operator==(blas_workspaces, blas_workspaces) = default;
};

/// One entry of what is known, with where it comes from.
struct known_workspace {
  std::string_view libtorch;    ///< the LibTorch release
  std::string_view capability;  ///< the GPU's compute capability
  blas_workspaces sizes;        ///< the two workspaces
  std::string_view source;      ///< where the sizes come from: the source file and whether they were measured
};

/// The workspaces of an H200 (compute capability 9.0) with PyTorch 2.11: 32 MiB and 1 MiB.
inline constexpr blas_workspaces h200_pytorch_2_11{byte_count{32 * iteragpu::mebibyte}, byte_count{iteragpu::mebibyte}};

/// The workspaces known, per LibTorch release and compute capability.
inline constexpr std::array<known_workspace, 2> known_workspace_sizes{{
    {"2.11", "9.0", h200_pytorch_2_11,
     "aten/src/ATen/cuda/CublasHandlePool.cpp at 26a39059ec580351411f180816c47e2ef5134ae1; "
     "measured on an H200 with 2.11.0+cu130 (34,603,008 bytes after the first pass)"},
    {"2.11",
     "any other CUDA capability",
     {byte_count{8'519'680}, byte_count{iteragpu::mebibyte}},
     "aten/src/ATen/cuda/CublasHandlePool.cpp at 26a39059ec580351411f180816c47e2ef5134ae1 (not measured)"},
}};

/// A total given in place of the two sizes (--workspace-bytes). LibTorch
/// sets the cuBLAS size (CUBLAS_WORKSPACE_CONFIG) and caps the cuBLASLt one
/// (1 MiB by default) at it, so a total T splits as cuBLASLt = min(1 MiB,
/// T / 2), cuBLAS = the rest: every total LibTorch can produce splits back
/// into its own two sizes, and T = 0 allocates nothing.
[[nodiscard]] constexpr blas_workspaces split_workspace_total(byte_count total) noexcept {
  const std::uint64_t half = total.value / 2;
  const std::uint64_t cublaslt = half < iteragpu::mebibyte ? half : iteragpu::mebibyte;
  return {byte_count{total.value - cublaslt}, byte_count{cublaslt}};
}

/// The largest total (--workspace-bytes) whose two workspaces the caching
/// allocator can allocate: from one byte more, the cuBLAS part is a request
/// of 2^60 bytes or more, which NativeCachingAllocator::allocate refuses.
inline constexpr byte_count largest_workspace_total{first_refused_request.value + iteragpu::mebibyte - 1};
static_assert(split_workspace_total(largest_workspace_total).cublas.value < first_refused_request.value);
static_assert(split_workspace_total(byte_count{largest_workspace_total.value + 1}).cublas == first_refused_request);

/// Whether at::addmm(bias, mat1, mat2) with a one-dimensional bias takes the
/// cuBLASLt path, which alone asks for the cuBLASLt workspace (the plain
/// cuBLAS path asks for the cuBLAS one only): for float32, float16 and
/// bfloat16 with CUDA 12.1 or later, mat2 [inner, columns] must have more
/// than one row and more than one column (isInputCompliesAddmmCudaLt in
/// aten/src/ATen/native/cuda/Blas.cpp at 960a68465f6172d22bff1a58a61f942363ff0931).
/// PyTorch 2.11 on an H200 agrees: a one-row input still allocates the
/// cuBLASLt workspace, a width of 1 does not. (A later main-branch version
/// also asks mat1 for more than one row and column.)
[[nodiscard]] constexpr bool addmm_uses_cublaslt(std::uint64_t inner, std::uint64_t columns) noexcept {
  return inner > 1 && columns > 1;
}

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_WORKSPACE_HPP
