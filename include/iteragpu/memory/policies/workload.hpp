#ifndef ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP
#define ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP

#include <concepts>

/// \file
/// What iteragpu::measure() runs, as a policy object: it loads a model,
/// makes its inputs and runs one pass. forward() returns the pass's output;
/// the output lives as long as the returned object, so the protocol can read
/// the counters while it exists and release it before the next pass.
namespace iteragpu {

/// What iteragpu::measure() asks of a workload: `load_model()` (phase model_load), `make_inputs()`
/// (phase inputs), and `forward()`, one pass, whose movable result holds the pass's output until it
/// is destroyed.
template <class W>
concept workload = requires(W& w) {
  { w.load_model() } -> std::same_as<void>;
  { w.make_inputs() } -> std::same_as<void>;
  { w.forward() } -> std::move_constructible;
};

}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP
