// cuBLAS and cuBLASLt workspaces: the default pair, and a total split as
// PyTorch splits CUBLAS_WORKSPACE_CONFIG's (cuBLASLt takes half, at most 1 MiB).
#include <iteragpu/memory/prediction/workspace.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace pred = iteragpu::memory::prediction;

namespace {

constexpr std::uint64_t mib = 1'048'576;

}  // namespace

BOOST_AUTO_TEST_SUITE(blas_workspace_split)

BOOST_AUTO_TEST_CASE(a_total_is_split_with_at_most_one_mib_for_cublaslt) {
  BOOST_TEST(
      (pred::h200_pytorch_2_11 == pred::blas_workspaces{iteragpu::byte_count{32 * mib}, iteragpu::byte_count{mib}}));
  // 3 MiB: half is 1.5 MiB, capped at 1 MiB for cuBLASLt; cuBLAS has the other 2 MiB.
  BOOST_TEST((pred::split_workspace_total(iteragpu::byte_count{3 * mib}) ==
              pred::blas_workspaces{iteragpu::byte_count{2 * mib}, iteragpu::byte_count{mib}}));
  // 1 MiB: half, 512 KiB, each.
  BOOST_TEST((pred::split_workspace_total(iteragpu::byte_count{mib}) ==
              pred::blas_workspaces{iteragpu::byte_count{mib / 2}, iteragpu::byte_count{mib / 2}}));
  // 3 bytes: cuBLASLt 1 (3 / 2 rounded down), cuBLAS 2.
  BOOST_TEST((pred::split_workspace_total(iteragpu::byte_count{3}) ==
              pred::blas_workspaces{iteragpu::byte_count{2}, iteragpu::byte_count{1}}));
}

BOOST_AUTO_TEST_CASE(addmm_takes_cublaslt_only_past_a_vector) {
  BOOST_TEST(pred::addmm_uses_cublaslt(64, 256));
  BOOST_TEST(!pred::addmm_uses_cublaslt(1, 256));
  BOOST_TEST(!pred::addmm_uses_cublaslt(64, 1));
}

BOOST_AUTO_TEST_SUITE_END()
