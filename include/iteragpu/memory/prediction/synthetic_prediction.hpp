#ifndef ITERAGPU_MEMORY_PREDICTION_SYNTHETIC_PREDICTION_HPP
#define ITERAGPU_MEMORY_PREDICTION_SYNTHETIC_PREDICTION_HPP

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/workspace.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The measurement of the synthetic network predicted without a GPU: a
/// counter, a backend and a workload that share one simulated caching
/// allocator and run through the measuring protocol, so that every phase
/// row is predicted in the protocol's own order.
///
/// The workload replays, in order, the allocations and frees that LibTorch
/// makes for iteragpu/torch/synthetic_workload.hpp:
///   model_load   module->to(device, dtype) converts each parameter on the
///                CPU and copies it over: one allocation each, W1 [4w, w],
///                b1 [4w], W2 [w, 4w], b2 [w], and no temporary on the GPU
///                (the measured model_load rows peak at their end value).
///   inputs       randn [batch, context, w] straight on the GPU.
///   one pass     at::linear on the contiguous 3-D input flattens it into
///                one at::addmm [rows, w] x [w, 4w] (rows = batch x
///                context): its output [rows, 4w] is allocated first; on
///                the first product of the process the cuBLAS workspace and,
///                on the cuBLASLt path, the cuBLASLt workspace follow (see
///                prediction/workspace.hpp); at::gelu allocates its output
///                [rows, 4w]; the first output is freed when that statement
///                ends; the second at::addmm allocates [rows, w]; GELU's
///                output is freed when forward() returns, after the pass's
///                output exists.
/// Times are not predicted: the backend's timers and the clock read zero.
namespace iteragpu::memory::prediction {

/// A simulated tensor's storage: it frees its block when it goes, as a
/// tensor returns its storage to the caching allocator.
class simulated_tensor {
 public:
  /// Holds no block.
  simulated_tensor() = default;
  /// Owns `block` of `allocator`.
  simulated_tensor(caching_allocator& allocator, block_handle block) noexcept : allocator_(&allocator), block_(block) {}
  /// Takes the other's block; the other holds none after.
  simulated_tensor(simulated_tensor&& other) noexcept
      : allocator_(std::exchange(other.allocator_, nullptr)), block_(other.block_) {}
  /// Frees this tensor's block, then takes the other's.
  simulated_tensor& operator=(simulated_tensor&& other) noexcept;
  simulated_tensor(const simulated_tensor&) = delete;
  simulated_tensor& operator=(const simulated_tensor&) = delete;
  ~simulated_tensor() { release(); }

  /// Frees the block now, as a tensor that goes out of scope; nothing afterwards.
  void release() noexcept;

 private:
  caching_allocator* allocator_{nullptr};
  block_handle block_;
};

/// The allocator's refusal in a sentence with its figures, as the protocol
/// puts a failed phase of the simulated workload in words.
[[nodiscard]] std::string describe(const allocation_error& f);

/// The counter: reads the simulated allocator (one device; the index is not
/// looked at).
class simulated_counter {
 public:
  /// Reads `allocator`, which must outlive the counter.
  explicit simulated_counter(caching_allocator& allocator) noexcept : allocator_(&allocator) {}

  /// The allocator's allocated and reserved bytes and their peaks.
  [[nodiscard]] allocator_reading read(device_index /*device*/) const noexcept;
  /// Sets each peak to its current value, as LibTorch's reset does.
  void reset_peaks(device_index /*device*/) noexcept { allocator_->reset_peaks(); }

 private:
  caching_allocator* allocator_;
};

/// The backend: nothing runs, so there is nothing to wait for and no time to
/// read. Rows measured with it carry zero seconds, which are not predictions.
struct simulated_backend {
  static constexpr std::string_view name = "prediction";  ///< the backend's name in the outputs

  /// A timer that reads zero: nothing runs.
  struct timer {
    static void start() noexcept {}                                         ///< nothing to mark
    static void stop() noexcept {}                                          ///< nothing to mark
    [[nodiscard]] static double elapsed_seconds() noexcept { return 0.0; }  ///< always 0
  };

