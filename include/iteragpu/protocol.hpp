#ifndef ITERAGPU_PROTOCOL_HPP
#define ITERAGPU_PROTOCOL_HPP

#include <chrono>
#include <concepts>
#include <cstdint>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "iteragpu/device.hpp"
#include "iteragpu/policies/backend.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/policies/memory_counter.hpp"

// The phase protocol: the order of operations of one bounded measurement,
// written once over the three policies and a workload. It includes no
// LibTorch header, so its order is tested on the CPU with recording policies.
namespace iteragpu {

enum class phase_kind { model_load, inputs, cold_forward, warmup, warm_forward };

[[nodiscard]] constexpr std::string_view name_of(phase_kind p) noexcept {
  switch (p) {
    case phase_kind::model_load:
      return "model_load";
    case phase_kind::inputs:
      return "inputs";
    case phase_kind::cold_forward:
      return "cold_forward";
    case phase_kind::warmup:
      return "warmup";
    case phase_kind::warm_forward:
      return "warm_forward";
  }
  return "unknown";
}

// One row of the measurement. `seconds` is host wall time around the
// synchronised operation (host overhead and synchronisation included);
// `gpu_seconds` is the device-event time of the same work.
struct phase_row {
  phase_kind phase{phase_kind::model_load};
  std::optional<std::uint64_t> repeat;  // 0-based for warm_forward only
  double seconds{0};
  double gpu_seconds{0};
  std::uint64_t baseline_allocated_bytes{0};
  std::uint64_t baseline_reserved_bytes{0};
  std::uint64_t end_allocated_bytes{0};
  std::uint64_t end_reserved_bytes{0};
  std::uint64_t peak_allocated_bytes{0};
  std::uint64_t peak_reserved_bytes{0};
};

// A failure inside a phase (a GPU out-of-memory error above all).
// Its message is the first line of the cause: LibTorch appends a C++ stack
// trace to its errors, which is no message for a person.
class measurement_failure : public std::runtime_error {
 public:
  measurement_failure(phase_kind phase, std::string_view what)
      : std::runtime_error(std::string(what.substr(0, what.find('\n')))), phase_(phase) {}
  [[nodiscard]] phase_kind phase() const noexcept { return phase_; }

 private:
  phase_kind phase_;
};

// What the protocol runs. forward() returns the pass's output; the output
// lives as long as the returned object.
template <class W>
concept workload = requires(W& w) {
  requires dtype_policy<typename W::dtype>;
  { w.load_model() } -> std::same_as<void>;
  { w.make_inputs() } -> std::same_as<void>;
  { w.forward() } -> std::move_constructible;
};

struct protocol_plan {
  std::uint64_t warmup{0};   // passes, all in one `warmup` row
  std::uint64_t repeats{1};  // one `warm_forward` row each
};

template <dtype_policy D, measuring_backend B, memory_counter C, class Clock = std::chrono::steady_clock>
class phase_protocol {
 public:
  explicit phase_protocol(device_index device) : device_(device) {}

  // Runs every phase in order: model_load, inputs, cold_forward, warmup,
  // then one warm_forward per repeat. Weights and inputs live in the
  // workload across passes; the allocator's cache is never emptied.
  template <workload W>
    requires std::same_as<typename W::dtype, D>
  [[nodiscard]] std::vector<phase_row> run(W& work, const protocol_plan& plan) const {
    std::vector<phase_row> rows;
    rows.reserve(4 + static_cast<std::size_t>(plan.repeats));
    rows.push_back(measure(phase_kind::model_load, std::nullopt, [&] {
      work.load_model();
      return std::monostate{};
    }));
    rows.push_back(measure(phase_kind::inputs, std::nullopt, [&] {
      work.make_inputs();
      return std::monostate{};
    }));
    rows.push_back(measure(phase_kind::cold_forward, std::nullopt, [&] { return work.forward(); }));
    rows.push_back(measure(phase_kind::warmup, std::nullopt, [&] {
      // Each pass's output is released before the next pass; the last one
      // is kept until the phase's end reading.
      std::optional<decltype(work.forward())> last;
      for (std::uint64_t i = 0; i < plan.warmup; ++i) {
        last.reset();
        last.emplace(work.forward());
      }
      return last;
    }));
    for (std::uint64_t r = 0; r < plan.repeats; ++r) {
      rows.push_back(measure(phase_kind::warm_forward, r, [&] { return work.forward(); }));
    }
    return rows;
  }

 private:
  // synchronise, baselines, peak reset, operation, synchronise, end values
  // and peaks. The operation's result is destroyed only after the end
  // reading, when this function returns, before the next phase starts.
  template <class Operation>
  [[nodiscard]] phase_row measure(phase_kind phase, std::optional<std::uint64_t> repeat, Operation&& operation) const {
    try {
      B::synchronize(device_);
      const allocator_reading baseline = C::read(device_);
      C::reset_peaks(device_);
      auto timer = B::make_timer(device_);
      const auto started = Clock::now();
      timer.start();
      auto kept = std::forward<Operation>(operation)();
      timer.stop();
      B::synchronize(device_);
      const auto finished = Clock::now();
      const allocator_reading end = C::read(device_);
      phase_row row;
      row.phase = phase;
      row.repeat = repeat;
      row.seconds = std::chrono::duration<double>(finished - started).count();
      row.gpu_seconds = timer.elapsed_seconds();
      row.baseline_allocated_bytes = baseline.allocated_bytes;
      row.baseline_reserved_bytes = baseline.reserved_bytes;
      row.end_allocated_bytes = end.allocated_bytes;
      row.end_reserved_bytes = end.reserved_bytes;
      row.peak_allocated_bytes = end.peak_allocated_bytes;
      row.peak_reserved_bytes = end.peak_reserved_bytes;
      static_cast<void>(kept);
      return row;
    } catch (const std::exception& e) {
      throw measurement_failure(phase, e.what());
    }
  }

  device_index device_;
};

}  // namespace iteragpu

#endif  // ITERAGPU_PROTOCOL_HPP
