#ifndef ITERAGPU_TORCH_AOTI_WORKLOAD_HPP
#define ITERAGPU_TORCH_AOTI_WORKLOAD_HPP

/// \file
/// A user's AOTInductor package (the `.pt2` file that
/// torch._inductor.aoti_compile_and_package writes from a torch.export
/// program) as a workload of iteragpu::memory::measure(), read by LibTorch's
/// AOTIModelPackageLoader. That loader exists from LibTorch 2.6 on: with an
/// older LibTorch (Debian 12's 1.13) this header declares nothing and
/// ITERAGPU_TORCH_HAS_AOTI stays undefined. A package is compiled code for
/// inference: there is no training pass.
#include <torch/torch.h>

#if __has_include(<torch/csrc/inductor/aoti_package/model_package_loader.h>)
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/torch/synthetic_workload.hpp"
#include "iteragpu/torch/torchscript_workload.hpp"

/// Defined where the LibTorch in use reads AOTInductor packages.
#define ITERAGPU_TORCH_HAS_AOTI 1

namespace iteragpu::torch_adapter {

/// A user's AOTInductor package as a workload of iteragpu::memory::measure():
/// model_load loads the package (its compiled model and its constants) for
/// the current device, inputs are made as for a TorchScript module, and
/// each pass runs the compiled model under inference mode. A refusal (a
/// file the loader cannot read, a first pass that fails on the inputs for
/// another reason than memory) ends the phase with an exception and is kept:
/// accepted() says why.
class aoti_workload : public refusal_keeper {
 public:
  /// A workload on `device` over the package of `path`; nothing is loaded before load_model().
  aoti_workload(torch::Device device, std::string path, std::vector<memory::input_spec> inputs,
                std::uint64_t input_high = memory::default_input_high)
      : device_(device), path_(std::move(path)), specs_(std::move(inputs)), input_high_(input_high) {}

  /// model_load: the package's model and constants, loaded by AOTIModelPackageLoader.
  void load_model() {
    try {
      loader_ = std::make_unique<torch::inductor::AOTIModelPackageLoader>(path_);
    } catch (const std::exception& e) {
      refuse_to_load(e);
    }
  }

  /// inputs: as make_user_inputs() makes them, as for a TorchScript module.
  void make_inputs() {
    inputs_.clear();
    inputs_ = make_user_inputs(device_, specs_, input_high_);
  }

  /// One pass: the compiled model on the inputs, under inference mode.
  [[nodiscard]] std::vector<torch::Tensor> forward() {
    const bool first = !ran_;
    ran_ = true;
    try {
      const c10::InferenceMode inference;
      return loader_->run(inputs_);
    } catch (const std::exception& e) {
      end_pass(first, e);
    }
  }

 private:
  torch::Device device_;
  std::string path_;
  std::vector<memory::input_spec> specs_;
  std::uint64_t input_high_{memory::default_input_high};
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
  std::vector<torch::Tensor> inputs_;
  bool ran_{false};
};

static_assert(memory::workload<aoti_workload>);

/// Measures the package of `run` through iteragpu::memory::measure() on `device`
/// with `backend` and `counter`.
template <memory::measuring_backend B, memory::memory_counter C>
[[nodiscard]] result<memory::measurement, memory::torchscript_run_error> measure_aoti_package(
    B& backend, C& counter, const torch::Device& device, const memory::torchscript_run& run) {
  aoti_workload work(device, run.path, run.inputs, run.input_high);
  return measure_user_workload(backend, counter, work, run);
}

}  // namespace iteragpu::torch_adapter

#endif  // __has_include AOTIModelPackageLoader

#endif  // ITERAGPU_TORCH_AOTI_WORKLOAD_HPP
