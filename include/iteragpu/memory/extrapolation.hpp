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
/// N follows its order of allocations and frees. The other traces are
/// matched to it one by one, from the largest size down, by the heaviest
/// common subsequence of their steps: an allocation pairs with one on the
/// same stream, with weight 4 when its size is what the reference's request
/// already matched at larger sizes predicts (the same bytes, bytes in
/// proportion to n, or the line through the two nearest sizes), else 1; a
/// free pairs with a free of the request allocated as many allocations ago
/// among those in use, weight 1. The common beginning and end are taken
/// first, then the middle where its table holds 2^24 cells or fewer (past
/// that the middle is left unmatched). Requests of either trace left out are
/// unmatched, reported with the trace, the first request and the event
/// where each run starts.
///
/// Code paths. A program may make other requests at small sizes (another
/// kernel below a threshold). The traces whose requests pair one to one with
/// the reference's, from the largest size down, share its code path: the
/// model holds from the least of them (`path_first`) upward. Below, the
/// traces of each other path make a model of their own (`below`, built the
/// same way from the traces up to that path's largest), so that every size
/// is predicted with the requests its own path makes; a size between two
/// paths is predicted as the range that both give.
///
/// Fit. A request's sizes seen at the input sizes are split, from the
/// largest size down, into pieces that one exact integer function gives
/// (`a + b·n`, a constant when b is 0; `a + b·n + c·n²` for a run of four
/// sizes or more that no line gives). The top piece holds past the largest
/// size and must be confirmed: by three sizes or more (four for a
/// quadratic) where the request was seen at three or more; or a constant
/// reached by a confirmed line that grows into it (a buffer that stops
/// growing, such as one part per multiprocessor of the device: `saturating`,
/// which depends on the device). Between two pieces the size is the least
/// of both lines where the lower grows into the upper, the most where the
/// upper grows past the lower, else the range between them. Sizes below the
/// top piece are said (`from`): usually size 1, where PyTorch takes other
/// paths. A request no confirmed fit gives is unexplained, never an error.
///
/// Ranges. An unexplained request, seen at n_i with s_i, is given at N past
/// the largest size seen as a range from the least size seen at the two
/// largest sizes to the most of the largest size seen, the line through the
/// two largest sizes, and that size grown in proportion to N; between two
/// sizes seen, as the range between them; at a size seen, as seen. A size
/// between two code paths takes both paths' ends. A prediction is exact
/// when every request of the model that N uses is explained and N is not
/// between two paths: then both traces are the same.
namespace iteragpu::memory {

/// One step of a program: the allocation of a request, or its free.
struct request_step {
  bool free{false};        ///< a completed free; else the allocation
  std::size_t request{0};  ///< the request, by index
  friend bool operator==(const request_step&, const request_step&) = default;
};

/// A trace read as requests.
struct request_program {
  std::vector<std::uint64_t> sizes;    ///< per request: bytes asked
  std::vector<std::uint64_t> streams;  ///< per request: its stream
  std::vector<std::uint64_t> events;   ///< per request: the index of its alloc event
  std::vector<request_step> steps;     ///< allocations and frees in order
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
  no_requests,          ///< a trace makes no allocation: nothing to match or fit
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
  friend bool operator==(const extrapolation_error&, const extrapolation_error&) = default;
};

/// Requests of a trace that the alignment could not match.
struct unmatched_run {
  std::size_t trace{0};          ///< the trace, by input index
  std::size_t first_request{0};  ///< its first unmatched request
  std::size_t count{0};          ///< how many follow, unmatched
  std::uint64_t event{0};        ///< the event of the first
  friend bool operator==(const unmatched_run&, const unmatched_run&) = default;
};

/// How a request's size follows n.
enum class fit_kind {
  constant,     ///< the same at every size
  affine,       ///< a + b·n at every size
  quadratic,    ///< a + b·n + c·n² at every size
  saturating,   ///< grows along a line, then stays at a constant: a cap that depends on the device
  piecewise,    ///< other pieces below a confirmed top piece (another function at small sizes)
  unexplained,  ///< no confirmed function, or seen at the largest size only
};

/// A piece of a fit below its top piece: `a + b·n` from `first` to `last`
/// (input sizes seen on it; one size where no line holds it with a neighbour).
struct fit_piece {
  std::uint64_t first{0};  ///< the least input size on the piece
  std::uint64_t last{0};   ///< the largest input size on the piece
  std::int64_t a{0};       ///< bytes at n = 0
  std::int64_t b{0};       ///< bytes per unit of n
  friend bool operator==(const fit_piece&, const fit_piece&) = default;
};

/// One request of the reference and its size as a function of n.
struct request_fit {
  std::uint64_t event{0};                ///< its alloc event in the reference trace
  fit_kind kind{fit_kind::unexplained};  ///< the function found
  std::int64_t a{0};                     ///< the top piece: bytes at n = 0
  std::int64_t b{0};                     ///< the top piece: bytes per unit of n
  std::int64_t c{0};                     ///< the top piece: bytes per unit of n²
  std::uint64_t from{0};                 ///< the least input size the top piece holds (0: unexplained)
  std::vector<fit_piece> below{};        ///< the pieces under the top one, by size
  /// Per input trace (input order): its size there; none where unmatched.
  std::vector<std::optional<std::uint64_t>> observed;
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
  /// The least input size whose trace, and every larger one's, pairs its
  /// requests one to one with the reference's: the model's code path holds
  /// from there up.
  std::uint64_t path_first{0};
  /// The models of the other code paths, from the largest sizes down, each
  /// built from the traces up to its own largest (their own `below` and
  /// `recorded` empty).
  std::vector<extrapolation> below{};
  /// The input traces, in input order: a size recorded is predicted by the
  /// replay of its own trace, segment events and all.
  std::vector<device_trace> recorded{};
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
  friend bool operator==(const alignment&, const alignment&) = default;
};

/// Matches every program, recorded at `sizes`, to `programs[reference]`
/// (see the file's description).
[[nodiscard]] alignment align(std::span<const request_program> programs, std::span<const std::uint64_t> sizes,
                              std::size_t reference);

/// The exact integer pieces through the points (n_i, s_i) where s_i is seen
/// (see the file's description); kind unexplained when no confirmed top
/// piece holds.
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

/// Whether every request of the model `e` (not of `below`) is explained.
[[nodiscard]] bool is_exact(const extrapolation& e) noexcept;

/// The models whose code path size `n` takes: `e` or one of `below`; two,
/// the upper first, where `n` lies between two paths' input sizes.
[[nodiscard]] std::vector<const extrapolation*> models_at(const extrapolation& e, std::uint64_t n);

/// Whether the prediction at `n` is one trace, not a range: one model, with
/// every request explained at `n`.
[[nodiscard]] bool is_exact_at(const extrapolation& e, std::uint64_t n);

/// Which end of a range a built trace takes.
enum class range_end { lower, upper };

/// A request of the model `e` at n: its fit, or where the fit gives a range
/// (an unexplained request, a size between two pieces that jump) the end
/// asked. size_overflow past 2^63 bytes.
[[nodiscard]] result<std::uint64_t, extrapolation_error> size_at(const extrapolation& e, std::size_t request,
                                                                 std::uint64_t n, range_end end);

/// The trace at size `n` of the model `e` (not of `below`: see models_at()):
/// the reference's allocations and frees, in order, on their streams, each
/// at its size at n; one address per request.
[[nodiscard]] result<device_trace, extrapolation_error> synthesize(const extrapolation& e, std::uint64_t n,
                                                                   range_end end = range_end::lower);

/// The replays of the trace at one size.
struct size_prediction {
  replay_outcome lower;                   ///< the lower end (the only one when exact)
  std::optional<replay_outcome> upper{};  ///< the upper end, when not exact
  friend bool operator==(const size_prediction&, const size_prediction&) = default;
};

/// Builds the traces at `n` (of each model models_at() names, each end
/// where not exact) and replays them under `options`: the lower end is the
/// replay of least peak reserved, the upper the one of most (a replay that
/// runs out of memory is the upper end). At a size recorded, its own trace
/// is replayed: the requests and the segments' places as they happened.
[[nodiscard]] result<size_prediction, extrapolation_error> predict(const extrapolation& e, std::uint64_t n,
                                                                   const replay_options& options);

/// Whether size `n` fits under `options` (its capacity): every trace the
/// prediction at `n` replays completes (both ends of a range, both paths
/// between two); a size whose fitted bytes pass 2^63 does not. The one
/// judgement of "fits" that find_largest_size() and the programs use.
[[nodiscard]] result<bool, extrapolation_error> completes_at(const extrapolation& e, const replay_options& options,
                                                             std::uint64_t n);

/// The search for the largest size that completes.
struct largest_size {
  /// A size N whose trace completes while N+1's runs out of memory (see
  /// find_largest_size()); `limit` when the trace at the limit completes;
  /// none when size 1 runs out of memory.
  std::optional<std::uint64_t> size{};
  bool at_limit{false};  ///< the trace at the limit completes: the answer is at least the limit
  friend bool operator==(const largest_size&, const largest_size&) = default;
};

/// The largest size from 1 to `limit` whose trace completes under
/// `options` (its capacity): doubling from 1 until a size runs out of
/// memory, then halving the interval between the last size that completes
/// and the first that does not, so that the answer N completes (replayed)
/// and N+1 does not: replayed, or its bytes asked in use at once alone pass
/// the capacity (every block holds at least the bytes asked, so its replay
/// would run out of memory). Completing is not assumed monotone beyond that
/// pair: a larger size may complete again. A size whose prediction is a
/// range completes when every end completes, so that a size said to
/// complete is not one that the stated range lets run out of memory; a size
/// whose fitted bytes pass 2^63 does not complete.
[[nodiscard]] result<largest_size, extrapolation_error> find_largest_size(const extrapolation& e,
                                                                          const replay_options& options,
                                                                          std::uint64_t limit = 1'000'000);

/// Judges sizes of one model under one setting and any capacities: each
/// size's traces are replayed once without a capacity, and again under a
/// capacity only where that replay cannot decide (a trace whose peak
/// reserved without a limit stays within the capacity reserves the same
/// under it and completes, one whose bytes asked at once pass it cannot;
/// under garbage_collection_threshold, which acts on the capacity, every
/// capacity is replayed). completes_at() and find_largest_size() use one;
/// the programs judge every card of a catalog with one judge.
class size_judge {
 public:
  /// Judges `e` under `options` (its capacity is not used: each call names one).
  size_judge(const extrapolation& e, const replay_options& options);
  /// Whether every trace of the prediction at `n` completes under `capacity`
  /// (none: unlimited); a size whose bytes pass 2^63, or with a request
  /// PyTorch refuses (2^60 bytes or more), does not.
  [[nodiscard]] result<bool, extrapolation_error> completes(std::uint64_t n, std::optional<byte_count> capacity);
  /// The prediction at `n` under `capacity` (see predict()), reusing each
  /// replay without a capacity where the capacity would change nothing.
  [[nodiscard]] result<size_prediction, extrapolation_error> predict(std::uint64_t n,
                                                                     std::optional<byte_count> capacity);
  /// The largest size from 1 to `limit` that completes under `capacity` (see find_largest_size()).
  [[nodiscard]] result<largest_size, extrapolation_error> largest(std::optional<byte_count> capacity,
                                                                  std::uint64_t limit = 1'000'000);

 private:
  struct unlimited {
    bool possible{true};                     // no request past 2^63 bytes or refused by PyTorch
    std::vector<device_trace> traces{};      // the traces of the prediction
    std::vector<replay_outcome> outcomes{};  // each replayed without a capacity
  };
  [[nodiscard]] result<const unlimited*, extrapolation_error> at(std::uint64_t n);
  const extrapolation* model_;
  replay_options options_;
  std::vector<std::pair<std::uint64_t, unlimited>> seen_{};
};

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/extrapolation.ipp"
#endif

#endif  // ITERAGPU_MEMORY_EXTRAPOLATION_HPP