  static void synchronize(device_index /*device*/) noexcept {}                            ///< nothing to wait for
  [[nodiscard]] static timer make_timer(device_index /*device*/) noexcept { return {}; }  ///< a timer that reads zero
};

/// The byte sizes of the synthetic network's tensors, and which matrix path
/// its products take.
struct synthetic_tensor_bytes {
  byte_count first_weight;   ///< W1 [4w, w]
  byte_count first_bias;     ///< b1 [4w]
  byte_count second_weight;  ///< W2 [w, 4w]
  byte_count second_bias;    ///< b2 [w]
  byte_count input;          ///< [batch, context, w]
  byte_count hidden;         ///< the first linear's and GELU's outputs, [batch, context, 4w]
  byte_count output;         ///< [batch, context, w]
  bool cublaslt{false};      ///< the products take at::addmm's cuBLASLt path
  friend constexpr bool operator==(const synthetic_tensor_bytes&, const synthetic_tensor_bytes&) = default;
};

/// Why a shape has no tensor sizes.
enum class shape_errc {
  zero_dimension,  ///< batch, context and width must be positive, as on the command line
  too_large,       ///< a tensor of more than 2^63-1 bytes, which LibTorch cannot index
};

/// The byte sizes of the synthetic network's tensors for `shape` in `dtype`, as LibTorch
/// allocates them, and whether its products take the cuBLASLt path.
[[nodiscard]] constexpr result<synthetic_tensor_bytes, shape_errc> tensor_bytes(const synthetic_shape& shape,
                                                                                element_type dtype) noexcept {
  if (shape.batch == 0 || shape.context == 0 || shape.width == 0) {
    return unexpected{shape_errc::zero_dimension};
  }
  constexpr auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const std::uint64_t element = bytes_per_element(dtype);
  // The product of the factors in bytes, or nothing past int64.
  const auto bytes = [&](std::uint64_t a, std::uint64_t b, std::uint64_t c) -> std::optional<byte_count> {
    const auto ab = checked_mul(a, b);
    const auto abc = ab ? checked_mul(*ab, c) : std::nullopt;
    const auto total = abc ? checked_mul(*abc, element) : std::nullopt;
    if (!total || *total > limit) {
      return std::nullopt;
    }
    return byte_count{*total};
  };
  const auto hidden_width = checked_mul(shape.width, hidden_multiplier);
  const auto rows = checked_mul(shape.batch, shape.context);
  if (!hidden_width || !rows) {
    return unexpected{shape_errc::too_large};
  }
  const auto weight = bytes(*hidden_width, shape.width, 1);
  const auto first_bias = bytes(*hidden_width, 1, 1);
  const auto second_bias = bytes(shape.width, 1, 1);
  const auto input = bytes(*rows, shape.width, 1);
  const auto hidden = bytes(*rows, *hidden_width, 1);
  if (!weight || !first_bias || !second_bias || !input || !hidden) {
    return unexpected{shape_errc::too_large};
  }
  return synthetic_tensor_bytes{*weight, *first_bias, *weight, *second_bias,
                                *input,  *hidden,     *input,  addmm_uses_cublaslt(shape.width, *hidden_width)};
}

/// The synthetic network's workload, replayed on the simulated allocator.
class simulated_synthetic_workload {
 public:
  /// Replays on `allocator`, which must outlive the workload, with the given tensor and
  /// workspace sizes.
  simulated_synthetic_workload(caching_allocator& allocator, const synthetic_tensor_bytes& sizes,
                               const blas_workspaces& workspaces) noexcept
      : allocator_(&allocator), sizes_(sizes), workspaces_(workspaces) {}

  /// model_load: the four parameters, one allocation each; the allocator's refusal when one
  /// does not fit, where LibTorch raises c10::OutOfMemoryError.
  [[nodiscard]] result<void, allocation_error> load_model();

  /// inputs: the input tensor, or the allocator's refusal.
  [[nodiscard]] result<void, allocation_error> make_inputs();

  /// One pass: what it allocates and frees, in LibTorch's order; returns the pass's output,
  /// whose destruction frees it, or the allocator's first refusal.
  [[nodiscard]] result<simulated_tensor, allocation_error> forward();

 private:
  [[nodiscard]] result<simulated_tensor, allocation_error> allocate(byte_count bytes);

  caching_allocator* allocator_;
  synthetic_tensor_bytes sizes_;
  blas_workspaces workspaces_;
  std::vector<simulated_tensor> parameters_;
  simulated_tensor input_;
  // Kept for the life of the workload, as LibTorch keeps them for the
  // process's (handle, stream) pair.
  std::optional<simulated_tensor> cublas_workspace_{};
  std::optional<simulated_tensor> cublaslt_workspace_{};
};

/// Why there is no prediction: the shape, or the phase that runs out of
/// memory on a device of the given capacity.
struct prediction_error {
  std::optional<phase_kind> phase{};  ///< the phase that would run out of memory; nothing when the shape is refused
  std::string message;                ///< what happened, in a sentence
  friend bool operator==(const prediction_error&, const prediction_error&) = default;
};

/// A clock that never moves: the host-time column of a predicted row is 0.
struct frozen_clock {
  using duration = std::chrono::steady_clock::duration;      ///< as std::chrono::steady_clock's
  using rep = duration::rep;                                 ///< as std::chrono::steady_clock's
  using period = duration::period;                           ///< as std::chrono::steady_clock's
  using time_point = std::chrono::time_point<frozen_clock>;  ///< a point of this clock
  static constexpr bool is_steady = true;                    ///< never goes back
  /// Always the clock's epoch.
  [[nodiscard]] static time_point now() noexcept { return time_point{}; }
};

static_assert(measuring_backend<simulated_backend>);
static_assert(memory_counter<simulated_counter>);
static_assert(workload<simulated_synthetic_workload>);
static_assert(phase_clock<frozen_clock>);

/// Every phase row of a measurement of the synthetic network, through
/// iteragpu::memory::measure: the six byte fields as LibTorch's caching allocator
/// would read them, the times zero. With a capacity (the bytes the
/// allocator may reserve on the device), the failure names the phase that
/// would run out of memory.
[[nodiscard]] result<std::vector<phase_row>, prediction_error> predict_synthetic(
    const synthetic_shape& shape, element_type dtype, const blas_workspaces& workspaces, const protocol_plan& plan,
    std::optional<byte_count> capacity = std::nullopt);

}  // namespace iteragpu::memory::prediction

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/impl/synthetic_prediction.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_SYNTHETIC_PREDICTION_HPP
