#ifndef ITERAGPU_MEMORY_PREDICTION_IMPL_SYNTHETIC_PREDICTION_IPP
#define ITERAGPU_MEMORY_PREDICTION_IMPL_SYNTHETIC_PREDICTION_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/synthetic_prediction.hpp"

// The bodies of the functions that <iteragpu/memory/prediction/synthetic_prediction.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::prediction {

ITERAGPU_INLINE simulated_tensor& simulated_tensor::operator=(simulated_tensor&& other) noexcept {
  if (this != &other) {
    release();
    allocator_ = std::exchange(other.allocator_, nullptr);
    block_ = other.block_;
  }
  return *this;
}

ITERAGPU_INLINE void simulated_tensor::release() noexcept {
  if (allocator_ != nullptr) {
    // Only this object holds the block, so it is in use: freeing it cannot fail.
    static_cast<void>(std::exchange(allocator_, nullptr)->free(block_));
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const allocation_error& f) {
  switch (f.code) {
    case allocation_errc::request_too_large:
      return "predicted out of memory: a request of " + std::to_string(f.requested.value) +
             " bytes is 2^60 bytes or more, which the caching allocator refuses";
    case allocation_errc::device_memory_unknown:
      return "a request of " + std::to_string(f.requested.value) +
             " bytes under expandable segments, whose address space the device's memory sizes, on an allocator "
             "not told the device's memory";
    case allocation_errc::out_of_memory:
      break;
  }
  std::string text = "predicted out of memory: tried to allocate " + std::to_string(f.requested.value) +
                     " bytes, which needs a new segment of " + std::to_string(f.segment.value) + " bytes; " +
                     std::to_string(f.reserved.value) + " bytes reserved (" + std::to_string(f.allocated.value) +
                     " allocated)";
  if (f.capacity) {
    text += " of a capacity of " + std::to_string(f.capacity->value) + " bytes";
  }
  return text;
}

[[nodiscard]] ITERAGPU_INLINE allocator_reading simulated_counter::read(device_index /*device*/) const noexcept {
  const allocator_statistics s = allocator_->statistics();
  return {s.allocated.value, s.reserved.value, s.peak_allocated.value, s.peak_reserved.value};
}

[[nodiscard]] ITERAGPU_INLINE result<void, allocation_error> simulated_synthetic_workload::load_model() {
  parameters_.clear();
  parameters_.reserve(4);
  for (const byte_count bytes : {sizes_.first_weight, sizes_.first_bias, sizes_.second_weight, sizes_.second_bias}) {
    auto parameter = allocate(bytes);
    if (!parameter) {
      return unexpected{std::move(parameter).error()};
    }
    parameters_.push_back(std::move(*parameter));
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE result<void, allocation_error> simulated_synthetic_workload::make_inputs() {
  auto input = allocate(sizes_.input);
  if (!input) {
    return unexpected{std::move(input).error()};
  }
  input_ = std::move(*input);
  return {};
}

[[nodiscard]] ITERAGPU_INLINE result<simulated_tensor, allocation_error> simulated_synthetic_workload::forward() {
  auto first = allocate(sizes_.hidden);
  if (!first) {
    return first;
  }
  if (!cublas_workspace_) {
    auto workspace = allocate(workspaces_.cublas);
    if (!workspace) {
      return workspace;
    }
    cublas_workspace_ = std::move(*workspace);
  }
  if (sizes_.cublaslt && !cublaslt_workspace_) {
    auto workspace = allocate(workspaces_.cublaslt);
    if (!workspace) {
      return workspace;
    }
    cublaslt_workspace_ = std::move(*workspace);
  }
  const auto activation = allocate(sizes_.hidden);
  if (!activation) {
    return unexpected{activation.error()};
  }
  first->release();
  return allocate(sizes_.output);
}

[[nodiscard]] ITERAGPU_INLINE result<simulated_tensor, allocation_error> simulated_synthetic_workload::allocate(
    byte_count bytes) {
  auto block = allocator_->allocate(bytes);
  if (!block.has_value()) {
    return unexpected{block.error()};
  }
  return simulated_tensor{*allocator_, *block};
}

[[nodiscard]] ITERAGPU_INLINE result<std::vector<phase_row>, prediction_error> predict_synthetic(
    const synthetic_shape& shape, element_type dtype, const blas_workspaces& workspaces, const protocol_plan& plan,
    std::optional<byte_count> capacity) {
  const auto sizes = tensor_bytes(shape, dtype);
  if (!sizes.has_value()) {
    return unexpected{
        prediction_error{std::nullopt, sizes.error() == shape_errc::zero_dimension
                                           ? "batch, context and width must be positive"
                                           : "the model or its activations would take more than 2^63-1 bytes"}};
  }
  caching_allocator allocator = capacity ? caching_allocator(*capacity) : caching_allocator();
  simulated_backend backend;
  simulated_counter counter(allocator);
  simulated_synthetic_workload work(allocator, *sizes, workspaces);
  auto measured = measure<simulated_backend, simulated_counter, simulated_synthetic_workload, frozen_clock>(
      backend, counter, work, device_index{0}, plan);
  if (!measured.has_value()) {
    measure_error failed = std::move(measured).error();
    if (failed.code == measure_errc::host_out_of_memory) {
      return unexpected{prediction_error{failed.phase, "the host ran out of memory while predicting"}};
    }
    return unexpected{prediction_error{failed.phase, std::move(failed.message)}};
  }
  return std::move(measured->phases);
}

}  // namespace iteragpu::memory::prediction

#endif  // ITERAGPU_MEMORY_PREDICTION_IMPL_SYNTHETIC_PREDICTION_IPP
