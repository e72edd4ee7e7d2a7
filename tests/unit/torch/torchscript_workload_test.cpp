// The TorchScript workload on LibTorch's CPU backend, through
// iteragpu::memory::measure() with the CPU policies of the synthetic workload's
// tests: modules written here in TorchScript and saved to a temporary file,
// inference and training, the outputs a loss is taken from, and every
// refusal a user will meet (a file that is no module, inputs forward does not
// take, a dtype it refuses, a module with nothing to train). The command
// line's checks before any GPU are tested in tests/cli/unit_torch/.
// GCC 13 at -O3 (the GPU host's build of LibTorch 2.11) sees a null pointer
// in c10::IValue::toComplexDouble once c10::Dict's key hash is inlined into
// this file's dict outputs: a false positive inside LibTorch's headers, whose
// lines the diagnostic is reported at, so it is turned off before them.
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <iteragpu/torch/torchscript_workload.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <torch/script.h>
#include <torch/torch.h>

#include <iteragpu/memory/protocol.hpp>
#include <iteragpu/torch/runtime.hpp>

#include "cpu_backend.hpp"
#include "saved_module.hpp"

namespace ta = iteragpu::torch_adapter;
namespace mem = iteragpu::memory;

namespace {

using iteragpu_tests::cpu_backend;
using iteragpu_tests::linear_source;
using iteragpu_tests::saved_module;
using iteragpu_tests::scratch;

// Counts the bytes the workload holds: parameters, their gradients and the inputs.
struct tensor_counter {
  const ta::torchscript_workload* work;
  iteragpu::memory::allocator_reading read(iteragpu::memory::device_index) {
    std::uint64_t bytes = 0;
    if (work->module()) {
      for (const auto& p : work->module()->parameters()) {
        bytes += static_cast<std::uint64_t>(p.nbytes());
        if (p.grad().defined()) {
          bytes += static_cast<std::uint64_t>(p.grad().nbytes());
        }
      }
    }
    for (const auto& input : work->inputs()) {
      bytes += static_cast<std::uint64_t>(input.nbytes());
    }
    return {bytes, bytes, bytes, bytes};
  }
  void reset_peaks(iteragpu::memory::device_index) {}
};

iteragpu::memory::torchscript_run run_of(const std::string& path, const std::vector<std::string>& inputs, bool train) {
  iteragpu::memory::torchscript_run run;
  run.device = iteragpu::memory::device_index{0};
  run.path = path;
  for (const auto& text : inputs) {
    run.inputs.push_back(mem::parse_input_spec(text).value());
  }
  run.train = train;
  run.plan = {.warmup = 1, .repeats = 2};
  return run;
}

iteragpu::result<iteragpu::memory::measurement, iteragpu::memory::torchscript_run_error> measure_on_cpu(
    const iteragpu::memory::torchscript_run& run) {
  cpu_backend backend;
  ta::torchscript_workload work(torch::Device(torch::kCPU), run.path, run.inputs, run.train, run.input_high);
  tensor_counter counter{&work};
  auto measured = iteragpu::memory::measure(backend, counter, work, run.device, run.plan);
  if (!measured) {
    auto e = std::move(measured).error();
    const auto accepted = work.accepted();
    return iteragpu::unexpected{iteragpu::memory::torchscript_run_error{
        accepted ? iteragpu::memory::torchscript_run_errc::phase_failed : accepted.error(), e.phase,
        std::move(e.message)}};
  }
  return std::move(*measured);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(torchscript_workload_on_cpu)

BOOST_AUTO_TEST_CASE(inference_rows_hold_the_weights_then_the_inputs) {
  const scratch s;
  // w: 4 x 3 and b: 3 float32, 60 bytes; the input 2 x 4 float32, 32 bytes.
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, linear_source);
  const auto m = measure_on_cpu(run_of(path, {"2x4:float32"}, false));
  BOOST_REQUIRE(m.has_value());
  BOOST_REQUIRE_EQUAL(m->phases.size(), 6U);
  BOOST_TEST(m->phases[0].end_allocated_bytes == 60U);
  BOOST_TEST(m->phases[1].baseline_allocated_bytes == 60U);
  BOOST_TEST(m->phases[1].end_allocated_bytes == 92U);
  // Inference keeps no gradient.
  BOOST_TEST(m->phases[5].end_allocated_bytes == 92U);
}

BOOST_AUTO_TEST_CASE(the_workload_loads_evaluates_and_fills_inputs_from_the_seed) {
  const scratch s;
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, R"(
def forward(self, x, ids):
    return x.matmul(self.w) + self.b
)");
  ta::torchscript_workload a(torch::Device(torch::kCPU), path,
                             {mem::parse_input_spec("2x4:float32").value(), mem::parse_input_spec("5:int64").value()},
                             false, 7);
  a.load_model();
  a.make_inputs();
  BOOST_TEST(!a.module()->is_training());
  BOOST_REQUIRE_EQUAL(a.inputs().size(), 2U);
  BOOST_TEST((a.inputs()[0].scalar_type() == torch::kFloat));
  BOOST_TEST((a.inputs()[1].scalar_type() == torch::kLong));
  BOOST_TEST(a.inputs()[1].min().item<std::int64_t>() >= 0);
  BOOST_TEST(a.inputs()[1].max().item<std::int64_t>() < 7);
  ta::torchscript_workload b(torch::Device(torch::kCPU), path,
                             {mem::parse_input_spec("2x4:float32").value(), mem::parse_input_spec("5:int64").value()},
                             false, 7);
  b.load_model();
  b.make_inputs();
  BOOST_TEST(torch::equal(a.inputs()[0], b.inputs()[0]));
  BOOST_TEST(torch::equal(a.inputs()[1], b.inputs()[1]));
  const auto output = a.forward().toTensor();
  BOOST_TEST(output.sizes().vec() == (std::vector<std::int64_t>{2, 3}), boost::test_tools::per_element());
  BOOST_TEST(output.is_inference());
  BOOST_TEST(torch::allclose(output, a.inputs()[0].sum(1, true).expand({2, 3})));
}

