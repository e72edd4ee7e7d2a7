#ifndef ITERAGPU_MEMORY_PROTOCOL_HPP
#define ITERAGPU_MEMORY_PROTOCOL_HPP

#include <chrono>
#include <concepts>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/memory/policies/backend.hpp"
#include "iteragpu/memory/policies/gpu_state.hpp"
#include "iteragpu/memory/policies/memory_counter.hpp"
#include "iteragpu/memory/policies/workload.hpp"
#include "iteragpu/memory/stopping_rule.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The phase protocol: the order of operations of one bounded measurement,
/// written once over three policy objects (a backend, a memory counter, a
/// workload) and a clock. It includes no LibTorch header: the same function
/// measures on a GPU through LibTorch, predicts through a simulated
/// allocator, and runs on the CPU with an integrator's own policies.
namespace iteragpu::memory {

/// The phases of a measurement, in the order they run.
enum class phase_kind { model_load, inputs, cold_forward, warmup, warm_forward };

/// The phase's name in JSON and text.
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

/// One row of a measurement. `seconds` is host wall time around the
/// synchronised operation (host overhead and synchronisation included);
/// `gpu_seconds` is the device-event time of the same work. The byte fields
/// are the memory counter's. The device's used memory (total minus free, the
/// whole device as the runtime reports it: this process's CUDA context and
/// libraries, and other processes, included) is there when the backend
/// reports device memory; the GPU's state at the end of the phase (clocks,
/// power, temperature, throttle reasons) when it samples it.
struct phase_row {
  phase_kind phase{phase_kind::model_load};   ///< which phase
  std::optional<std::uint64_t> repeat{};      ///< 0-based for warm_forward only
  double seconds{0};                          ///< host wall time of the phase, synchronisation included
  double gpu_seconds{0};                      ///< device-event time of the same work
  std::uint64_t baseline_allocated_bytes{0};  ///< the counter's allocated bytes before the phase
  std::uint64_t baseline_reserved_bytes{0};   ///< the counter's reserved bytes before the phase
  std::uint64_t end_allocated_bytes{0};       ///< allocated bytes at the end, the pass's output still held
  std::uint64_t end_reserved_bytes{0};        ///< reserved bytes at the end
  std::uint64_t peak_allocated_bytes{0};      ///< the largest allocated during the phase (reset at its start)
  std::uint64_t peak_reserved_bytes{0};       ///< the largest reserved during the phase
  /// Total minus free before the phase, where the backend reports device memory.
  std::optional<std::uint64_t> baseline_device_used_bytes{};
  std::optional<std::uint64_t> end_device_used_bytes{};  ///< total minus free at the end
  std::optional<gpu_state> state_at_end{};               ///< where the backend samples it (gpu_state_reporting)
};

/// How many passes a measurement makes after its cold_forward row.
struct protocol_plan {
  std::uint64_t warmup{0};   ///< passes, all in one `warmup` row
  std::uint64_t repeats{1};  ///< one `warm_forward` row each, when `until` is empty
  /// `--repeats auto`: warm_forward rows until the rule stops, fed with the
  /// rows' gpu_seconds and the clock's time since the first repeat started.
  std::optional<stopping_rule> until{};
};

/// The rows of a measurement, and why the repeats stopped.
struct measurement {
  std::vector<phase_row> phases;            ///< one row per phase, in order; one per repeat for warm_forward
  std::optional<stop_reason> stopped_by{};  ///< with a plan's `until`
};

/// Optional: the GPU's state (clocks, power, temperature, throttle reasons),
/// sampled at the end of each phase, outside the timed window.
template <class B>
concept gpu_state_reporting = requires(B& b, device_index device) {
  { b.gpu_state(device) } -> std::same_as<gpu_state>;
};

/// What ended a measurement early.
enum class measure_errc {
  policy_failed,       ///< a policy threw, or returned a failed result (a GPU out of memory above all)
  host_out_of_memory,  ///< std::bad_alloc: the host ran out of memory; no failure of the workload
};

/// A failure inside a phase (a GPU out-of-memory error above all). The
/// message is the first line of the cause: LibTorch appends a C++ stack
/// trace to its errors, which is no message for a person.
struct measure_error {
  phase_kind phase{phase_kind::model_load};        ///< the phase that failed
  std::string message;                             ///< the first line of the cause; empty for the host
  measure_errc code{measure_errc::policy_failed};  ///< a failure of a policy, or of the host
};

/// What measure() asks of a clock: now(), whose differences convert to
/// seconds. std::chrono's clocks qualify (now() is static); a test's clock
/// may keep its time in a member.
template <class Clock>
concept phase_clock = requires(Clock& clock) {
  { std::chrono::duration<double>(clock.now() - clock.now()) };
};

namespace detail {

template <class T>
struct failed_pass_of : std::false_type {};
template <class R>
struct failed_pass_of<std::optional<R>> : std::bool_constant<failable<R>> {};

// The words of an operation's failed result, or nothing when it did not fail
// (or can fail only by an exception). The warmup keeps its last pass in an
// optional.
template <class Kept>
[[nodiscard]] std::optional<std::string> failure_of(const Kept& kept) {
  if constexpr (failable<Kept>) {
    if (!kept.has_value()) {
      return first_line(describe(kept.error()));
    }
  } else if constexpr (failed_pass_of<Kept>::value) {
    if (kept.has_value() && !kept->has_value()) {
      return first_line(describe(kept->error()));
    }
  }
  return std::nullopt;
}

// The warmup's passes: each pass's output is released before the next pass;
// the last one is kept until the phase's end reading, and a pass that fails
// with a failed result ends the phase.
template <workload W>
[[nodiscard]] auto warmup_passes(W& work, std::uint64_t passes) {
  std::optional<decltype(work.forward())> last{};
  for (std::uint64_t i = 0; i < passes; ++i) {
    last.reset();
    last.emplace(work.forward());
    if (failure_of(last)) {
      break;
    }
  }
  return last;
}

// Runs a setup step of the workload: its failed result is kept for the
// phase runner, and a step that returns nothing gives it nothing to keep.
template <class Step>
[[nodiscard]] auto setup(Step&& step) {
  if constexpr (std::is_void_v<decltype(step())>) {
    std::forward<Step>(step)();
    return std::monostate{};
  } else {
    return std::forward<Step>(step)();
  }
}

template <measuring_backend B, memory_counter C, phase_clock Clock>
class phase_runner {
 public:
  phase_runner(B& backend, C& counter, Clock& clock, device_index device) noexcept
      : backend_(backend), counter_(counter), clock_(clock), device_(device) {}

