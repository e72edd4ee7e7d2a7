// The backend of a build that cannot reach a GPU: it lists no GPU, has no
// runtime, and gives its reason.
#include <iteragpu/memory/policies/backend.hpp>

#include <string>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(backend_policies)

BOOST_AUTO_TEST_CASE(the_unavailable_backend_gives_its_reason_and_no_gpu) {
  const mem::unavailable_backend backend{mem::libtorch_without_gpu_runtime};
  BOOST_TEST(backend.unavailable_reason().value() == std::string(mem::libtorch_without_gpu_runtime));
  BOOST_TEST(!mem::unavailable_backend::build().has_value());
  BOOST_TEST(mem::unavailable_backend::visible_gpus().empty());
  // The two reasons differ: a report tells a build without LibTorch from a CPU-only one.
  BOOST_TEST(mem::built_without_libtorch != mem::libtorch_without_gpu_runtime);
  BOOST_TEST((mem::device_memory{} == mem::device_memory{}));
}

BOOST_AUTO_TEST_SUITE_END()
