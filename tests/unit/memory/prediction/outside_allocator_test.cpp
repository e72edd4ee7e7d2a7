// The default memory outside the allocator: the CUDA context before the
// first tensor plus what the first matrix product loads.
#include <iteragpu/memory/prediction/outside_allocator.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(outside_allocator_default)

BOOST_AUTO_TEST_CASE(the_default_is_the_context_plus_the_blas_handles) {
  constexpr std::uint64_t context = 552'402'944;  // 526.8 MiB, as an environment report reads it
  constexpr std::uint64_t handles = 165'675'008;  // cuBLAS and cuBLASLt with their kernels
  BOOST_TEST(iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator.value == context + handles);
  // 718,077,952 = 684 MiB + 832 KiB (684.8125 MiB).
  BOOST_TEST(iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator.value ==
             684U * 1'048'576U + 832U * 1024U);
}

BOOST_AUTO_TEST_SUITE_END()
