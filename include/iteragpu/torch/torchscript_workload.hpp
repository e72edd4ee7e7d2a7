#ifndef ITERAGPU_TORCH_TORCHSCRIPT_WORKLOAD_HPP
#define ITERAGPU_TORCH_TORCHSCRIPT_WORKLOAD_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <torch/script.h>
#include <torch/torch.h>

#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/torch/narrow.hpp"
#include "iteragpu/torch/synthetic_workload.hpp"

/// \file
/// A user's TorchScript module (torch::jit::load) and the inputs the user
/// described, as a workload of iteragpu::memory::measure(): model_load loads the
/// file onto the device, inputs fills each input from one generator seeded
/// with iteragpu::memory::input_seed, and each pass is forward under inference mode,
/// or with `train` forward and backward of the sum of the floating outputs.
namespace iteragpu::torch_adapter {

/// LibTorch's scalar type of an input dtype.
[[nodiscard]] constexpr c10::ScalarType scalar_type_of(memory::input_dtype d) noexcept {
  switch (d) {
    case memory::input_dtype::float32:
      return c10::ScalarType::Float;
    case memory::input_dtype::float16:
      return c10::ScalarType::Half;
    case memory::input_dtype::bfloat16:
      return c10::ScalarType::BFloat16;
    case memory::input_dtype::float64:
      return c10::ScalarType::Double;
    case memory::input_dtype::int64:
      return c10::ScalarType::Long;
    case memory::input_dtype::int32:
      return c10::ScalarType::Int;
    case memory::input_dtype::int16:
      return c10::ScalarType::Short;
    case memory::input_dtype::int8:
      return c10::ScalarType::Char;
    case memory::input_dtype::uint8:
      break;
  }
  return c10::ScalarType::Byte;
}

// GCC 12 sees a null table in the begin() of c10's ordered hash map (c10::Dict's
// storage) once it is inlined here: a false positive inside a LibTorch header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
/// Every floating tensor of a module's output, in order: a tensor, the
/// elements of a tuple or list, the values of a dict, at any depth.
inline void collect_floating_tensors(const c10::IValue& value, std::vector<torch::Tensor>& found) {
  if (value.isTensor()) {
    if (value.toTensor().is_floating_point()) {
      found.push_back(value.toTensor());
    }
  } else if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements()) {
      collect_floating_tensors(element, found);
    }
  } else if (value.isList()) {
    for (const auto& element : value.toListRef()) {
      collect_floating_tensors(element, found);
    }
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) {
      collect_floating_tensors(entry.value(), found);
    }
  }
}
#pragma GCC diagnostic pop

/// forward's arguments after `self`, as `name: Type`, with `(optional)` after
/// those that have a default.
[[nodiscard]] inline std::string expected_arguments(const c10::FunctionSchema& schema) {
  std::string text;
  const auto& arguments = schema.arguments();
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    text += (i == 1 ? "" : ", ") + arguments[i].name() + ": " + arguments[i].type()->annotation_str() +
            (arguments[i].default_value() ? " (optional)" : "");
  }
  return "(" + text + ")";
}

/// Whether an error is the device running out of memory: LibTorch's
/// OutOfMemoryError, or an error whose message says so (an allocation
/// failure wrapped by the code that met it, as a deserialiser may).
[[nodiscard]] inline bool is_out_of_memory(const std::exception& e) noexcept {
  return dynamic_cast<const c10::OutOfMemoryError*>(&e) != nullptr ||
         std::string_view(e.what()).find("out of memory") != std::string_view::npos;
}

/// The first refusal of a user's model, kept by the workloads over it
/// (torchscript_workload, aoti_workload): the refusal ends its phase with an
/// exception, and accepted() says why, so that the caller tells the user's
/// mistake from a failure of the GPU.
class refusal_keeper {
 public:
  /// A success while the model has refused nothing; once a phase has failed
  /// on the user's input, why.
  [[nodiscard]] result<void, memory::torchscript_run_errc> accepted() const noexcept {
    if (refusal_) {
      return unexpected{*refusal_};
    }
    return {};
  }

