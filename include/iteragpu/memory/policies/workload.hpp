#ifndef ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP
#define ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP

#include <concepts>
#include <string_view>
#include <type_traits>

#include "iteragpu/result.hpp"

/// \file
/// What iteragpu::memory::measure() runs, as a policy object: it loads a model,
/// makes its inputs and runs one pass. forward() returns the pass's output;
/// the output lives as long as the returned object, so the protocol can read
/// the counters while it exists and release it before the next pass.
namespace iteragpu::memory {

namespace detail {

template <class R>
struct failable_operation : std::false_type {};
template <class T, class E>
struct failable_operation<result<T, E>> : std::true_type {};

}  // namespace detail

/// What an operation of a workload may return instead of raising an exception: a
/// result whose error iteragpu::memory::measure() can put in words, through a
/// `describe(error)` that argument-dependent lookup finds.
template <class R>
concept failable = detail::failable_operation<R>::value && requires(const typename R::error_type& e) {
  { describe(e) } -> std::convertible_to<std::string_view>;
};

/// What load_model() and make_inputs() return: nothing, or a
/// `result<void, E>` when they report their failures as values.
template <class R>
concept setup_outcome = std::same_as<R, void> || (failable<R> && std::same_as<typename R::value_type, void>);

/// What iteragpu::memory::measure() asks of a workload: `load_model()` (phase model_load), `make_inputs()`
/// (phase inputs), and `forward()`, one pass, whose movable result holds the pass's output until it
/// is destroyed. Each may fail by an exception, or by returning a failed `result` (see failable;
/// forward() then returns `result<output, E>`).
template <class W>
concept workload = requires(W& w) {
  { w.load_model() } -> setup_outcome;
  { w.make_inputs() } -> setup_outcome;
  { w.forward() } -> std::move_constructible;
};

}  // namespace iteragpu::memory

// Measurement as a library call (docs/library.md) names these in namespace iteragpu,
// where version 0.1 declared them: an integrator's code that spells them
// so keeps compiling. The library itself names them in iteragpu::memory.
namespace iteragpu {
using memory::workload;
}  // namespace iteragpu

#endif  // ITERAGPU_MEMORY_POLICIES_WORKLOAD_HPP
