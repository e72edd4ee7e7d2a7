#ifndef ITERAGPU_MEMORY_GPU_RUNTIME_HPP
#define ITERAGPU_MEMORY_GPU_RUNTIME_HPP

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/result.hpp"

/// \file
/// A GPU runtime as the programs use it: something that describes the
/// environment and, where a GPU can be reached, measures the synthetic
/// network. LibTorch's is torch_adapter::libtorch_runtime
/// (iteragpu/torch/runtime.hpp); a build without LibTorch uses
/// unavailable_runtime, which can only say why no GPU is reachable.
namespace iteragpu::memory {

/// One measurement of the synthetic network, as asked.
struct synthetic_run {
  device_index device;                        ///< the GPU to measure on
  synthetic_shape shape;                      ///< batch, context and width
  element_type dtype{element_type::float32};  ///< the element type of weights and inputs
  protocol_plan plan;                         ///< warm-up passes and repeats
};

/// What the `environment` command asks of a GPU runtime: the environment report for a device.
template <class R>
concept environment_runtime = requires(R& r, device_index d) {
  { r.environment(d) } -> std::same_as<environment_report>;
};

/// measure_synthetic() runs iteragpu::memory::measure() over the runtime's backend,
/// counter and the synthetic workload on run.device.
template <class R>
concept synthetic_runtime = environment_runtime<R> && requires(R& r, const synthetic_run& run) {
  { r.measure_synthetic(run) } -> std::same_as<result<measurement, measure_error>>;
};

/// The step of recording the allocator's history that failed.
enum class memory_history_step {
  start,     ///< start_memory_history(): the recording did not start
  snapshot,  ///< memory_snapshot(): the history could not be read
};

/// Why the allocator's history could not be recorded or read: the step, and
/// LibTorch's own message (its first line), which report::describe() shows.
struct memory_history_error {
  memory_history_step step{memory_history_step::start};  ///< the step that failed
  std::string libtorch_message;                          ///< the first line of LibTorch's message
  friend bool operator==(const memory_history_error&, const memory_history_error&) = default;
};

/// Optional: the allocator's history, as PyTorch's memory snapshot (the
/// pickle torch.cuda._memory_viz reads), recorded from start_memory_history()
/// on, with at most `max_entries` trace entries.
template <class R>
concept memory_history_recording = requires(R& r, std::size_t max_entries) {
  { r.start_memory_history(max_entries) } -> std::same_as<result<void, memory_history_error>>;
  { r.memory_snapshot() } -> std::same_as<result<std::string, memory_history_error>>;
};

/// The bound on the snapshot's trace: a whole measurement of the synthetic
/// network allocates a few dozen blocks per pass.
inline constexpr std::size_t memory_snapshot_entries = 100'000;

/// The runtime of a build in which no GPU can be reached.
struct unavailable_runtime {
  std::string_view reason;  ///< why no GPU can be reached

  /// The report of a build without a GPU runtime: versions, no GPU, and the reason.
  [[nodiscard]] environment_report environment(device_index d) const;
};

static_assert(environment_runtime<unavailable_runtime> && !synthetic_runtime<unavailable_runtime>);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/gpu_runtime.ipp"
#endif

#endif  // ITERAGPU_MEMORY_GPU_RUNTIME_HPP
