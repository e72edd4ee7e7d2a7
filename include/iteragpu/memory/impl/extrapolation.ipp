#ifndef ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP
#define ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <tuple>
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

// Checked signed arithmetic (checked.hpp): nothing past 64 bits.
[[nodiscard]] constexpr std::optional<i64> add(i64 x, i64 y) noexcept { return checked_add<i64>(x, y); }
[[nodiscard]] constexpr std::optional<i64> sub(i64 x, i64 y) noexcept { return checked_sub<i64>(x, y); }
[[nodiscard]] constexpr std::optional<i64> mul(i64 x, i64 y) noexcept { return checked_mul<i64>(x, y); }

// a + b·n + c·n², or nothing past 64 bits.
[[nodiscard]] inline std::optional<i64> value(i64 a, i64 b, i64 c, i64 n) noexcept {
  const auto n2 = mul(n, n);
  const auto bn = mul(b, n);
  if (!n2 || !bn) {
    return std::nullopt;
  }
  const auto cn2 = mul(c, *n2);
  const auto ab = add(a, *bn);
  if (!cn2 || !ab) {
    return std::nullopt;
  }
  return add(*ab, *cn2);
}

struct point {
  i64 n{0};
  i64 s{0};
};

// The integer line through two points (after c·n² is taken off), or nothing.
[[nodiscard]] inline std::optional<std::pair<i64, i64>> line(point p0, point p1, i64 c) noexcept {
  const auto t0 = value(p0.s, 0, -c, p0.n);  // s0 - c·n0²
  const auto t1 = value(p1.s, 0, -c, p1.n);
  if (!t0 || !t1 || c == std::numeric_limits<i64>::min()) {
    return std::nullopt;
  }
  const auto ds = sub(*t1, *t0);
  const i64 dn = p1.n - p0.n;
  if (!ds || *ds % dn != 0) {
    return std::nullopt;
  }
  const i64 b = *ds / dn;
  const auto bn = mul(b, p0.n);
  if (!bn) {
    return std::nullopt;
  }
  const auto a = sub(*t0, *bn);
  if (!a) {
    return std::nullopt;
  }
  return std::pair<i64, i64>{*a, b};
}

// The integer c of the parabola through three points, or nothing.
[[nodiscard]] inline std::optional<i64> curvature(point p0, point p1, point p2) noexcept {
  const auto d21 = sub(p2.s, p1.s);
  const auto d10 = sub(p1.s, p0.s);
  if (!d21 || !d10) {
    return std::nullopt;
  }
  const auto x = mul(*d21, p1.n - p0.n);
  const auto y = mul(*d10, p2.n - p1.n);
  const auto gaps = mul(p2.n - p1.n, p1.n - p0.n);
  if (!x || !y || !gaps) {
    return std::nullopt;
  }
  const auto num = sub(*x, *y);
  const auto den = mul(*gaps, p2.n - p0.n);
  if (!num || !den || *den == 0 || *num % *den != 0) {
    return std::nullopt;
  }
  return *num / *den;
}

[[nodiscard]] inline extrapolation_error error(extrapolation_errc code, std::size_t trace, std::uint64_t event,
                                               std::uint64_t size = 0) {
  return extrapolation_error{code, trace, event, size, {}};
}

// A step as the alignment compares its shape: an allocation on its stream,
// or the free of the request allocated `depth` allocations ago among those
// still in use (0: the newest). A request taken and freed inside another's
// lifetime leaves the other's free unchanged.
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

// The sizes a reference request is expected to have at another size, from
// what it was seen at so far (the sizes seen descend): the bytes at the
// nearest size, those bytes in proportion to n, and the line through the
// two nearest sizes.
struct expected_sizes {
  std::array<std::uint64_t, 3> bytes{};
  std::size_t count{0};
  [[nodiscard]] bool holds(std::uint64_t s) const noexcept {
    return std::find(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(count), s) !=
           bytes.begin() + static_cast<std::ptrdiff_t>(count);
  }
  void add(std::uint64_t s) noexcept {
    if (count < bytes.size() && !holds(s)) {
      bytes[count++] = s;
    }
  }
};

// seen: (n, s) from the largest n down.
[[nodiscard]] inline expected_sizes expect(std::span<const point> seen, i64 n) {
  expected_sizes e;
  if (seen.empty()) {
    return e;
  }
  const point near = seen.back();
  e.add(static_cast<std::uint64_t>(near.s));
  const auto scaled = mul(near.s, n);
  if (scaled && *scaled % near.n == 0) {
    e.add(static_cast<std::uint64_t>(*scaled / near.n));
  }
  if (seen.size() >= 2) {
    const auto l = line(seen[seen.size() - 1], seen[seen.size() - 2], 0);
    const auto v = l ? value(l->first, l->second, 0, n) : std::nullopt;
    if (v && *v >= 0) {
      e.add(static_cast<std::uint64_t>(*v));
    }
  }
  return e;
}

