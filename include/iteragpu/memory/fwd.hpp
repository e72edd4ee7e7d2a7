#ifndef ITERAGPU_MEMORY_FWD_HPP
#define ITERAGPU_MEMORY_FWD_HPP

/// \file
/// Declarations, without definitions, of the types of the measurement API
/// (memory/protocol.hpp and what it names): an integrator's header that
/// only passes a measurement, a plan or an error by reference, or declares
/// a function that returns one, includes this file and no standard header,
/// and leaves memory/protocol.hpp to the source file that calls
/// iteragpu::memory::measure(). The enumerations are declared with their
/// underlying type (int, the default of a scoped enumeration), so a value
/// can be held before the enumerators are known.
///
/// iteragpu::memory::measure() itself is not declared here: it is a function
/// template constrained by the policy concepts (memory/policies/), and a
/// concept cannot be declared without its definition, nor a default
/// template argument (the clock) given twice. Its name is reached through
/// memory/protocol.hpp.
namespace iteragpu {

template <class T, class E>
class result;

}  // namespace iteragpu

namespace iteragpu::memory {

struct device_index;

enum class phase_kind;
struct phase_row;
struct protocol_plan;
struct measurement;
struct measure_error;

struct allocator_reading;
struct device_memory;
struct gpu_description;
struct runtime_build;
struct gpu_state;
struct clock_event_reasons;

enum class stop_reason;
enum class stopping_errc;
struct stopping_parameters;
class stopping_rule;

enum class noise_verdict;
struct sample_summary;
struct sample_error;

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FWD_HPP
