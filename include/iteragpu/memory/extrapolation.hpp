#ifndef ITERAGPU_MEMORY_EXTRAPOLATION_HPP
#define ITERAGPU_MEMORY_EXTRAPOLATION_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/trace.hpp"
#include "iteragpu/one_of.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The trace of a size nobody ran: traces of one program recorded at
/// several values n of one integer dimension (the batch size, a sequence
/// length) are matched request by request, each request's size is fitted as
/// a function of n, and the trace at any size N is built from the fits and
/// replayed (memory/replay.hpp).
///
/// Requests. A trace is read as its allocations (size asked, stream) and
/// the order of its allocations and completed frees; segment events are
/// not requests (the simulation makes its own).
///
/// Alignment. The trace at the largest size is the reference: the trace at
/// N follows its order of allocations and frees. Each other trace is
/// matched to it by the longest common subsequence of their steps compared
/// blind to sizes (an allocation by its stream; a free by how many requests
/// still in use were allocated after the one it frees): the common
/// beginning and end first, then the middle where its table holds 2^24
/// cells or fewer (past that the middle is left unmatched). The requests
/// of either trace left out are unmatched, reported with the trace, the
/// first request and the event where each run starts. Where steps alike in
/// shape are ambiguous, the pairing is checked by the fit: a request paired
/// with the wrong one follows no function and is unexplained.
///
/// Fit. A request matched in every trace is fitted exactly, in integers:
/// a constant; else `a + b·n` through the two smallest sizes; else, with
/// three sizes or more, `a + b·n + c·n²` through the three smallest; each
/// candidate checked against every input size, and kept only when its
/// coefficients are integers and it gives every recorded size to the byte.
/// A request no such function gives (a workspace chosen per shape), or one
/// some trace lacks, is unexplained.
///
/// Ranges. An unexplained request of the reference, observed at sizes s_i
/// for n_i, is given at N as a range: the lower trace takes the smallest
/// s_i; the upper trace takes the largest of s_i and ceil(s_i·N/n_i) over
/// every observation (the request grown in proportion to N from each, never
/// below what was seen). A request growing faster than in proportion to N
/// passes the upper bound: the range is the one stated, not a guarantee.
/// A prediction is exact when there is no unexplained request and no
/// unmatched one; then both traces are the same.
namespace iteragpu::memory {

/// One step of a program: the allocation of a request, or its free.
struct request_step {
  bool free{false};        ///< a completed free; else the allocation
  std::size_t request{0};  ///< the request, by index
  /// Equal when every member is equal.
  friend bool operator==(const request_step&, const request_step&) = default;
};

/// A trace read as requests.
struct request_program {
  std::vector<std::uint64_t> sizes;    ///< per request: bytes asked
  std::vector<std::uint64_t> streams;  ///< per request: its stream
  std::vector<std::uint64_t> events;   ///< per request: the index of its alloc event
  std::vector<request_step> steps;     ///< allocations and frees in order
  /// Equal when every member is equal.
  friend bool operator==(const request_program&, const request_program&) = default;
};

/// Why traces cannot be extrapolated.
enum class extrapolation_errc {
  too_few_traces,       ///< fewer than two traces
  sizes_mismatch,       ///< the sizes are not one per trace
  size_not_positive,    ///< a size is 0
  size_repeated,        ///< two traces at the same size
  starts_late,          ///< a trace frees a block no earlier event allocated
  segment_unexplained,  ///< a trace's snapshot holds a segment no event reserved: the trace starts late
  address_reused,       ///< an alloc at the address of a block still in use
  negative_size,        ///< a request's fit gives a negative size at the size asked
  size_overflow,        ///< a request's fit passes 2^63 bytes at the size asked
  replay_failed,        ///< the built trace could not be replayed
};

/// segment_unexplained: the segment of the snapshot that no event reserved.
struct unexplained_segment_at {
  std::uint64_t address{0};  ///< its address
  /// Equal when the addresses are.
  friend bool operator==(const unexplained_segment_at&, const unexplained_segment_at&) = default;
};

/// What an extrapolation_error carries beyond its code and place:
/// unexplained_segment_at (segment_unexplained), the replay's own
/// replay_error (replay_failed), nothing (std::monostate) for the other codes.
using extrapolation_data = one_of<std::monostate, unexplained_segment_at, replay_error>;

/// Why traces cannot be extrapolated, and where: the trace, event and size
/// at fault (0 where the code names none), and in `what` the data the code names.
struct extrapolation_error {
  extrapolation_errc code{extrapolation_errc::too_few_traces};  ///< what is wrong
  std::size_t trace{0};                                         ///< the trace at fault, by input index
  std::uint64_t event{0};                                       ///< its event at fault (the reference's for a fit)
  std::uint64_t size{0};                                        ///< the size n at fault
  extrapolation_data what{};                                    ///< the data the code names
  /// Equal when every member is equal.
  friend bool operator==(const extrapolation_error&, const extrapolation_error&) = default;
};

/// Requests of a trace that the alignment could not match.
struct unmatched_run {
  std::size_t trace{0};          ///< the trace, by input index
  std::size_t first_request{0};  ///< its first unmatched request
  std::size_t count{0};          ///< how many follow, unmatched
  std::uint64_t event{0};        ///< the event of the first
  /// Equal when every member is equal.
  friend bool operator==(const unmatched_run&, const unmatched_run&) = default;
};

/// How a request's size follows n.
enum class fit_kind {
  constant,     ///< the same at every size
  affine,       ///< a + b·n
  quadratic,    ///< a + b·n + c·n²
  unexplained,  ///< no such function, or some trace lacks it
};

/// One request of the reference and its size as a function of n.
struct request_fit {
  std::uint64_t event{0};                ///< its alloc event in the reference trace
  fit_kind kind{fit_kind::unexplained};  ///< the function found
  std::int64_t a{0};                     ///< bytes at n = 0
  std::int64_t b{0};                     ///< bytes per unit of n
  std::int64_t c{0};                     ///< bytes per unit of n²
  /// Per input trace (input order): its size there; none where unmatched.
  std::vector<std::optional<std::uint64_t>> observed;
  /// Equal when every member is equal.
  friend bool operator==(const request_fit&, const request_fit&) = default;
};

/// The traces matched and fitted: what synthesize() builds from.
struct extrapolation {
  std::vector<std::uint64_t> sizes;      ///< the input sizes, in input order
  std::size_t reference{0};              ///< the trace whose order is followed (the largest size)
  std::vector<request_step> steps;       ///< the reference's allocations and frees
  std::vector<std::uint64_t> streams;    ///< per request of the reference: its stream
  std::vector<request_fit> fits;         ///< per request of the reference
  std::vector<unmatched_run> unmatched;  ///< the requests no alignment matched, reference's and others'
  /// The reference's peak of bytes asked in use at once (no rounding): what
  /// an unexplained request's share is a share of.
  std::uint64_t reference_peak_requested{0};
  /// Equal when every member is equal.
  friend bool operator==(const extrapolation&, const extrapolation&) = default;
};

/// The trace read as requests; fails where a free has no earlier alloc or
/// an alloc reuses the address of a block in use.
[[nodiscard]] result<request_program, extrapolation_error> requests_of(std::span<const trace_event> events,
                                                                       std::size_t trace = 0);

/// Per trace of `programs`, the request of `programs[reference]` each of its
/// requests is matched to (none: unmatched), and the unmatched runs.
struct alignment {
  std::vector<std::vector<std::optional<std::size_t>>> to_reference;  ///< [trace][request] -> reference request
  std::vector<unmatched_run> unmatched;                               ///< by trace, then request
  /// Equal when every member is equal.
  friend bool operator==(const alignment&, const alignment&) = default;
};

/// Matches every program to `programs[reference]` (see the file's description).
[[nodiscard]] alignment align(std::span<const request_program> programs, std::size_t reference);

/// The exact integer function through the points (n_i, s_i) (see the
/// file's description); kind unexplained when none gives every point.
[[nodiscard]] request_fit fit_sizes(std::span<const std::uint64_t> sizes,
                                    std::span<const std::optional<std::uint64_t>> observed);

/// Matches and fits `traces`, recorded at `sizes` (one per trace, positive,
/// distinct). A trace that starts late (a free with no earlier allocation,
/// or a segment held at the end that no event reserved) is refused: the
/// requests before it began are unknown.
[[nodiscard]] result<extrapolation, extrapolation_error> extrapolate(std::span<const device_trace> traces,
                                                                     std::span<const std::uint64_t> sizes);

/// The reference's requests that are unexplained, by index.
[[nodiscard]] std::vector<std::size_t> unexplained_requests(const extrapolation& e);

/// Whether a trace built from `e` is one trace, not a range.
[[nodiscard]] bool is_exact(const extrapolation& e) noexcept;

/// Which end of a range a built trace takes.
enum class range_end { lower, upper };

/// A request's size at n: its fit, or for an unexplained one the end asked.
[[nodiscard]] result<std::uint64_t, extrapolation_error> size_at(const extrapolation& e, std::size_t request,
                                                                 std::uint64_t n, range_end end);

/// The trace at size `n`: the reference's allocations and frees, in order,
/// on their streams, each at its size at n; one address per request.
[[nodiscard]] result<device_trace, extrapolation_error> synthesize(const extrapolation& e, std::uint64_t n,
                                                                   range_end end = range_end::lower);

/// The replays of the trace at one size.
struct size_prediction {
  replay_outcome lower;                   ///< the lower trace (the only one when exact)
  std::optional<replay_outcome> upper{};  ///< the upper trace, when not exact
  /// Equal when every member is equal.
  friend bool operator==(const size_prediction&, const size_prediction&) = default;
};

/// Builds the trace at `n` and replays it under `options`.
[[nodiscard]] result<size_prediction, extrapolation_error> predict(const extrapolation& e, std::uint64_t n,
                                                                   const replay_options& options);

/// The search for the largest size that completes.
struct largest_size {
  /// A size N whose trace completes while N+1's runs out of memory (see
  /// find_largest_size()); `limit` when the trace at the limit completes;
  /// none when size 1 runs out of memory.
  std::optional<std::uint64_t> size{};
  bool at_limit{false};  ///< the trace at the limit completes: the answer is at least the limit
  /// Equal when every member is equal.
  friend bool operator==(const largest_size&, const largest_size&) = default;
};

/// The largest size from 1 to `limit` whose trace completes under
/// `options` (its capacity): doubling from 1 until a size runs out of
/// memory, then halving the interval between the last size that completes
/// and the first that does not, so that the answer N completes (replayed)
/// and N+1 does not: replayed, or its bytes asked in use at once alone pass
/// the capacity (every block holds at least the bytes asked, so its replay
/// would run out of memory). Completing is not assumed monotone beyond that
/// pair: a larger size may complete again. Not exact traces are judged by
/// their upper end, so that a size said to complete is not one that the
/// stated range lets run out of memory.
[[nodiscard]] result<largest_size, extrapolation_error> find_largest_size(const extrapolation& e,
                                                                          const replay_options& options,
                                                                          std::uint64_t limit = 1'000'000);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/extrapolation.ipp"
#endif

#endif  // ITERAGPU_MEMORY_EXTRAPOLATION_HPP