// The weight of pairing step i of the reference with step j of another
// trace (0: they cannot pair); see pair_requests().
struct step_weights {
  const request_program* r;
  const request_program* t;
  std::vector<shape> a;
  std::vector<shape> b;
  std::span<const expected_sizes> expected;
  [[nodiscard]] std::uint32_t operator()(std::size_t i, std::size_t j) const {
    if (!(a[i] == b[j])) {
      return 0;
    }
    if (a[i].free) {
      return 1;
    }
    return expected[r->steps[i].request].holds(t->sizes[t->steps[j].request]) ? 4 : 1;
  }
  // Whether the steps agree in shape and, for allocations, in size.
  [[nodiscard]] bool agree(std::size_t i, std::size_t j) const { return (*this)(i, j) >= (a[i].free ? 1U : 4U); }
};

// The heaviest common subsequence of a[begin, begin + rows) and
// b[begin, begin + columns): the pairs (i, j) it takes, in order.
[[nodiscard]] inline std::vector<std::pair<std::size_t, std::size_t>> heaviest_pairs(const step_weights& weight,
                                                                                     std::size_t begin,
                                                                                     std::size_t rows,
                                                                                     std::size_t columns) {
  // heaviest[i][j]: the heaviest common subsequence of a[begin + i..] and b[begin + j..].
  std::vector<std::uint32_t> heaviest((rows + 1) * (columns + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return heaviest[i * (columns + 1) + j]; };
  for (std::size_t i = rows; i-- > 0;) {
    for (std::size_t j = columns; j-- > 0;) {
      const std::uint32_t w = weight(begin + i, begin + j);
      const std::uint32_t skip = std::max(at(i + 1, j), at(i, j + 1));
      at(i, j) = w != 0 ? std::max(skip, at(i + 1, j + 1) + w) : skip;
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < rows && j < columns) {
    const std::uint32_t w = weight(begin + i, begin + j);
    if (w != 0 && at(i, j) == at(i + 1, j + 1) + w) {
      pairs.emplace_back(begin + i++, begin + j++);
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

// Pairs the steps of `t` with those of the reference `r` along the heaviest
// common subsequence (see the file's description); `expected[i]`: what the
// reference's request i is expected to ask at t's size. The common
// beginning and end are taken first, then the middle where its table holds
// largest_alignment_table cells or fewer. Returns, per request of `t`, its
// request in `r`.
[[nodiscard]] inline std::vector<std::optional<std::size_t>> pair_requests(const request_program& r,
                                                                           std::span<const expected_sizes> expected,
                                                                           const request_program& t) {
  const step_weights weight{&r, &t, shapes_of(r), shapes_of(t), expected};
  const std::size_t n = weight.a.size();
  const std::size_t m = weight.b.size();
  std::vector<std::optional<std::size_t>> map(t.sizes.size());
  const auto pair = [&](std::size_t i, std::size_t j) {
    if (!weight.a[i].free) {
      map[t.steps[j].request] = r.steps[i].request;
    }
  };
  std::size_t begin = 0;
  while (begin < n && begin < m && weight.agree(begin, begin)) {
    pair(begin, begin);
    ++begin;
  }
  std::size_t end = 0;
  while (begin + end < n && begin + end < m && weight.agree(n - 1 - end, m - 1 - end)) {
    pair(n - 1 - end, m - 1 - end);
    ++end;
  }
  const std::size_t rows = n - begin - end;
  const std::size_t columns = m - begin - end;
  if (rows == 0 || columns == 0 || rows > largest_alignment_table / columns) {
    return map;
  }
  for (const auto& [i, j] : heaviest_pairs(weight, begin, rows, columns)) {
    pair(i, j);
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
    } else if (ev.action == trace_action::free_completed && in_use != std::numeric_limits<std::uint64_t>::max()) {
      in_use -= std::min(in_use, ev.size);
    }
  }
  return peak;
}

// A piece of a fit as split from the points: the points [first, last) of
// the sorted points, and its function.
struct span_piece {
  std::size_t first{0};
  std::size_t last{0};  // one past
  i64 a{0};
  i64 b{0};
  i64 c{0};
  [[nodiscard]] std::size_t count() const noexcept { return last - first; }
};

// How far down from `top` (one past the last point) the points lie on one
// function: the start of the run, with the function (a line through the
// two highest points, or where `quadratic`, the parabola through three).
[[nodiscard]] inline span_piece run_down(std::span<const point> points, std::size_t top, bool quadratic) {
  span_piece piece{top - 1, top, points[top - 1].s, 0, 0};
  if (top < (quadratic ? 3U : 2U)) {
    return piece;
  }
  i64 c = 0;
  if (quadratic) {
    const auto found = curvature(points[top - 3], points[top - 2], points[top - 1]);
    if (!found || *found == 0) {
      return piece;
    }
    c = *found;
  }
  const auto l = line(points[top - 2], points[top - 1], c);
  if (!l) {
    return piece;
  }
  piece.a = l->first;
  piece.b = l->second;
  piece.c = c;
  piece.first = top - 1;
  while (piece.first > 0 && value(piece.a, piece.b, c, points[piece.first - 1].n) == points[piece.first - 1].s) {
    --piece.first;
  }
  return piece;
}

// The pieces of the points (sorted by n), from the top down.
[[nodiscard]] inline std::vector<span_piece> pieces_of(std::span<const point> points) {
  std::vector<span_piece> pieces;
  std::size_t top = points.size();
  while (top > 0) {
    auto piece = run_down(points, top, false);
    if (pieces.empty()) {
      const auto curved = run_down(points, top, true);
      if (curved.count() >= 4 && curved.count() > piece.count()) {
        piece = curved;
      }
    }
    top = piece.first;
    pieces.push_back(piece);
  }
  return pieces;
}

// f at n, or nothing past 64 bits.
[[nodiscard]] inline std::optional<i64> top_at(const request_fit& f, i64 n) noexcept { return value(f.a, f.b, f.c, n); }

// The points a fit was seen at, sorted by n.
[[nodiscard]] inline std::vector<point> seen_points(std::span<const std::uint64_t> sizes,
                                                    std::span<const std::optional<std::uint64_t>> observed) {
  std::vector<point> points;
  for (std::size_t i = 0; i < sizes.size() && i < observed.size(); ++i) {
    const auto n = narrow<i64>(sizes[i]);
    const auto s = observed[i] ? narrow<i64>(*observed[i]) : std::nullopt;
    if (n && s) {
      points.push_back({*n, *s});
    }
  }
  std::ranges::sort(points, {}, &point::n);
  return points;
}

// The bytes of a request at n as a range [low, high].
struct byte_range {
  std::uint64_t low{0};
  std::uint64_t high{0};
};

[[nodiscard]] inline std::uint64_t at_least_zero(i64 v) noexcept { return v < 0 ? 0U : static_cast<std::uint64_t>(v); }

// The range of an unexplained request at n past the largest size seen:
// from the least of its two largest sizes seen to the most of the largest,
// that size grown in proportion to n, and the line through the two
// largest (rounded up); nothing past 2^63 bytes.
[[nodiscard]] inline std::optional<byte_range> unexplained_past(std::span<const point> seen, i64 n) {
  const point last = seen.back();
  const auto grown = mul(last.s, n);
  if (!grown) {
    return std::nullopt;
  }
  i64 low = last.s;
  i64 high = std::max(last.s, *grown / last.n + (*grown % last.n != 0 ? 1 : 0));
  if (seen.size() >= 2) {
    const point before = seen[seen.size() - 2];
    low = std::min(low, before.s);
    const auto rise = sub(last.s, before.s);
    const auto across = rise ? mul(*rise, n - last.n) : std::nullopt;
    if (!across) {
      return std::nullopt;
    }
    const i64 step = last.n - before.n;
    const auto on_line = add(last.s, *across / step + (*across % step > 0 ? 1 : 0));
    if (!on_line) {
      return std::nullopt;
    }
    high = std::max(high, *on_line);
  }
  return byte_range{at_least_zero(low), at_least_zero(high)};
}

// The range of an unexplained request at n (see the file's description);
// nothing past 2^63 bytes.
[[nodiscard]] inline std::optional<byte_range> unexplained_at(std::span<const point> seen, i64 n) {
  if (seen.empty()) {
    return byte_range{};
  }
  for (const auto& p : seen) {
    if (p.n == n) {
      return byte_range{at_least_zero(p.s), at_least_zero(p.s)};
    }
  }
  if (n > seen.back().n) {
    return unexplained_past(seen, n);
  }
  const point first = seen.front();
  if (n < first.n) {
    const i64 high = seen.size() >= 2 ? std::max(first.s, seen[1].s) : first.s;
    return byte_range{at_least_zero(first.s / first.n * n), at_least_zero(high)};
  }
  const auto above = std::ranges::find_if(seen, [&](const point& p) { return p.n > n; });
  const point hi = *above;
  const point lo = *(above - 1);
  return byte_range{at_least_zero(std::min(lo.s, hi.s)), at_least_zero(std::max(lo.s, hi.s))};
}

// The range of an explained request at n below its top piece.
[[nodiscard]] inline std::optional<byte_range> below_top_at(const request_fit& f, std::span<const point> seen, i64 n) {
  // The pieces, the top one last, as [first, last] with their functions.
  struct piece {
    i64 first;
    i64 last;
    i64 a;
    i64 b;
    i64 c;
  };
  std::vector<piece> pieces;
  for (const auto& p : f.below) {
    pieces.push_back({static_cast<i64>(p.first), static_cast<i64>(p.last), p.a, p.b, 0});
  }
  pieces.push_back({static_cast<i64>(f.from), seen.empty() ? static_cast<i64>(f.from) : seen.back().n, f.a, f.b, f.c});
  for (const auto& p : seen) {
    if (p.n == n) {
      return byte_range{at_least_zero(p.s), at_least_zero(p.s)};
    }
  }
  const auto on = [&](const piece& p) { return value(p.a, p.b, p.c, n); };
  const auto upper = std::ranges::find_if(pieces, [&](const piece& p) { return p.last >= n; });
  if (upper == pieces.end()) {
    return std::nullopt;  // n is at or past the top piece: not asked here
  }
  const auto v_high = on(*upper);
  if (!v_high) {
    return std::nullopt;
  }
  if (upper->first <= n) {  // on a piece
    return byte_range{at_least_zero(*v_high), at_least_zero(*v_high)};
  }
  if (upper == pieces.begin()) {  // below every size seen: the lowest piece carried down
    if (upper->first < upper->last && *v_high >= 0) {
      return byte_range{at_least_zero(*v_high), at_least_zero(*v_high)};
    }
    return byte_range{0, at_least_zero(value(upper->a, upper->b, upper->c, upper->first).value_or(0))};
  }
  const piece& l = *(upper - 1);
  const piece& h = *upper;
  const auto v_low = on(l);
  if (!v_low) {
    return std::nullopt;
  }
  if (l.first < l.last && h.first < h.last) {
    // which function is below at each end of the gap: a line growing into
    // a cap is their least, a line growing past a floor their most
    const auto d_low = sub(value(l.a, l.b, l.c, l.last).value_or(0), value(h.a, h.b, h.c, l.last).value_or(0));
    const auto d_high = sub(value(l.a, l.b, l.c, h.first).value_or(0), value(h.a, h.b, h.c, h.first).value_or(0));
    if (d_low && d_high && *d_low < 0 && *d_high > 0) {
      const i64 v = std::min(*v_low, *v_high);
      return byte_range{at_least_zero(v), at_least_zero(v)};
    }
    if (d_low && d_high && *d_low > 0 && *d_high < 0) {
      const i64 v = std::max(*v_low, *v_high);
      return byte_range{at_least_zero(v), at_least_zero(v)};
    }
  }
  return byte_range{at_least_zero(std::min(*v_low, *v_high)), at_least_zero(std::max(*v_low, *v_high))};
}

// The range of request `request` of the model `e` at n.
[[nodiscard]] inline result<byte_range, extrapolation_error> range_at(const extrapolation& e, std::size_t request,
                                                                      std::uint64_t n) {
  const auto& f = e.fits[request];
  const auto overflow = [&] { return unexpected{error(extrapolation_errc::size_overflow, e.reference, f.event, n)}; };
  const auto signed_n = narrow<i64>(n);
  if (!signed_n) {
    return overflow();
  }
  const auto seen = seen_points(e.sizes, f.observed);
  if (f.kind == fit_kind::unexplained) {
    const auto r = unexplained_at(seen, *signed_n);
    return r ? result<byte_range, extrapolation_error>(*r) : overflow();
  }
  if (n >= f.from) {
    const auto v = top_at(f, *signed_n);
    if (!v) {
      return overflow();
    }
    if (*v < 0) {  // a fit that falls below 0 bytes there: between 0 and the most seen
      std::uint64_t most = 0;
      for (const auto& p : seen) {
        most = std::max(most, at_least_zero(p.s));
      }
      return byte_range{0, most};
    }
    return byte_range{at_least_zero(*v), at_least_zero(*v)};
  }
  const auto r = below_top_at(f, seen, *signed_n);
  return r ? result<byte_range, extrapolation_error>(*r) : overflow();
}

// Which kind the pieces make, and whether the top one is confirmed.
[[nodiscard]] inline std::optional<fit_kind> kind_of(std::span<const span_piece> pieces, std::size_t points) {
  const span_piece& top = pieces.front();
  const bool curved = top.c != 0;
  const std::size_t needed = points <= 2 ? points : curved ? 4U : 3U;
  if (pieces.size() == 1) {
    if (top.count() < needed) {
      return std::nullopt;
    }
    return curved ? fit_kind::quadratic : top.b == 0 ? fit_kind::constant : fit_kind::affine;
  }
  const span_piece& next = pieces[1];
  const bool capped = !curved && top.b == 0 && top.count() >= 2 && next.b > 0 && next.c == 0 && next.count() >= 3;
  if (capped) {
    return fit_kind::saturating;
  }
  if (top.count() < needed) {
    return std::nullopt;
  }
  return fit_kind::piecewise;
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

namespace detail::extrapolating {

// Matches `programs[order[k]]` to the reference, one by one, each with what
// the larger sizes already matched predict (`order`: the traces to match,
// by size descending); fills `seen` (per reference request, (n, s) from the
// largest n down) and returns the map of each trace.
[[nodiscard]] inline std::vector<std::vector<std::optional<std::size_t>>> match_down(
    std::span<const request_program> programs, std::span<const std::uint64_t> sizes, std::size_t reference,
    std::span<const std::size_t> order, std::vector<std::vector<point>>& seen) {
  const auto& r = programs[reference];
  seen.assign(r.sizes.size(), {});
  for (std::size_t i = 0; i < r.sizes.size(); ++i) {
    seen[i].push_back({static_cast<i64>(sizes[reference]), static_cast<i64>(r.sizes[i])});
  }
  std::vector<std::vector<std::optional<std::size_t>>> maps(programs.size());
  for (const auto t : order) {
    const auto n = static_cast<i64>(sizes[t]);
    std::vector<expected_sizes> expected;
    expected.reserve(seen.size());
    for (const auto& s : seen) {
      expected.push_back(expect(s, n));
    }
    maps[t] = pair_requests(r, expected, programs[t]);
    for (std::size_t i = 0; i < maps[t].size(); ++i) {
      if (const auto to = maps[t][i]) {
        seen[*to].push_back({n, static_cast<i64>(programs[t].sizes[i])});
      }
    }
  }
  return maps;
}

// The traces of `subset` by size, largest first.
[[nodiscard]] inline std::vector<std::size_t> by_size_down(std::span<const std::uint64_t> sizes,
                                                           std::vector<std::size_t> subset) {
  std::ranges::sort(subset, [&](std::size_t x, std::size_t y) { return sizes[x] > sizes[y]; });
  return subset;
}

// Per reference request, its size in each trace (input order) the maps pair it with.
[[nodiscard]] inline std::vector<std::vector<std::optional<std::uint64_t>>> observed_sizes(
    std::span<const request_program> programs, std::size_t reference, std::span<const std::size_t> others,
    const std::vector<std::vector<std::optional<std::size_t>>>& maps) {
  const auto& r = programs[reference];
  std::vector<std::vector<std::optional<std::uint64_t>>> observed(
      r.sizes.size(), std::vector<std::optional<std::uint64_t>>(programs.size()));
  for (std::size_t i = 0; i < r.sizes.size(); ++i) {
    observed[i][reference] = r.sizes[i];
  }
  for (const auto t : others) {
    for (std::size_t i = 0; i < maps[t].size(); ++i) {
      if (const auto to = maps[t][i]) {
        observed[*to][t] = programs[t].sizes[i];
      }
    }
  }
  return observed;
}

// Whether trace t's requests pair one to one with the reference's; its
// unmatched runs and the reference's are added to `runs`.
inline bool note_unmatched(std::vector<unmatched_run>& runs, std::span<const request_program> programs,
                           std::size_t reference, std::size_t t, const std::vector<std::optional<std::size_t>>& map) {
  const auto& r = programs[reference];
  std::vector<bool> in_t(programs[t].sizes.size(), false);
  std::vector<bool> in_r(r.sizes.size(), false);
  for (std::size_t i = 0; i < in_t.size(); ++i) {
    if (const auto to = map[i]) {
      in_t[i] = true;
      in_r[*to] = true;
    }
  }
  add_runs(runs, reference, r, in_r);
  add_runs(runs, t, programs[t], in_t);
  return std::ranges::all_of(in_t, std::identity{}) && std::ranges::all_of(in_r, std::identity{});
}

// The model of one code path: the traces of `order` (by size, largest
// first), the first the reference; `rest` receives the traces of the paths
// below (from the first trace whose requests do not pair one to one).
[[nodiscard]] inline extrapolation path_model(std::span<const request_program> programs,
                                              std::span<const std::uint64_t> sizes,
                                              const std::vector<std::size_t>& order, std::vector<std::size_t>& rest) {
  extrapolation e;
  e.sizes.assign(sizes.begin(), sizes.end());
  e.reference = order.front();
  const auto& r = programs[e.reference];
  const auto others = std::span(order).subspan(1);
  std::vector<std::vector<point>> seen;
  const auto maps = match_down(programs, sizes, e.reference, others, seen);
  e.path_first = sizes[e.reference];
  rest.clear();
  for (std::size_t k = 0; k < others.size(); ++k) {
    const bool one_to_one = note_unmatched(e.unmatched, programs, e.reference, others[k], maps[others[k]]);
    if (rest.empty() && one_to_one) {
      e.path_first = sizes[others[k]];
    } else if (rest.empty()) {
      rest.assign(others.begin() + static_cast<std::ptrdiff_t>(k), others.end());
    }
  }
  std::ranges::sort(e.unmatched, [](const unmatched_run& x, const unmatched_run& y) {
    return std::pair(x.trace, x.first_request) < std::pair(y.trace, y.first_request);
  });
  const auto observed = observed_sizes(programs, e.reference, others, maps);
  e.fits.reserve(r.sizes.size());
  for (std::size_t i = 0; i < r.sizes.size(); ++i) {
    auto f = fit_sizes(sizes, observed[i]);
    f.event = r.events[i];
    e.fits.push_back(std::move(f));
  }
  e.steps = r.steps;
  e.streams = r.streams;
  e.reference_peak_requested = peak_requested(r);
  return e;
}

// The model of every trace (see extrapolation): the path of the largest
// size, then each path below it in turn, built from the traces up to its
// own largest.
[[nodiscard]] inline extrapolation model_of(std::span<const request_program> programs,
                                            std::span<const std::uint64_t> sizes, std::vector<std::size_t> all) {
  std::vector<std::size_t> order = by_size_down(sizes, std::move(all));
  std::vector<std::size_t> rest;
  extrapolation top = path_model(programs, sizes, order, rest);
  while (!rest.empty()) {
    order = rest;
    top.below.push_back(path_model(programs, sizes, order, rest));
  }
  return top;
}

}  // namespace detail::extrapolating

[[nodiscard]] ITERAGPU_INLINE alignment align(std::span<const request_program> programs,
                                              std::span<const std::uint64_t> sizes, std::size_t reference) {
  namespace d = detail::extrapolating;
  alignment a;
  const auto& r = programs[reference];
  std::vector<std::size_t> others;
  for (std::size_t t = 0; t < programs.size(); ++t) {
    if (t != reference) {
      others.push_back(t);
    }
  }
  const auto order = d::by_size_down(sizes, std::move(others));
  std::vector<std::vector<d::point>> seen;
  a.to_reference = d::match_down(programs, sizes, reference, order, seen);
  auto& self = a.to_reference[reference];
  self.resize(r.sizes.size());
  for (std::size_t i = 0; i < self.size(); ++i) {
    self[i] = i;
  }
  for (const auto t : order) {
    const auto& p = programs[t];
    std::vector<bool> in_t(p.sizes.size(), false);
    std::vector<bool> in_r(r.sizes.size(), false);
    for (std::size_t i = 0; i < p.sizes.size(); ++i) {
      if (const auto to = a.to_reference[t][i]) {
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
  const auto points = d::seen_points(sizes, observed);
  if (points.empty()) {
    return f;
  }
  const auto pieces = d::pieces_of(points);
  const auto kind = d::kind_of(pieces, points.size());
  if (!kind || points.size() < 2) {
    return f;
  }
  const auto& top = pieces.front();
  f.kind = *kind;
  f.a = top.a;
  f.b = top.b;
  f.c = top.c;
  f.from = static_cast<std::uint64_t>(points[top.first].n);
  for (std::size_t k = pieces.size(); k-- > 1;) {
    const auto& p = pieces[k];
    f.below.push_back({static_cast<std::uint64_t>(points[p.first].n), static_cast<std::uint64_t>(points[p.last - 1].n),
                       p.count() == 1 ? points[p.first].s : p.a, p.count() == 1 ? 0 : p.b});
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
    if (p->sizes.empty()) {
      return unexpected{d::error(extrapolation_errc::no_requests, i, 0, sizes[i])};
    }
    if (const auto segment = unexplained_segment(traces[i])) {
      auto late = d::error(extrapolation_errc::segment_unexplained, i, 0);
      late.what = unexplained_segment_at{*segment};
      return unexpected{late};
    }
    programs.push_back(std::move(*p));
  }
  std::vector<std::size_t> all(traces.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
  }
  auto e = d::model_of(programs, sizes, std::move(all));
  e.recorded.assign(traces.begin(), traces.end());
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
  return std::ranges::none_of(e.fits, [](const request_fit& f) { return f.kind == fit_kind::unexplained; });
}

[[nodiscard]] ITERAGPU_INLINE std::vector<const extrapolation*> models_at(const extrapolation& e, std::uint64_t n) {
  std::vector<const extrapolation*> paths{&e};
  for (const auto& m : e.below) {
    paths.push_back(&m);
  }
  for (std::size_t k = 0; k < paths.size(); ++k) {
    if (n >= paths[k]->path_first || k + 1 == paths.size()) {
      return {paths[k]};
    }
    const auto* next = paths[k + 1];
    if (n > next->sizes[next->reference]) {
      return {paths[k], next};
    }
  }
  return {&e};
}

[[nodiscard]] ITERAGPU_INLINE bool is_exact_at(const extrapolation& e, std::uint64_t n) {
  if (std::ranges::find(e.sizes, n) != e.sizes.end() && !e.recorded.empty()) {
    return true;
  }
  const auto models = models_at(e, n);
  if (models.size() != 1) {
    return false;
  }
  const auto& m = *models.front();
  for (std::size_t i = 0; i < m.fits.size(); ++i) {
    const auto r = detail::extrapolating::range_at(m, i, n);
    if (!r || r->low != r->high) {
      return false;
    }
  }
  return true;
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, extrapolation_error> size_at(const extrapolation& e,
                                                                                 std::size_t request, std::uint64_t n,
                                                                                 range_end end) {
  const auto r = detail::extrapolating::range_at(e, request, n);
  if (!r) {
    return unexpected{r.error()};
  }
  return end == range_end::lower ? r->low : r->high;
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

namespace detail::extrapolating {

// The traces at n that a prediction replays: the trace recorded at n; else
// per model of n, its lower trace, and its upper one where the model gives
// a range at n.
[[nodiscard]] inline result<std::vector<device_trace>, extrapolation_error> traces_at(const extrapolation& e,
                                                                                      std::uint64_t n) {
  std::vector<device_trace> traces;
  for (std::size_t t = 0; t < e.sizes.size() && t < e.recorded.size(); ++t) {
    if (e.sizes[t] == n) {
      traces.push_back(e.recorded[t]);
      return traces;
    }
  }
  for (const auto* m : models_at(e, n)) {
    bool ranged = false;
    for (std::size_t i = 0; i < m->fits.size() && !ranged; ++i) {
      const auto r = range_at(*m, i, n);
      if (!r) {
        return unexpected{r.error()};
      }
      ranged = r->low != r->high;
    }
    for (const auto end : {range_end::lower, range_end::upper}) {
      if (end == range_end::upper && !ranged) {
        break;
      }
      auto t = synthesize(*m, n, end);
      if (!t) {
        return unexpected{t.error()};
      }
      traces.push_back(std::move(*t));
    }
  }
  return traces;
}

// Orders replays from the least demanding to the most: completing before
// running out of memory, then by peak reserved, then peak allocated.
[[nodiscard]] inline bool less_demanding(const replay_outcome& x, const replay_outcome& y) noexcept {
  return std::tuple(x.oom.has_value(), x.peak_reserved.value, x.peak_allocated.value) <
         std::tuple(y.oom.has_value(), y.peak_reserved.value, y.peak_allocated.value);
}

}  // namespace detail::extrapolating

[[nodiscard]] ITERAGPU_INLINE result<size_prediction, extrapolation_error> predict(const extrapolation& e,
                                                                                   std::uint64_t n,
                                                                                   const replay_options& options) {
  namespace d = detail::extrapolating;
  const auto traces = d::traces_at(e, n);
  if (!traces) {
    return unexpected{traces.error()};
  }
  std::vector<replay_outcome> outcomes;
  for (const auto& trace : *traces) {
    auto outcome = replay(trace, options);
    if (!outcome) {
      return unexpected{extrapolation_error{extrapolation_errc::replay_failed, e.reference, outcome.error().event, n,
                                            outcome.error()}};
    }
    outcomes.push_back(std::move(*outcome));
  }
  const auto [least, most] = std::ranges::minmax_element(outcomes, d::less_demanding);
  size_prediction p{*least, std::nullopt};
  if (outcomes.size() > 1) {
    p.upper = *most;
  }
  return p;
}

ITERAGPU_INLINE size_judge::size_judge(const extrapolation& e, const replay_options& options)
    : model_(&e), options_(options) {
  options_.capacity.reset();
}

[[nodiscard]] ITERAGPU_INLINE result<const size_judge::unlimited*, extrapolation_error> size_judge::at(
    std::uint64_t n) {
  namespace d = detail::extrapolating;
  for (const auto& [size, found] : seen_) {
    if (size == n) {
      return &found;
    }
  }
  unlimited u;
  auto traces = d::traces_at(*model_, n);
  if (!traces && traces.error().code != extrapolation_errc::size_overflow) {
    return unexpected{traces.error()};
  }
  if (!traces) {
    u.possible = false;
  } else {
    u.traces = std::move(*traces);
    for (const auto& trace : u.traces) {
      auto outcome = replay(trace, options_);
      if (!outcome && outcome.error().code == replay_errc::request_too_large) {
        u.possible = false;  // PyTorch refuses a request of 2^60 bytes or more as out of memory
        break;
      }
      if (!outcome) {
        return unexpected{extrapolation_error{extrapolation_errc::replay_failed, model_->reference,
                                              outcome.error().event, n, outcome.error()}};
      }
      u.outcomes.push_back(std::move(*outcome));
    }
  }
  // A search asks about fifty sizes: a list is searched faster than a map is built.
  seen_.emplace_back(n, std::move(u));
  return &seen_.back().second;
}

[[nodiscard]] ITERAGPU_INLINE result<bool, extrapolation_error> size_judge::completes(
    std::uint64_t n, std::optional<byte_count> capacity) {
  const auto found = at(n);
  if (!found) {
    return unexpected{found.error()};
  }
  const unlimited& u = **found;
  if (!u.possible) {
    return false;
  }
  // The limit changes nothing until it is reached, but for the garbage
  // collection, whose threshold is a share of it.
  const bool decides = options_.settings.garbage_collection_threshold <= 0.0;
  for (std::size_t i = 0; i < u.traces.size(); ++i) {
    const replay_outcome& free_run = u.outcomes[i];
    if (free_run.oom) {
      return false;
    }
    if (!capacity) {
      continue;
    }
    // Every block holds at least the bytes asked: past the capacity, no replay can fit.
    if (detail::extrapolating::peak_asked(u.traces[i].events) > capacity->value) {
      return false;
    }
    if (decides && free_run.peak_reserved.value <= capacity->value) {
      continue;
    }
    replay_options limited = options_;
    limited.capacity = capacity;
    const auto outcome = replay(u.traces[i], limited);
    if (!outcome) {
      return unexpected{extrapolation_error{extrapolation_errc::replay_failed, model_->reference, outcome.error().event,
                                            n, outcome.error()}};
    }
    if (outcome->oom) {
      return false;
    }
  }
  return true;
}

[[nodiscard]] ITERAGPU_INLINE result<size_prediction, extrapolation_error> size_judge::predict(
    std::uint64_t n, std::optional<byte_count> capacity) {
  const auto found = at(n);
  if (!found) {
    return unexpected{found.error()};
  }
  const unlimited& u = **found;
  if (!u.possible) {
    // The same refusal predict() gives: the bytes asked pass what a request can be.
    replay_options limited = options_;
    limited.capacity = capacity;
    return memory::predict(*model_, n, limited);
  }
  const bool decides = options_.settings.garbage_collection_threshold <= 0.0;
  std::vector<replay_outcome> outcomes;
  for (std::size_t i = 0; i < u.traces.size(); ++i) {
    const replay_outcome& free_run = u.outcomes[i];
    if (!capacity || (decides && !free_run.oom && free_run.peak_reserved.value <= capacity->value)) {
      outcomes.push_back(free_run);
      continue;
    }
    replay_options limited = options_;
    limited.capacity = capacity;
    auto outcome = replay(u.traces[i], limited);
    if (!outcome) {
      return unexpected{extrapolation_error{extrapolation_errc::replay_failed, model_->reference, outcome.error().event,
                                            n, outcome.error()}};
    }
    outcomes.push_back(std::move(*outcome));
  }
  const auto [least, most] = std::ranges::minmax_element(outcomes, detail::extrapolating::less_demanding);
  size_prediction p{*least, std::nullopt};
  if (outcomes.size() > 1) {
    p.upper = *most;
  }
  return p;
}

[[nodiscard]] ITERAGPU_INLINE result<largest_size, extrapolation_error> size_judge::largest(
    std::optional<byte_count> capacity, std::uint64_t limit) {
  const auto completes_n = [&](std::uint64_t n) { return completes(n, capacity); };
  if (limit == 0) {
    return largest_size{};
  }
  const auto first = completes_n(1);
  if (!first || !*first) {
    return first ? result<largest_size, extrapolation_error>(largest_size{})
                 : result<largest_size, extrapolation_error>(unexpected{first.error()});
  }
  // completes(low), and high (once found) does not.
  std::uint64_t low = 1;
  std::optional<std::uint64_t> high;
  while (!high && low < limit) {
    const std::uint64_t probe = low > limit / 2 ? limit : low * 2;
    const auto ok = completes_n(probe);
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
    const auto ok = completes_n(middle);
    if (!ok) {
      return unexpected{ok.error()};
    }
    (*ok ? low : *high) = middle;
  }
  return largest_size{low, false};
}

[[nodiscard]] ITERAGPU_INLINE result<bool, extrapolation_error> completes_at(const extrapolation& e,
                                                                             const replay_options& options,
                                                                             std::uint64_t n) {
  size_judge judge(e, options);
  return judge.completes(n, options.capacity);
}

[[nodiscard]] ITERAGPU_INLINE result<largest_size, extrapolation_error> find_largest_size(const extrapolation& e,
                                                                                          const replay_options& options,
                                                                                          std::uint64_t limit) {
  size_judge judge(e, options);
  return judge.largest(options.capacity, limit);
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_EXTRAPOLATION_IPP