 protected:
  /// Keeps `why` and ends the phase with `message`.
  [[noreturn]] void refuse(memory::torchscript_run_errc why, const std::string& message) {
    refusal_ = why;
    throw std::invalid_argument(message);
  }
  /// In a handler of `e`, thrown while loading: the model is not loadable,
  /// unless the device ran out of memory (then `e` goes on).
  [[noreturn]] void refuse_to_load(const std::exception& e) {
    if (is_out_of_memory(e)) {
      throw;
    }
    refuse(memory::torchscript_run_errc::not_loadable, first_line(e.what()));
  }
  /// In a handler of `e`, thrown by a pass: the first pass that fails for
  /// another reason than memory refuses the inputs; any other goes on.
  [[noreturn]] void end_pass(bool first, const std::exception& e) {
    if (first && !refusal_ && !is_out_of_memory(e)) {
      refuse(memory::torchscript_run_errc::inputs_refused, first_line(e.what()));
    }
    throw;
  }

 private:
  std::optional<memory::torchscript_run_errc> refusal_{};
};

/// The inputs of a user's model on `device`, from one generator seeded with
/// input_seed, in the order given: floating inputs from the standard normal
/// distribution, integer inputs uniform in [0, input_high).
[[nodiscard]] inline std::vector<torch::Tensor> make_user_inputs(torch::Device device,
                                                                 const std::vector<memory::input_spec>& specs,
                                                                 std::uint64_t input_high) {
  auto generator = seeded_generator(device, memory::input_seed);
  std::vector<torch::Tensor> inputs;
  inputs.reserve(specs.size());
  for (const auto& spec : specs) {
    const auto options = torch::TensorOptions().device(device).dtype(scalar_type_of(spec.dtype));
    if (memory::is_floating(spec.dtype)) {
      inputs.push_back(torch::randn(spec.shape, generator, options));
    } else {
      inputs.push_back(torch::randint(0, narrow_or_throw<std::int64_t>(input_high), spec.shape, generator, options));
    }
  }
  return inputs;
}

/// A user's TorchScript module as a workload of iteragpu::memory::measure(). A
/// refusal (a file LibTorch cannot load, inputs forward's schema does not
/// take, a first pass that fails on the inputs for another reason than
/// memory) ends the phase with an exception and is kept: accepted() says
/// why, so that the caller tells the user's mistake from a failure of the GPU.
class torchscript_workload : public refusal_keeper {
 public:
  /// A workload on `device` over the module of `path`; nothing is loaded before load_model().
  torchscript_workload(torch::Device device, std::string path, std::vector<memory::input_spec> inputs,
                       bool train = false, std::uint64_t input_high = memory::default_input_high)
      : device_(device), path_(std::move(path)), specs_(std::move(inputs)), train_(train), input_high_(input_high) {}

  /// model_load: the module is read straight onto the device (its storages
  /// are created there), put in training or evaluation mode, and forward's
  /// schema is checked against the inputs.
  void load_model() {
    try {
      module_ = torch::jit::load(path_, device_);
    } catch (const std::exception& e) {
      refuse_to_load(e);
    }
    module_->train(train_);
    check_arguments();
  }

  /// inputs: each input on the device, as make_user_inputs() makes them.
  void make_inputs() {
    inputs_.clear();
    inputs_ = make_user_inputs(device_, specs_, input_high_);
  }