BOOST_AUTO_TEST_CASE(training_keeps_the_gradients_on_the_parameters_between_passes) {
  const scratch s;
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, linear_source);
  const auto m = measure_on_cpu(run_of(path, {"2x4:float32"}, true));
  BOOST_REQUIRE(m.has_value());
  BOOST_REQUIRE_EQUAL(m->phases.size(), 6U);
  BOOST_TEST(m->phases[1].end_allocated_bytes == 92U);
  // After the cold pass the gradients (as large as the weights) are there...
  BOOST_TEST(m->phases[2].baseline_allocated_bytes == 92U);
  BOOST_TEST(m->phases[2].end_allocated_bytes == 152U);
  // ...and each later pass starts with the previous pass's gradients and ends with its own.
  BOOST_TEST(m->phases[4].baseline_allocated_bytes == 152U);
  BOOST_TEST(m->phases[5].end_allocated_bytes == 152U);

  ta::torchscript_workload work(torch::Device(torch::kCPU), path, {mem::parse_input_spec("2x4:float32").value()}, true);
  work.load_model();
  work.make_inputs();
  BOOST_TEST(work.module()->is_training());
  static_cast<void>(work.forward());
  const auto parameters = work.module()->named_parameters();
  for (const auto& p : parameters) {
    BOOST_REQUIRE(p.value.grad().defined());
  }
  // d(sum(x W + b))/dW[i][j] = sum over the batch of x[.][i]; d/db = the batch size.
  const auto& x = work.inputs()[0];
  BOOST_TEST(torch::allclose(work.module()->attr("w").toTensor().grad(), x.sum(0).unsqueeze(1).expand({4, 3})));
  BOOST_TEST(torch::allclose(work.module()->attr("b").toTensor().grad(), torch::full({3}, 2.0F)));
  // The next pass sets them to none first: they are this pass's, not a sum of two.
  static_cast<void>(work.forward());
  BOOST_TEST(torch::allclose(work.module()->attr("b").toTensor().grad(), torch::full({3}, 2.0F)));
}

