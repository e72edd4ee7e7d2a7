// The caching allocator's size arithmetic, the workspaces and the
// synthetic network's tensor sizes, pinned at compile time.
#include <cstdint>
#include <limits>

#include <iteragpu/memory/prediction/caching_allocator.hpp>
#include <iteragpu/memory/prediction/synthetic_prediction.hpp>
#include <iteragpu/memory/prediction/workspace.hpp>

namespace {

using iteragpu::byte_count;
using iteragpu::memory::element_type;
using iteragpu::memory::synthetic_shape;
using iteragpu::memory::prediction::addmm_uses_cublaslt;
using iteragpu::memory::prediction::allocation_errc;
using iteragpu::memory::prediction::blas_workspaces;
using iteragpu::memory::prediction::block_size;
using iteragpu::memory::prediction::pool_kind;
using iteragpu::memory::prediction::shape_errc;
using iteragpu::memory::prediction::split_workspace_total;
using iteragpu::memory::prediction::tensor_bytes;

constexpr std::uint64_t MiB = std::uint64_t{1} << 20U;
constexpr std::uint64_t EiB = std::uint64_t{1} << 60U;
constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

constexpr block_size block(std::uint64_t request) { return *block_size::for_request(byte_count{request}); }
constexpr std::uint64_t rounded(std::uint64_t request) { return block(request).bytes().value; }
constexpr std::uint64_t segment(std::uint64_t request) { return block(request).segment_size().value; }
constexpr bool refused(std::uint64_t request) {
  const auto b = block_size::for_request(byte_count{request});
  return !b.has_value() && b.error() == allocation_errc::request_too_large;
}

// round_size: at least 512 bytes, a multiple of 512.
static_assert(rounded(0) == 512);
static_assert(rounded(1) == 512);
static_assert(rounded(511) == 512);
static_assert(rounded(512) == 512);
static_assert(rounded(513) == 1024);
static_assert(rounded(1024) == 1024);
static_assert(rounded(MiB) == MiB);
static_assert(rounded(MiB + 1) == MiB + 512);
static_assert(rounded(10 * MiB - 1) == 10 * MiB);
static_assert(rounded(EiB - 1) == EiB);

// The 1 EiB refusal, up to the largest request.
static_assert(!refused(EiB - 1));
static_assert(refused(EiB));
static_assert(refused(EiB + 1));
static_assert(refused(u64_max));

// get_pool: up to 1 MiB after rounding, the small pool.
static_assert(block(1).pool() == pool_kind::small);
static_assert(block(MiB).pool() == pool_kind::small);
static_assert(block(MiB + 1).pool() == pool_kind::large);

// get_allocation_size.
static_assert(segment(1) == 2 * MiB);
static_assert(segment(MiB) == 2 * MiB);
static_assert(segment(MiB + 1) == 20 * MiB);
static_assert(segment(10 * MiB - 512) == 20 * MiB);
static_assert(segment(10 * MiB - 1) == 10 * MiB);  // rounds to 10 MiB: a segment of its own
static_assert(segment(10 * MiB) == 10 * MiB);
static_assert(segment(10 * MiB + 1) == 12 * MiB);
static_assert(segment(12 * MiB) == 12 * MiB);
static_assert(segment(EiB - 1) == EiB);

// should_split: small pool, a rest of 512 bytes or more; large pool, a rest
// of more than 1 MiB; a block smaller than the request never splits.
static_assert(block(512).splits(byte_count{1024}));
static_assert(!block(512).splits(byte_count{512}));
static_assert(block(MiB).splits(byte_count{2 * MiB}));
static_assert(!block(MiB).splits(byte_count{MiB}));
static_assert(!block(19 * MiB).splits(byte_count{20 * MiB}));
static_assert(block(19 * MiB - 512).splits(byte_count{20 * MiB}));
static_assert(!block(4 * MiB).splits(byte_count{2 * MiB}));
static_assert(block(EiB - 1).splits(byte_count{u64_max}));  // the sum stays below 2^64

// The workspaces: the H200 and PyTorch 2.11 default, and the split of a total.
static_assert(iteragpu::memory::prediction::h200_pytorch_2_11 ==
              blas_workspaces{byte_count{32 * MiB}, byte_count{MiB}});
static_assert(iteragpu::memory::prediction::known_workspace_sizes[0].sizes ==
              iteragpu::memory::prediction::h200_pytorch_2_11);
static_assert(iteragpu::memory::prediction::known_workspace_sizes[1].sizes.cublas.value ==
              8'519'680);  // 4096 KiB x 2 + 16 KiB x 8
static_assert(split_workspace_total(byte_count{34'603'008}) == blas_workspaces{byte_count{32 * MiB}, byte_count{MiB}});
static_assert(split_workspace_total(byte_count{9 * MiB}) == blas_workspaces{byte_count{8 * MiB}, byte_count{MiB}});
static_assert(split_workspace_total(byte_count{2 * MiB}) == blas_workspaces{byte_count{MiB}, byte_count{MiB}});
static_assert(split_workspace_total(byte_count{MiB}) == blas_workspaces{byte_count{MiB / 2}, byte_count{MiB / 2}});
static_assert(split_workspace_total(byte_count{3}) == blas_workspaces{byte_count{2}, byte_count{1}});
static_assert(split_workspace_total(byte_count{1}) == blas_workspaces{byte_count{1}, byte_count{0}});
static_assert(split_workspace_total(byte_count{0}) == blas_workspaces{byte_count{0}, byte_count{0}});
static_assert(split_workspace_total(byte_count{u64_max}) ==
              blas_workspaces{byte_count{u64_max - MiB}, byte_count{MiB}});

// The cuBLASLt path needs more than one row and column in mat2.
static_assert(addmm_uses_cublaslt(64, 256));
static_assert(addmm_uses_cublaslt(2, 8));
static_assert(!addmm_uses_cublaslt(1, 4));
static_assert(!addmm_uses_cublaslt(4, 1));

// Tensor sizes of 8x4096x8192 bfloat16: W = 32768 x 8192 x 2, b1 = 32768 x 2,
// b2 = 8192 x 2, input and output = 32768 rows x 8192 x 2, hidden = 32768 x 32768 x 2.
constexpr auto large = *tensor_bytes(synthetic_shape{8, 4096, 8192}, element_type::bfloat16);
static_assert(large.first_weight.value == 536'870'912 && large.second_weight.value == 536'870'912);
static_assert(large.first_bias.value == 65'536 && large.second_bias.value == 16'384);
static_assert(large.input.value == 536'870'912 && large.output.value == 536'870'912);
static_assert(large.hidden.value == 2'147'483'648);
static_assert(large.cublaslt);

// float32 is 4 bytes, float16 2: 3x5x7 float32 has an input of 15 x 7 x 4 = 420 bytes.
static_assert(tensor_bytes(synthetic_shape{3, 5, 7}, element_type::float32)->input.value == 420);
static_assert(tensor_bytes(synthetic_shape{3, 5, 7}, element_type::float16)->input.value == 210);
static_assert(!tensor_bytes(synthetic_shape{1, 1, 1}, element_type::float32)->cublaslt);

// Bad shapes: a zero dimension, and tensors past 2^63-1 bytes.
static_assert(tensor_bytes(synthetic_shape{0, 1, 1}, element_type::float32).error() == shape_errc::zero_dimension);
static_assert(tensor_bytes(synthetic_shape{1, 0, 1}, element_type::float32).error() == shape_errc::zero_dimension);
static_assert(tensor_bytes(synthetic_shape{1, 1, 0}, element_type::float32).error() == shape_errc::zero_dimension);
// 2^31 x 2^30 rows of width 1 in float32: hidden = 2^61 x 4 x 4 bytes.
static_assert(tensor_bytes(synthetic_shape{std::uint64_t{1} << 31U, std::uint64_t{1} << 30U, 1}, element_type::float32)
                  .error() == shape_errc::too_large);
static_assert(tensor_bytes(synthetic_shape{1, 1, u64_max}, element_type::float16).error() == shape_errc::too_large);
static_assert(tensor_bytes(synthetic_shape{u64_max, u64_max, 1}, element_type::float16).error() ==
              shape_errc::too_large);
// The hidden activation of 2^58 rows of width 1 in float32, 2^58 x 4 x 4
// = 2^62 bytes, fits int64; of 2^59 rows, 2^63 bytes, it does not.
static_assert(tensor_bytes(synthetic_shape{std::uint64_t{1} << 58U, 1, 1}, element_type::float32)->hidden.value ==
              std::uint64_t{1} << 62U);
static_assert(tensor_bytes(synthetic_shape{std::uint64_t{1} << 59U, 1, 1}, element_type::float32).error() ==
              shape_errc::too_large);

}  // namespace
