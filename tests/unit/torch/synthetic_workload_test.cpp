// The synthetic model and the LibTorch runtime on LibTorch's CPU backend:
// shapes, parameter counts, determinism, dtype mapping, and what the runtime
// reports when this LibTorch has no GPU runtime. (CPU float16 matrix
// products are missing from LibTorch 1.13, hence float32 and bfloat16.)
#include <iteragpu/torch/synthetic_workload.hpp>

#include <cstdint>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <torch/torch.h>

#include <iteragpu/memory/protocol.hpp>
#include <iteragpu/memory/synthetic_model.hpp>
#include <iteragpu/torch/dtype.hpp>
#include <iteragpu/torch/runtime.hpp>

#include "cpu_backend.hpp"

namespace ta = iteragpu::torch_adapter;

namespace {

template <iteragpu::memory::dtype_policy D>
void check_workload_on_cpu(iteragpu::memory::synthetic_shape shape) {
  ta::synthetic_workload<D> work(torch::Device(torch::kCPU), shape);
  work.load_model();
  work.make_inputs();
  const auto out = work.forward();
  const auto w = static_cast<std::int64_t>(shape.width);
  BOOST_TEST(out.sizes().vec() == (std::vector<std::int64_t>{static_cast<std::int64_t>(shape.batch),
                                                             static_cast<std::int64_t>(shape.context), w}),
             boost::test_tools::per_element());
  BOOST_TEST((out.scalar_type() == ta::scalar_type<D>()));
  BOOST_TEST((work.input().scalar_type() == ta::scalar_type<D>()));
  BOOST_TEST(!out.requires_grad());
  BOOST_TEST(out.is_inference());

  const auto summary = iteragpu::memory::summarize_model(shape, D::element).value();
  BOOST_TEST(ta::parameter_count(work.model()) == summary.parameters);
  std::uint64_t bytes = 0;
  for (const auto& p : work.model()->parameters()) {
    BOOST_TEST((p.scalar_type() == ta::scalar_type<D>()));
    bytes += static_cast<std::uint64_t>(p.numel()) * static_cast<std::uint64_t>(p.element_size());
  }
  BOOST_TEST(bytes == summary.parameter_bytes);
  const auto& first = work.model()->ptr(0)->template as<torch::nn::Linear>()->weight;
  BOOST_TEST(first.sizes().vec() == (std::vector<std::int64_t>{4 * w, w}), boost::test_tools::per_element());

  // The ATen path computes what the modules compute.
  {
    const c10::InferenceMode inference;
    torch::nn::Sequential modules = work.model();  // a handle to the same modules
    BOOST_TEST(torch::allclose(out, modules->forward(work.input()), 1e-2, 1e-2));
  }

  // The same seeds give the same weights, inputs and outputs.
  ta::synthetic_workload<D> again(torch::Device(torch::kCPU), shape);
  again.load_model();
  again.make_inputs();
  BOOST_TEST(torch::equal(work.input(), again.input()));
  BOOST_TEST(torch::equal(out, again.forward()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(synthetic_workload_on_cpu)

BOOST_AUTO_TEST_CASE(float32_shapes_parameters_and_determinism) {
  check_workload_on_cpu<iteragpu::memory::dtypes::float32>({1, 16, 64});
  check_workload_on_cpu<iteragpu::memory::dtypes::float32>({2, 3, 8});
}

BOOST_AUTO_TEST_CASE(bfloat16_shapes_parameters_and_determinism) {
  check_workload_on_cpu<iteragpu::memory::dtypes::bfloat16>({1, 16, 64});
}

BOOST_AUTO_TEST_CASE(the_model_is_built_from_the_cpu_generator_seed_alone) {
  const auto a = ta::build_synthetic_network(8, iteragpu::memory::model_seed);
  torch::randn({100});  // disturb the global generator in between
  const auto b = ta::build_synthetic_network(8, iteragpu::memory::model_seed);
  const auto c = ta::build_synthetic_network(8, iteragpu::memory::model_seed + 1);
  const auto pa = a->parameters();
  const auto pb = b->parameters();
  const auto pc = c->parameters();
  BOOST_REQUIRE_EQUAL(pa.size(), 4U);
  for (std::size_t i = 0; i < pa.size(); ++i) {
    BOOST_TEST(torch::equal(pa[i], pb[i]));
  }
  BOOST_TEST(!torch::equal(pa[0], pc[0]));
}

BOOST_AUTO_TEST_CASE(dtype_policies_match_libtorch_element_sizes) {
  BOOST_TEST(c10::elementSize(ta::scalar_type<iteragpu::memory::dtypes::float32>()) ==
             iteragpu::memory::dtypes::float32::bytes_per_element);
  BOOST_TEST(c10::elementSize(ta::scalar_type<iteragpu::memory::dtypes::float16>()) ==
             iteragpu::memory::dtypes::float16::bytes_per_element);
  BOOST_TEST(c10::elementSize(ta::scalar_type<iteragpu::memory::dtypes::bfloat16>()) ==
             iteragpu::memory::dtypes::bfloat16::bytes_per_element);
}

// The LibTorch workload runs through iteragpu::memory::measure() like any other:
// here on the CPU, with a backend that has nothing to synchronise and a
// counter that counts the bytes of the tensors the workload holds.
using iteragpu_tests::cpu_backend;

BOOST_AUTO_TEST_CASE(the_workload_runs_through_measure_on_the_cpu) {
  ta::synthetic_workload<iteragpu::memory::dtypes::float32> work(torch::Device(torch::kCPU), {2, 3, 8});
  struct tensor_counter {
    ta::synthetic_workload<iteragpu::memory::dtypes::float32>* work;
    iteragpu::memory::allocator_reading read(iteragpu::memory::device_index) {
      std::uint64_t bytes = 0;
      if (work->model()) {
        for (const auto& p : work->model()->parameters()) {
          bytes += static_cast<std::uint64_t>(p.nbytes());
        }
      }
      if (work->input().defined()) {
        bytes += static_cast<std::uint64_t>(work->input().nbytes());
      }
      return {bytes, bytes, bytes, bytes};
    }
    void reset_peaks(iteragpu::memory::device_index) {}
  };
  cpu_backend backend;
  tensor_counter counter{&work};
  const auto m =
      iteragpu::memory::measure(backend, counter, work, iteragpu::memory::device_index{0}, {.warmup = 1, .repeats = 2});
  BOOST_REQUIRE(m.has_value());
  BOOST_REQUIRE_EQUAL(m->phases.size(), 6U);
  // 8 x 32 + 32 + 32 x 8 + 8 = 552 float32 parameters; the input is 2 x 3 x 8.
  BOOST_TEST(m->phases[0].end_allocated_bytes == 552U * 4U);
  BOOST_TEST(m->phases[1].end_allocated_bytes == 552U * 4U + 48U * 4U);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(libtorch_runtime_here)

// On a machine whose LibTorch has no GPU runtime (the Debian build machine),
// or that has no GPU, the report is valid and says why.
BOOST_AUTO_TEST_CASE(environment_reports_libtorch_and_the_device_state) {
  auto runtime = ta::open_libtorch_runtime();
  const auto report = runtime.environment(iteragpu::memory::device_index{0});
  BOOST_TEST(report.libtorch_available);
  BOOST_TEST(report.libtorch_version.value() == std::string(TORCH_VERSION));
  if (!report.device.available) {
    BOOST_TEST(report.device.reason.has_value());
    BOOST_TEST(!report.device.free_memory_bytes.has_value());
  } else {
    BOOST_TEST(report.device.total_memory_bytes.value() > 0U);
  }
#if !defined(ITERAGPU_TORCH_CUDA) && !defined(ITERAGPU_TORCH_HIP)
  BOOST_TEST(!report.device.available);
  BOOST_TEST(report.device.reason.value().find("no GPU runtime") != std::string::npos);
  BOOST_TEST(report.gpus.empty());
  BOOST_TEST(!report.build.has_value());
#endif
}

BOOST_AUTO_TEST_SUITE_END()