BOOST_AUTO_TEST_CASE(the_loss_takes_every_floating_tensor_of_tuples_lists_and_dicts) {
  c10::impl::GenericDict dict(c10::StringType::get(), c10::TensorType::get());
  dict.insert("a", torch::ones({2}));
  dict.insert("ids", torch::zeros({3}, torch::kLong));
  c10::List<torch::Tensor> list;
  list.push_back(torch::ones({4}, torch::kBFloat16));
  const auto value = c10::ivalue::Tuple::create({torch::ones({5}), torch::zeros({6}, torch::kInt), list, dict});
  std::vector<torch::Tensor> found;
  ta::collect_floating_tensors(value, found);
  BOOST_REQUIRE_EQUAL(found.size(), 3U);
  BOOST_TEST(found[0].numel() == 5);
  BOOST_TEST(found[1].numel() == 4);
  BOOST_TEST(found[2].numel() == 2);

  const scratch s;
  const auto path = saved_module(s, "dict.pt", {{"w", torch::ones({4})}}, R"(
def forward(self, x, ids):
    return {"scaled": x * self.w, "ids": ids}, (x * self.w * 2.0, ids)
)");
  ta::torchscript_workload work(
      torch::Device(torch::kCPU), path,
      {mem::parse_input_spec("3x4:float32").value(), mem::parse_input_spec("3:int64").value()}, true);
  work.load_model();
  work.make_inputs();
  static_cast<void>(work.forward());
  // d/dw of sum(x w) + sum(2 x w) = 3 sum over the batch of x.
  BOOST_TEST(torch::allclose(work.module()->attr("w").toTensor().grad(), 3.0 * work.inputs()[0].sum(0)));
}

BOOST_AUTO_TEST_CASE(a_file_that_is_no_module_is_refused_in_model_load) {
  const scratch s;
  const auto path = (s.folder / "model.py").string();
  std::ofstream(path) << "def forward(self, x):\n    return x\n";
  const auto m = measure_on_cpu(run_of(path, {"2x4:float32"}, false));
  BOOST_REQUIRE(!m.has_value());
  BOOST_TEST((m.error().code == iteragpu::memory::torchscript_run_errc::not_loadable));
  BOOST_TEST((m.error().phase == iteragpu::memory::phase_kind::model_load));
  BOOST_TEST(m.error().message.find('\n') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(inputs_forward_does_not_take_are_refused_with_its_arguments) {
  const scratch s;
  const auto path = saved_module(s, "two.pt", {{"w", torch::ones({4, 3})}}, R"(
def forward(self, x, y, scale: float = 1.0):
    return x.matmul(self.w) + y
)");
  const auto one = measure_on_cpu(run_of(path, {"2x4:float32"}, false));
  BOOST_REQUIRE(!one.has_value());
  BOOST_TEST((one.error().code == iteragpu::memory::torchscript_run_errc::wrong_inputs));
  BOOST_TEST((one.error().phase == iteragpu::memory::phase_kind::model_load));
  BOOST_TEST(one.error().message == "(x: Tensor, y: Tensor, scale: float (optional))");
  // A tensor where forward wants a float.
  const auto three = measure_on_cpu(run_of(path, {"2x4:float32", "2x3:float32", "1:float32"}, false));
  BOOST_REQUIRE(!three.has_value());
  BOOST_TEST((three.error().code == iteragpu::memory::torchscript_run_errc::wrong_inputs));
  // Two tensors are what it takes.
  BOOST_TEST(measure_on_cpu(run_of(path, {"2x4:float32", "2x3:float32"}, false)).has_value());
}

BOOST_AUTO_TEST_CASE(a_dtype_the_module_refuses_is_refused_in_the_first_pass) {
  const scratch s;
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, linear_source);
  const auto m = measure_on_cpu(run_of(path, {"2x4:int64"}, false));
  BOOST_REQUIRE(!m.has_value());
  BOOST_TEST((m.error().code == iteragpu::memory::torchscript_run_errc::inputs_refused));
  BOOST_TEST((m.error().phase == iteragpu::memory::phase_kind::cold_forward));
  BOOST_TEST(!m.error().message.empty());
}

BOOST_AUTO_TEST_CASE(training_a_module_without_parameters_is_refused) {
  const scratch s;
  const auto path = saved_module(s, "double.pt", {}, R"(
def forward(self, x):
    return x * 2.0
)");
  BOOST_TEST(measure_on_cpu(run_of(path, {"3:float32"}, false)).has_value());
  const auto m = measure_on_cpu(run_of(path, {"3:float32"}, true));
  BOOST_REQUIRE(!m.has_value());
  BOOST_TEST((m.error().code == iteragpu::memory::torchscript_run_errc::nothing_to_train));
}

BOOST_AUTO_TEST_CASE(running_out_of_memory_is_a_failure_of_the_gpu_not_a_refusal) {
  BOOST_TEST(ta::is_out_of_memory(std::runtime_error("CUDA out of memory. Tried to allocate 2.00 GiB")));
  BOOST_TEST(!ta::is_out_of_memory(std::runtime_error("expected scalar type Float but found Long")));
}

BOOST_AUTO_TEST_SUITE_END()
