#ifndef ITERAGPU_TORCH_SYNTHETIC_WORKLOAD_HPP
#define ITERAGPU_TORCH_SYNTHETIC_WORKLOAD_HPP

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>
#if defined(ITERAGPU_TORCH_CUDA)
#include <ATen/cuda/CUDAGeneratorImpl.h>
#endif

#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/torch/dtype.hpp"
#include "iteragpu/torch/narrow.hpp"

/// \file
/// The synthetic network built with LibTorch, and its workload for iteragpu::memory::measure().
namespace iteragpu::torch_adapter {

/// Linear(width -> 4*width) -> GELU -> Linear(4*width -> width), built and
/// initialized on the CPU (LibTorch's default Linear initialization) from a
/// CPU generator seeded with `seed`. Only the CPU generator is seeded, so no
/// GPU's state is touched.
[[nodiscard]] inline torch::nn::Sequential build_synthetic_network(std::uint64_t width, std::uint64_t seed) {
  const auto w = narrow_or_throw<std::int64_t>(width);
  const auto hidden = narrow_or_throw<std::int64_t>(width * memory::hidden_multiplier);
  {
    auto generator = at::detail::getDefaultCPUGenerator();
    const std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_current_seed(seed);
  }
  return torch::nn::Sequential(torch::nn::Linear(w, hidden), torch::nn::GELU(), torch::nn::Linear(hidden, w));
}

/// A fresh generator for `device`, seeded: the input does not depend on, or
/// change, any global generator.
[[nodiscard]] inline at::Generator seeded_generator(const torch::Device& device, std::uint64_t seed) {
  if (device.is_cpu()) {
    return at::detail::createCPUGenerator(seed);
  }
#if defined(ITERAGPU_TORCH_CUDA)
  if (device.is_cuda()) {
    auto generator = at::cuda::detail::createCUDAGenerator(device.index());
    generator.set_current_seed(seed);
    return generator;
  }
#endif
  throw std::invalid_argument("no seeded generator for device " + device.str());
}

/// The synthetic model and its input as a workload of iteragpu::memory::measure(),
/// with weights and input in the dtype D.
template <memory::dtype_policy D>
class synthetic_workload {
 public:
  /// A workload on `device` with the network and input of `shape`; nothing is built before load_model().
  synthetic_workload(torch::Device device, memory::synthetic_shape shape) : device_(device), shape_(shape) {}

  /// model_load: build on the CPU, then move to the device in D.
  void load_model() {
    model_ = build_synthetic_network(shape_.width, memory::model_seed);
    model_->to(device_, scalar_type<D>());
    model_->eval();
  }

  /// inputs: [batch, context, width] created on the device.
  void make_inputs() {
    const std::vector<std::int64_t> sizes{narrow_or_throw<std::int64_t>(shape_.batch),
                                          narrow_or_throw<std::int64_t>(shape_.context),
                                          narrow_or_throw<std::int64_t>(shape_.width)};
    input_ = torch::randn(sizes, seeded_generator(device_, memory::input_seed),
                          torch::TensorOptions().device(device_).dtype(scalar_type<D>()));
  }

  /// One inference pass; no autograd graph is recorded. The layers are
  /// applied through the ATen operators at::linear and at::gelu, the ones
  /// PyTorch's Python modules call: the C++ frontend's Linear::forward takes
  /// a matmul-then-add path for 3-D inputs instead of at::linear's fused
  /// bias epilogue (cuBLASLt), which runs slower and allocates differently.
  [[nodiscard]] torch::Tensor forward() {
    const c10::InferenceMode inference;
    const auto& first = model_->ptr(0)->template as<torch::nn::Linear>();
    const auto& second = model_->ptr(2)->template as<torch::nn::Linear>();
    const auto activation = at::gelu(at::linear(input_, first->weight, first->bias));
    return at::linear(activation, second->weight, second->bias);
  }

  /// The network, once load_model() has run.
  [[nodiscard]] const torch::nn::Sequential& model() const noexcept { return model_; }
  /// The input, once make_inputs() has run.
  [[nodiscard]] const torch::Tensor& input() const noexcept { return input_; }

 private:
  torch::Device device_;
  memory::synthetic_shape shape_;
  torch::nn::Sequential model_{nullptr};
  torch::Tensor input_;
};

/// The number of parameters of `model`, as LibTorch counts their elements.
[[nodiscard]] inline std::uint64_t parameter_count(const torch::nn::Sequential& model) {
  std::uint64_t count = 0;
  for (const auto& p : model->parameters()) {
    count += static_cast<std::uint64_t>(p.numel());
  }
  return count;
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_SYNTHETIC_WORKLOAD_HPP