  /// One pass. Inference: forward under inference mode. Training: the
  /// parameters' gradients are set to none, then forward, then backward of
  /// the sum of every floating output's sum; the gradients stay on the
  /// parameters, as PyTorch keeps them, until the next pass.
  [[nodiscard]] c10::IValue forward() {
    const bool first = !ran_;
    ran_ = true;
    try {
      if (!train_) {
        const c10::InferenceMode inference;
        return module_->forward(arguments());
      }
      for (auto p : module_->parameters()) {
        p.mutable_grad() = torch::Tensor();
      }
      auto output = module_->forward(arguments());
      std::vector<torch::Tensor> floating;
      collect_floating_tensors(output, floating);
      torch::Tensor loss;
      for (const auto& t : floating) {
        loss = loss.defined() ? loss + t.sum() : t.sum();
      }
      if (!loss.defined() || !loss.requires_grad()) {
        refuse(memory::torchscript_run_errc::nothing_to_train,
               "no floating output of forward depends on a parameter that requires a gradient");
      }
      loss.backward();
      return output;
    } catch (const std::exception& e) {
      end_pass(first, e);
    }
  }

  /// The module, once load_model() has run.
  [[nodiscard]] const std::optional<torch::jit::Module>& module() const noexcept { return module_; }
  /// The inputs, once make_inputs() has run.
  [[nodiscard]] const std::vector<torch::Tensor>& inputs() const noexcept { return inputs_; }

 private:
  // forward takes the inputs given when each is a Tensor where the schema
  // accepts one, and their number lies between the required and all the
  // arguments after self.
  void check_arguments() {
    const auto& schema = module_->get_method("forward").function().getSchema();
    const auto& arguments = schema.arguments();
    const std::size_t all = arguments.empty() ? 0 : arguments.size() - 1;
    std::size_t required = 0;
    for (std::size_t i = 1; i < arguments.size(); ++i) {
      required = arguments[i].default_value() ? required : i;
    }
    bool accepted = specs_.size() >= required && specs_.size() <= all;
    for (std::size_t i = 0; accepted && i < specs_.size(); ++i) {
      accepted = c10::TensorType::get()->isSubtypeOf(*arguments[i + 1].type());
    }
    if (!accepted) {
      refuse(memory::torchscript_run_errc::wrong_inputs, expected_arguments(schema));
    }
  }

  [[nodiscard]] std::vector<c10::IValue> arguments() const { return {inputs_.begin(), inputs_.end()}; }

  torch::Device device_;
  std::string path_;
  std::vector<memory::input_spec> specs_;
  bool train_{false};
  std::uint64_t input_high_{memory::default_input_high};
  std::optional<torch::jit::Module> module_{};
  std::vector<torch::Tensor> inputs_;
  bool ran_{false};
};

static_assert(workload<torchscript_workload>);

/// Measures a user's model workload (a TorchScript module, an AOTInductor
/// package) through iteragpu::memory::measure() with `backend` and `counter`: a
/// failed phase carries the workload's refusal, when it refused the user's
/// input.
template <measuring_backend B, memory_counter C, workload W>
[[nodiscard]] result<measurement, memory::torchscript_run_error> measure_user_workload(
    B& backend, C& counter, W& work, const memory::torchscript_run& run) {
  auto measured = iteragpu::memory::measure(backend, counter, work, run.device, run.plan);
  if (!measured) {
    auto e = std::move(measured).error();
    if (e.code == measure_errc::host_out_of_memory) {
      throw std::bad_alloc();  // the host's failure, as LibTorch's own allocations report it
    }
    const auto accepted = work.accepted();
    return unexpected{memory::torchscript_run_error{
        accepted ? memory::torchscript_run_errc::phase_failed : accepted.error(), e.phase, std::move(e.message)}};
  }
  return std::move(*measured);
}

/// Measures the module of `run` through iteragpu::memory::measure() on `device`
/// with `backend` and `counter`: what an integrator calls with policies of
/// their own (examples/torchscript_measure.cpp).
template <measuring_backend B, memory_counter C>
[[nodiscard]] result<measurement, memory::torchscript_run_error> measure_torchscript_module(
    B& backend, C& counter, const torch::Device& device, const memory::torchscript_run& run) {
  torchscript_workload work(device, run.path, run.inputs, run.train, run.input_high);
  return measure_user_workload(backend, counter, work, run);
}

}  // namespace iteragpu::torch_adapter

#endif  // ITERAGPU_TORCH_TORCHSCRIPT_WORKLOAD_HPP
