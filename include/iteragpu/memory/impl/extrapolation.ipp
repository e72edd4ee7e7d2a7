#ifndef ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP
#define ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "iteragpu/checked.hpp"
#include "iteragpu/config.hpp"
#include "iteragpu/memory/extrapolation.hpp"

// The bodies of the functions that <iteragpu/memory/extrapolation.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

namespace detail::extrapolating {

using i64 = std::int64_t;

[[nodiscard]] inline std::optional<i64> mul(i64 x, i64 y) noexcept {
  i64 r = 0;
  return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional<i64>(r);
}

[[nodiscard]] inline std::optional<i64> add(i64 x, i64 y) noexcept {
  i64 r = 0;
  return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional<i64>(r);
}

[[nodiscard]] inline std::optional<i64> sub(i64 x, i64 y) noexcept {
  i64 r = 0;
  return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional<i64>(r);
}

// a + b·n + c·n², or nothing past 64 bits.
[[nodiscard]] inline std::optional<i64> value(i64 a, i64 b, i64 c, i64 n) noexcept {
  const auto n2 = mul(n, n);
  const auto cn2 = n2 ? mul(c, *n2) : std::nullopt;
  const auto bn = mul(b, n);
  const auto ab = bn ? add(a, *bn) : std::nullopt;
  return ab && cn2 ? add(*ab, *cn2) : std::nullopt;
}

struct point {
  i64 n{0};
  i64 s{0};
};

[[nodiscard]] inline bool gives_every(const request_fit& f, std::span<const point> points) noexcept {
  return std::ranges::all_of(points, [&](const point& p) { return value(f.a, f.b, f.c, p.n) == p.s; });
}

// The integer line through two points (after c·n² is taken off), or nothing.
[[nodiscard]] inline std::optional<std::pair<i64, i64>> line(point p0, point p1, i64 c) noexcept {
  const auto n0 = mul(p0.n, p0.n);
  const auto n1 = mul(p1.n, p1.n);
  const auto c0 = n0 ? mul(c, *n0) : std::nullopt;
  const auto c1 = n1 ? mul(c, *n1) : std::nullopt;
  const auto t0 = c0 ? sub(p0.s, *c0) : std::nullopt;
  const auto t1 = c1 ? sub(p1.s, *c1) : std::nullopt;
  const auto ds = t0 && t1 ? sub(*t1, *t0) : std::nullopt;
  const i64 dn = p1.n - p0.n;
  if (!ds || *ds % dn != 0) {
    return std::nullopt;
  }
  const i64 b = *ds / dn;
  const auto bn = mul(b, p0.n);
  const auto a = bn ? sub(*t0, *bn) : std::nullopt;
  return a ? std::optional<std::pair<i64, i64>>({*a, b}) : std::nullopt;
}

// The integer c of the parabola through three points, or nothing.
[[nodiscard]] inline std::optional<i64> curvature(point p0, point p1, point p2) noexcept {
  const auto d21 = sub(p2.s, p1.s);
  const auto d10 = sub(p1.s, p0.s);
  const auto x = d21 ? mul(*d21, p1.n - p0.n) : std::nullopt;
  const auto y = d10 ? mul(*d10, p2.n - p1.n) : std::nullopt;
  const auto num = x && y ? sub(*x, *y) : std::nullopt;
  const auto gaps = mul(p2.n - p1.n, p1.n - p0.n);
  const auto den = gaps ? mul(*gaps, p2.n - p0.n) : std::nullopt;
  if (!num || !den || *num % *den != 0) {
    return std::nullopt;
  }
  return *num / *den;
}

[[nodiscard]] inline extrapolation_error error(extrapolation_errc code, std::size_t trace, std::uint64_t event,
                                               std::uint64_t size = 0) {
  return extrapolation_error{code, trace, event, size, {}};
}

// A step as the alignment compares it, blind to sizes: an allocation on its
// stream, or the free of the request allocated `depth` allocations ago
// among those still in use (0: the newest). A request taken and freed
// inside another's lifetime leaves the other's free unchanged.
struct shape {
  bool free{false};
  std::uint64_t value{0};  // the stream of an allocation, the depth of a free
  friend bool operator==(const shape&, const shape&) = default;
};

// The shapes of a program's steps; a Fenwick tree counts the requests in
// use allocated after the one freed.
[[nodiscard]] inline std::vector<shape> shapes_of(const request_program& p) {
  const std::size_t n = p.sizes.size();
  std::vector<std::uint32_t> tree(n + 1, 0);
  const auto mark = [&](std::size_t i, bool in) {
    for (std::size_t k = i + 1; k <= n; k += k & (~k + 1)) {
      tree[k] = in ? tree[k] + 1 : tree[k] - 1;
    }
  };
  const auto in_use_up_to = [&](std::size_t i) {  // in use among requests 0..i
    std::uint64_t total = 0;
    for (std::size_t k = i + 1; k > 0; k -= k & (~k + 1)) {
      total += tree[k];
    }
    return total;
  };
  std::uint64_t live = 0;
  std::vector<shape> shapes;
  shapes.reserve(p.steps.size());
  for (const auto& step : p.steps) {
    if (step.free) {
      shapes.push_back({true, live - in_use_up_to(step.request)});
      mark(step.request, false);
      --live;
    } else {
      shapes.push_back({false, p.streams[step.request]});
      mark(step.request, true);
      ++live;
    }
  }
  return shapes;
}

// The most cells of the table the middle of two programs is aligned in;
// past it, the middle is left unmatched.
inline constexpr std::size_t largest_alignment_table = std::size_t{1} << 24U;

// Pairs the steps of `r` and `t` that a longest common subsequence of their
// shapes pairs: the common beginning and end, then the middle by dynamic
// programming where it is small enough. Returns, per request of `t`, its
// request in `r`.
[[nodiscard]] inline std::vector<std::optional<std::size_t>> pair_requests(const request_program& r,
                                                                           const request_program& t) {
  const auto a = shapes_of(r);
  const auto b = shapes_of(t);
  std::vector<std::optional<std::size_t>> map(t.sizes.size());
  const auto pair = [&](std::size_t i, std::size_t j) {
    if (!a[i].free && !b[j].free) {
      map[t.steps[j].request] = r.steps[i].request;
    }
  };
  std::size_t begin = 0;
  while (begin < a.size() && begin < b.size() && a[begin] == b[begin]) {
    pair(begin, begin);
    ++begin;
  }
  std::size_t end = 0;
  while (begin + end < a.size() && begin + end < b.size() && a[a.size() - 1 - end] == b[b.size() - 1 - end]) {
    pair(a.size() - 1 - end, b.size() - 1 - end);
    ++end;
  }
  const std::size_t rows = a.size() - begin - end;
  const std::size_t columns = b.size() - begin - end;
  if (rows == 0 || columns == 0 || rows > largest_alignment_table / columns) {
    return map;
  }
  // lengths[i][j]: the longest common subsequence of a[begin + i..] and b[begin + j..].
  std::vector<std::uint32_t> lengths((rows + 1) * (columns + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lengths[i * (columns + 1) + j]; };
  for (std::size_t i = rows; i-- > 0;) {
    for (std::size_t j = columns; j-- > 0;) {
      at(i, j) = a[begin + i] == b[begin + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < rows && j < columns) {
    if (a[begin + i] == b[begin + j] && at(i, j) == at(i + 1, j + 1) + 1) {
      pair(begin + i++, begin + j++);
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return map;
}

// The runs of requests of a program left out of `matched`.
inline void add_runs(std::vector<unmatched_run>& runs, std::size_t trace, const request_program& p,
                     const std::vector<bool>& matched) {
  for (std::size_t i = 0; i < matched.size();) {
    if (matched[i]) {
      ++i;
      continue;
    }
    std::size_t count = 0;
    while (i + count < matched.size() && !matched[i + count]) {
      ++count;
    }
    const unmatched_run run{trace, i, count, p.events[i]};
    if (std::ranges::find(runs, run) == runs.end()) {
      runs.push_back(run);
    }
    i += count;
  }
}

// The peak of bytes asked in use at once.
[[nodiscard]] inline std::uint64_t peak_requested(const request_program& p) {
  std::uint64_t in_use = 0;
  std::uint64_t peak = 0;
  for (const auto& step : p.steps) {
    if (step.free) {
      in_use -= p.sizes[step.request];
    } else {
      in_use += p.sizes[step.request];
      peak = std::max(peak, in_use);
    }
  }
  return peak;
}

// The peak of bytes asked in use at once in a built trace; a sum past 64
// bits stays at the largest value, which passes any capacity.
[[nodiscard]] inline std::uint64_t peak_asked(std::span<const trace_event> events) {
  std::uint64_t in_use = 0;
  std::uint64_t peak = 0;
  for (const auto& ev : events) {
    if (ev.action == trace_action::alloc) {
      in_use = checked_add<std::uint64_t>(in_use, ev.size).value_or(std::numeric_limits<std::uint64_t>::max());
      peak = std::max(peak, in_use);
    } else if (in_use != std::numeric_limits<std::uint64_t>::max()) {
      in_use -= ev.size;
    }
  }
  return peak;
}

// ceil(s·n/m), or nothing past 64 bits.
[[nodiscard]] inline std::optional<std::uint64_t> scaled_up(std::uint64_t s, std::uint64_t n, std::uint64_t m) {
  const auto product = checked_mul<std::uint64_t>(s, n);
  if (!product) {
    return std::nullopt;
  }
  return *product / m + (*product % m != 0U ? 1U : 0U);
}

}  // namespace detail::extrapolating

[[nodiscard]] ITERAGPU_INLINE result<request_program, extrapolation_error> requests_of(
    std::span<const trace_event> events, std::size_t trace) {
  request_program p;
  std::unordered_map<std::uint64_t, std::size_t> live;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (e.action == trace_action::alloc) {
      if (!live.emplace(e.address, p.sizes.size()).second) {
        return unexpected{detail::extrapolating::error(extrapolation_errc::address_reused, trace, i)};
      }
      p.steps.push_back({false, p.sizes.size()});
      p.sizes.push_back(e.size);
      p.streams.push_back(e.stream);
      p.events.push_back(i);
    } else if (e.action == trace_action::free_completed) {
      const auto found = live.find(e.address);
      if (found == live.end()) {
        return unexpected{detail::extrapolating::error(extrapolation_errc::starts_late, trace, i)};
      }
      p.steps.push_back({true, found->second});
      live.erase(found);
    }
  }
  return p;
}

[[nodiscard]] ITERAGPU_INLINE alignment align(std::span<const request_program> programs, std::size_t reference) {
  namespace d = detail::extrapolating;
  alignment a;
  const auto& r = programs[reference];
  for (std::size_t t = 0; t < programs.size(); ++t) {
    const auto& p = programs[t];
    if (t == reference) {
      auto& self = a.to_reference.emplace_back(p.sizes.size());
      for (std::size_t i = 0; i < self.size(); ++i) {
        self[i] = i;
      }
      continue;
    }
    a.to_reference.push_back(d::pair_requests(r, p));
    std::vector<bool> in_t(p.sizes.size(), false);
    std::vector<bool> in_r(r.sizes.size(), false);
    for (std::size_t i = 0; i < p.sizes.size(); ++i) {
      if (const auto to = a.to_reference.back()[i]) {
        in_t[i] = true;
        in_r[*to] = true;
      }
    }
    d::add_runs(a.unmatched, reference, r, in_r);
    d::add_runs(a.unmatched, t, p, in_t);
  }
  std::ranges::sort(a.unmatched, [](const unmatched_run& x, const unmatched_run& y) {
    return std::pair(x.trace, x.first_request) < std::pair(y.trace, y.first_request);
  });
  return a;
}

[[nodiscard]] ITERAGPU_INLINE request_fit fit_sizes(std::span<const std::uint64_t> sizes,
                                                    std::span<const std::optional<std::uint64_t>> observed) {
  namespace d = detail::extrapolating;
  request_fit f;
  f.observed.assign(observed.begin(), observed.end());
  std::vector<d::point> points;
  for (std::size_t i = 0; i < sizes.size() && i < observed.size(); ++i) {
    const auto n = narrow<d::i64>(sizes[i]);
    const auto s = observed[i] ? narrow<d::i64>(*observed[i]) : std::nullopt;
    if (!n || !s) {
      return f;
    }
    points.push_back({*n, *s});
  }
  if (points.size() < 2 || points.size() != sizes.size()) {
    return f;
  }
  std::ranges::sort(points, {}, &d::point::n);
  if (std::ranges::all_of(points, [&](const d::point& p) { return p.s == points[0].s; })) {
    f.kind = fit_kind::constant;
    f.a = points[0].s;
    return f;
  }
  if (const auto l = d::line(points[0], points[1], 0)) {
    request_fit candidate = f;
    candidate.kind = fit_kind::affine;
    candidate.a = l->first;
    candidate.b = l->second;
    if (d::gives_every(candidate, points)) {
      return candidate;
    }
  }
  if (points.size() < 3) {
    return f;
  }
  const auto c = d::curvature(points[0], points[1], points[2]);
  const auto l = c ? d::line(points[0], points[1], *c) : std::nullopt;
  if (l) {
    request_fit candidate = f;
    candidate.kind = fit_kind::quadratic;
    candidate.a = l->first;
    candidate.b = l->second;
    candidate.c = *c;
    if (d::gives_every(candidate, points)) {
      return candidate;
    }
  }
  return f;
}

[[nodiscard]] ITERAGPU_INLINE result<extrapolation, extrapolation_error> extrapolate(
    std::span<const device_trace> traces, std::span<const std::uint64_t> sizes) {
  namespace d = detail::extrapolating;
  if (traces.size() < 2) {
    return unexpected{d::error(extrapolation_errc::too_few_traces, 0, 0)};
  }
  if (sizes.size() != traces.size()) {
    return unexpected{d::error(extrapolation_errc::sizes_mismatch, 0, 0)};
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) {
      return unexpected{d::error(extrapolation_errc::size_not_positive, i, 0, 0)};
    }
    if (std::find(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(i), sizes[i]) !=
        sizes.begin() + static_cast<std::ptrdiff_t>(i)) {
      return unexpected{d::error(extrapolation_errc::size_repeated, i, 0, sizes[i])};
    }
  }
  std::vector<request_program> programs;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    auto p = requests_of(traces[i].events, i);
    if (!p) {
      return unexpected{p.error()};
    }
    if (const auto segment = unexplained_segment(traces[i])) {
      auto late = d::error(extrapolation_errc::segment_unexplained, i, 0);
      late.what = unexplained_segment_at{*segment};
      return unexpected{late};
    }
    programs.push_back(std::move(*p));
  }
  extrapolation e;
  e.sizes.assign(sizes.begin(), sizes.end());
  e.reference = static_cast<std::size_t>(std::ranges::max_element(sizes) - sizes.begin());
  auto matched = align(programs, e.reference);
  const auto& r = programs[e.reference];
  // from_reference[t][request of the reference] -> the request of trace t
  std::vector<std::vector<std::optional<std::uint64_t>>> observed(
      r.sizes.size(), std::vector<std::optional<std::uint64_t>>(sizes.size()));
  for (std::size_t t = 0; t < programs.size(); ++t) {
    for (std::size_t i = 0; i < programs[t].sizes.size(); ++i) {
      if (const auto to = matched.to_reference[t][i]) {
        observed[*to][t] = programs[t].sizes[i];
      }
    }
  }
  e.fits.reserve(r.sizes.size());
  for (std::size_t i = 0; i < r.sizes.size(); ++i) {
    auto f = fit_sizes(sizes, observed[i]);
    f.event = r.events[i];
    e.fits.push_back(std::move(f));
  }
  e.steps = r.steps;
  e.streams = r.streams;
  e.unmatched = std::move(matched.unmatched);
  e.reference_peak_requested = d::peak_requested(r);
  return e;
}

[[nodiscard]] ITERAGPU_INLINE std::vector<std::size_t> unexplained_requests(const extrapolation& e) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < e.fits.size(); ++i) {
    if (e.fits[i].kind == fit_kind::unexplained) {
      found.push_back(i);
    }
  }
  return found;
}