  // synchronise, baselines, peak reset, operation, synchronise, end values
  // and peaks. The operation's result is destroyed only after the end
  // reading, when this function returns, before the next phase starts. An
  // operation that returns a failed result ends the phase there, as one that
  // ends in an exception does.
  template <class Operation>
  [[nodiscard]] result<phase_row, measure_error> run(phase_kind phase, std::optional<std::uint64_t> repeat,
                                                     Operation&& operation) {
    phase_row row;
    row.phase = phase;
    row.repeat = repeat;
    backend_.synchronize(device_);
    const allocator_reading baseline = counter_.read(device_);
    if constexpr (device_memory_reporting<B>) {
      row.baseline_device_used_bytes = used(backend_.memory(device_));
    }
    counter_.reset_peaks(device_);
    auto timer = backend_.make_timer(device_);
    const auto started = clock_.now();
    timer.start();
    auto kept = std::forward<Operation>(operation)();
    if (auto failure = failure_of(kept)) {
      return unexpected{measure_error{phase, std::move(*failure)}};
    }
    timer.stop();
    backend_.synchronize(device_);
    const auto finished = clock_.now();
    const allocator_reading end = counter_.read(device_);
    if constexpr (device_memory_reporting<B>) {
      row.end_device_used_bytes = used(backend_.memory(device_));
    }
    if constexpr (gpu_state_reporting<B>) {
      row.state_at_end = backend_.gpu_state(device_);
    }
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
  }

 private:
  [[nodiscard]] static std::uint64_t used(const device_memory& m) noexcept {
    return m.total_bytes >= m.free_bytes ? m.total_bytes - m.free_bytes : 0;
  }

  B& backend_;
  C& counter_;
  Clock& clock_;
  device_index device_;
};

}  // namespace detail

/// Runs every phase in order on `device`: model_load, inputs, cold_forward,
/// warmup (all plan.warmup passes in one row), then one warm_forward row
/// per repeat (plan.repeats of them, or as many as plan.until asks). Each phase synchronises the device, reads the baselines,
/// resets the peaks, runs, synchronises, and reads the end values and peaks;
/// a pass's output still exists at the end reading and is released before
/// the next pass. Weights and inputs live in the workload across passes; the
/// allocator's cache is never emptied. A policy that raises an exception, or whose
/// operation returns a failed result (see failable), ends the measurement:
/// the error names the phase and keeps the first line of the exception's
/// message or of the failure's description. std::bad_alloc, the host out of
/// memory, is no failure of a phase: its error says so by its cause
/// (measure_errc::host_out_of_memory). No exception comes out.
template <measuring_backend B, memory_counter C, workload W, phase_clock Clock>
[[nodiscard]] result<measurement, measure_error> measure(B& backend, C& counter, W& work, device_index device,
                                                         const protocol_plan& plan, Clock& clock) {
  detail::phase_runner<B, C, Clock> runner(backend, counter, clock, device);
  measurement m;
  // A hint only, bounded so that a plan's count never asks for memory up front.
  const std::uint64_t repeats_hint = plan.until ? plan.until->parameters().min_repeats : plan.repeats;
  m.phases.reserve(4 + static_cast<std::size_t>(repeats_hint < pass_limit ? repeats_hint : pass_limit));
  phase_kind current = phase_kind::model_load;
  // Keeps each phase's row; a failed phase ends the measurement with its failure.
  std::optional<measure_error> failed;
  const auto keep = [&](result<phase_row, measure_error>&& row) {
    if (!row.has_value()) {
      failed = std::move(row).error();
      return false;
    }
    m.phases.push_back(std::move(*row));
    return true;
  };
  try {
    if (!keep(runner.run(current, std::nullopt, [&] { return detail::setup([&] { return work.load_model(); }); }))) {
      return unexpected{std::move(*failed)};
    }
    current = phase_kind::inputs;
    if (!keep(runner.run(current, std::nullopt, [&] { return detail::setup([&] { return work.make_inputs(); }); }))) {
      return unexpected{std::move(*failed)};
    }
    current = phase_kind::cold_forward;
    if (!keep(runner.run(current, std::nullopt, [&] { return work.forward(); }))) {
      return unexpected{std::move(*failed)};
    }
    current = phase_kind::warmup;
    if (!keep(runner.run(current, std::nullopt, [&] { return detail::warmup_passes(work, plan.warmup); }))) {
      return unexpected{std::move(*failed)};
    }
    current = phase_kind::warm_forward;
    if (plan.until) {
      std::vector<double> series;
      const auto started = clock.now();
      while (!m.stopped_by) {
        if (!keep(runner.run(current, series.size(), [&] { return work.forward(); }))) {
          return unexpected{std::move(*failed)};
        }
        series.push_back(m.phases.back().gpu_seconds);
        m.stopped_by = plan.until->decide(series, std::chrono::duration<double>(clock.now() - started));
      }
    } else {
      for (std::uint64_t r = 0; r < plan.repeats; ++r) {
        if (!keep(runner.run(current, r, [&] { return work.forward(); }))) {
          return unexpected{std::move(*failed)};
        }
      }
    }
  } catch (const std::bad_alloc&) {
    // The host ran out of memory: no phase of the workload failed, and
    // nothing that allocates is done here.
    return unexpected{measure_error{current, std::string(), measure_errc::host_out_of_memory}};
  } catch (const std::exception& e) {
    return unexpected{measure_error{current, first_line(e.what())}};
  }
  return m;
}

/// measure() with a clock of type `Clock` built for the call (std::chrono::steady_clock by default).
template <measuring_backend B, memory_counter C, workload W, class Clock = std::chrono::steady_clock>
  requires phase_clock<Clock> && std::default_initializable<Clock>
[[nodiscard]] result<measurement, measure_error> measure(B& backend, C& counter, W& work, device_index device,
                                                         const protocol_plan& plan) {
  Clock clock;
  return measure(backend, counter, work, device, plan, clock);
}

}  // namespace iteragpu::memory

// Measurement as a library call (docs/library.md) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::measure;
using memory::measurement;
using memory::measure_error;
using memory::measure_errc;
using memory::protocol_plan;
using memory::phase_row;
using memory::phase_kind;
using memory::name_of;
}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_PROTOCOL_HPP