[[nodiscard]] ITERAGPU_INLINE bool is_exact(const extrapolation& e) noexcept {
  return e.unmatched.empty() &&
         std::ranges::none_of(e.fits, [](const request_fit& f) { return f.kind == fit_kind::unexplained; });
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, extrapolation_error> size_at(const extrapolation& e,
                                                                                 std::size_t request, std::uint64_t n,
                                                                                 range_end end) {
  namespace d = detail::extrapolating;
  const auto& f = e.fits[request];
  if (f.kind != fit_kind::unexplained) {
    const auto signed_n = narrow<d::i64>(n);
    const auto v = signed_n ? d::value(f.a, f.b, f.c, *signed_n) : std::nullopt;
    if (!v) {
      return unexpected{d::error(extrapolation_errc::size_overflow, e.reference, f.event, n)};
    }
    if (*v < 0) {
      return unexpected{d::error(extrapolation_errc::negative_size, e.reference, f.event, n)};
    }
    return static_cast<std::uint64_t>(*v);
  }
  std::optional<std::uint64_t> chosen;
  for (std::size_t t = 0; t < f.observed.size(); ++t) {
    if (!f.observed[t]) {
      continue;
    }
    const std::uint64_t s = *f.observed[t];
    std::uint64_t candidate = s;
    if (end == range_end::upper) {
      const auto scaled = d::scaled_up(s, n, e.sizes[t]);
      if (!scaled) {
        return unexpected{d::error(extrapolation_errc::size_overflow, e.reference, f.event, n)};
      }
      candidate = std::max(s, *scaled);
    }
    chosen = !chosen                   ? candidate
             : end == range_end::lower ? std::min(*chosen, candidate)
                                       : std::max(*chosen, candidate);
  }
  return chosen.value_or(0);
}

[[nodiscard]] ITERAGPU_INLINE result<device_trace, extrapolation_error> synthesize(const extrapolation& e,
                                                                                   std::uint64_t n, range_end end) {
  // One address per request: no block is ever at the address of another.
  constexpr std::uint64_t first_address = std::uint64_t{1} << 40U;
  std::vector<std::uint64_t> sizes(e.fits.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto s = size_at(e, i, n, end);
    if (!s) {
      return unexpected{s.error()};
    }
    sizes[i] = *s;
  }
  device_trace t;
  t.events.reserve(e.steps.size());
  for (const auto& step : e.steps) {
    t.events.push_back({step.free ? trace_action::free_completed : trace_action::alloc, first_address + step.request,
                        sizes[step.request], e.streams[step.request]});
  }
  return t;
}

[[nodiscard]] ITERAGPU_INLINE result<size_prediction, extrapolation_error> predict(const extrapolation& e,
                                                                                   std::uint64_t n,
                                                                                   const replay_options& options) {
  size_prediction p;
  for (const auto end : {range_end::lower, range_end::upper}) {
    if (end == range_end::upper && is_exact(e)) {
      break;
    }
    const auto trace = synthesize(e, n, end);
    if (!trace) {
      return unexpected{trace.error()};
    }
    auto outcome = replay(*trace, options);
    if (!outcome) {
      return unexpected{extrapolation_error{extrapolation_errc::replay_failed, e.reference, outcome.error().event, n,
                                            outcome.error()}};
    }
    (end == range_end::lower ? p.lower : p.upper.emplace()) = std::move(*outcome);
  }
  return p;
}

namespace detail::extrapolating {

/// Whether the trace of `e` built at `n` (its `judged` end) completes under
/// `options`.
[[nodiscard]] ITERAGPU_INLINE result<bool, extrapolation_error> completes_at(const extrapolation& e,
                                                                             const replay_options& options,
                                                                             range_end judged, std::uint64_t n) {
  const auto trace = synthesize(e, n, judged);
  if (!trace) {
    return unexpected{trace.error()};
  }
  // Every block holds at least the bytes asked and the segments hold the
  // blocks: a trace whose bytes asked in use at once pass the capacity
  // runs out of memory, which needs no replay to know.
  if (options.capacity && peak_asked(trace->events) > options.capacity->value) {
    return false;
  }
  const auto outcome = replay(*trace, options);
  if (!outcome) {
    return unexpected{
        extrapolation_error{extrapolation_errc::replay_failed, e.reference, outcome.error().event, n, outcome.error()}};
  }
  return !outcome->oom.has_value();
}

}  // namespace detail::extrapolating

[[nodiscard]] ITERAGPU_INLINE result<largest_size, extrapolation_error> find_largest_size(const extrapolation& e,
                                                                                          const replay_options& options,
                                                                                          std::uint64_t limit) {
  const range_end judged = is_exact(e) ? range_end::lower : range_end::upper;
  const auto completes = [&](std::uint64_t n) { return detail::extrapolating::completes_at(e, options, judged, n); };
  if (limit == 0) {
    return largest_size{};
  }
  const auto first = completes(1);
  if (!first || !*first) {
    return first ? result<largest_size, extrapolation_error>(largest_size{})
                 : result<largest_size, extrapolation_error>(unexpected{first.error()});
  }
  // completes(low), and high (once found) does not.
  std::uint64_t low = 1;
  std::optional<std::uint64_t> high;
  while (!high && low < limit) {
    const std::uint64_t probe = low > limit / 2 ? limit : low * 2;
    const auto ok = completes(probe);
    if (!ok) {
      return unexpected{ok.error()};
    }
    (*ok ? low : high.emplace()) = probe;
  }
  if (!high) {
    return largest_size{limit, true};
  }
  while (*high - low > 1) {
    const std::uint64_t middle = low + (*high - low) / 2;
    const auto ok = completes(middle);
    if (!ok) {
      return unexpected{ok.error()};
    }
    (*ok ? low : *high) = middle;
  }
  return largest_size{low, false};
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP
