#ifndef ITERAGPU_MEMORY_IMPL_COMPARE_IPP
#define ITERAGPU_MEMORY_IMPL_COMPARE_IPP

#include <charconv>
#include <cmath>
#include <map>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/compare.hpp"

// The bodies of the functions that <iteragpu/memory/compare.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE median_estimate median_estimate_of(const sample_summary& s) {
  median_estimate e{s.count, s.median, std::nullopt};
  if (s.median_ci) {
    e.ci = median_estimate::interval{s.median_ci->lower, s.median_ci->upper};
  }
  return e;
}

[[nodiscard]] ITERAGPU_INLINE std::string_view name_of(time_verdict v) noexcept {
  switch (v) {
    case time_verdict::faster:
      return "FASTER";
    case time_verdict::slower:
      return "SLOWER";
    case time_verdict::same:
      return "SAME";
    case time_verdict::ambiguous:
      return "AMBIGUOUS";
  }
  return "unknown";
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> relative_change(double a, double b) noexcept {
  if (a == b) {
    return 0.0;
  }
  if (!(a > 0.0)) {
    return std::nullopt;
  }
  return (b - a) / a;
}

[[nodiscard]] ITERAGPU_INLINE time_comparison compare_times(const median_estimate& a, const median_estimate& b,
                                                            double tolerance) {
  time_comparison c{
      time_verdict::ambiguous, time_basis::no_interval, relative_change(a.median, b.median), a, b, tolerance};
  if (!a.ci || !b.ci) {
    return c;
  }
  if (b.ci->upper < a.ci->lower || b.ci->lower > a.ci->upper) {
    c.verdict = b.ci->upper < a.ci->lower ? time_verdict::faster : time_verdict::slower;
    c.basis = time_basis::intervals_apart;
    return c;
  }
  if (!c.relative_change) {
    c.basis = time_basis::no_reference;
    return c;
  }
  const bool within = std::abs(*c.relative_change) <= tolerance;
  c.verdict = within ? time_verdict::same : time_verdict::ambiguous;
  c.basis = within ? time_basis::overlap_within_tolerance : time_basis::overlap_beyond_tolerance;
  return c;
}

[[nodiscard]] ITERAGPU_INLINE std::string signed_percent(double fraction) {
  std::array<char, 400> digits{};  // any finite double in fixed notation fits
  const auto [end, error] =
      std::to_chars(digits.data(), digits.data() + digits.size(), fraction * 100.0, std::chars_format::fixed, 1);
  if (error != std::errc{}) {
    return "?";
  }
  const std::string number(digits.data(), end);
  return (number.starts_with('-') ? "" : "+") + number + " %";
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const time_comparison& c) {
  const std::string tolerance = signed_percent(c.tolerance).substr(1);  // no sign
  const std::string change = c.relative_change ? signed_percent(*c.relative_change) : std::string("undefined");
  switch (c.basis) {
    case time_basis::intervals_apart:
      return std::string("B's interval lies wholly ") + (c.verdict == time_verdict::faster ? "below" : "above") +
             " A's; B's median is " + change + " from A's";
    case time_basis::overlap_within_tolerance:
      return "the intervals overlap and the medians differ by " + change + ", within " + tolerance;
    case time_basis::overlap_beyond_tolerance:
      return "the intervals overlap but the medians differ by " + change + ", more than " + tolerance;
    case time_basis::no_reference:
      return "the intervals overlap and A's median is 0: no relative change";
    case time_basis::no_interval: {
      std::string who;
      for (const auto& [name, side] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}}) {
        if (!side->ci) {
          who += (who.empty() ? "" : " and ") + std::string(name) + " has " + to_decimal_string(side->count) +
                 (side->count == 1 ? " repeat" : " repeats");
        }
      }
      return "no confidence interval: " + who + ", an interval needs 6 or more";
    }
  }
  return "unknown";
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::int64_t> byte_change::difference() const noexcept {
  constexpr auto largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (b >= a) {
    return b - a <= largest ? std::optional<std::int64_t>(static_cast<std::int64_t>(b - a)) : std::nullopt;
  }
  return a - b <= largest ? std::optional<std::int64_t>(-static_cast<std::int64_t>(a - b)) : std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::string byte_change::describe() const {
  const std::uint64_t magnitude = b >= a ? b - a : a - b;
  return std::string(prediction::byte_field_names[field]) + ' ' + to_decimal_string(a) + " -> " + to_decimal_string(b) +
         " (" + (b >= a ? "+" : "-") + to_decimal_string(magnitude) + ")";
}

[[nodiscard]] ITERAGPU_INLINE memory_comparison compare_memory(const std::vector<phase_row>& a,
                                                               const std::vector<phase_row>& b) {
  // A row's key: its phase, and its repeat (none sorts last).
  const auto key = [](const phase_row& row) {
    return std::pair{static_cast<int>(row.phase), row.repeat.value_or(std::numeric_limits<std::uint64_t>::max())};
  };
  std::map<std::pair<int, std::uint64_t>, const phase_row*> rows_of_b;
  for (const auto& row : b) {
    rows_of_b.emplace(key(row), &row);
  }
  memory_comparison m;
  for (const auto& row : a) {
    const auto found = rows_of_b.find(key(row));
    if (found == rows_of_b.end()) {
      ++m.rows_only_in_a;
      continue;
    }
    ++m.rows_compared;
    const auto bytes_a = prediction::byte_fields(row);
    const auto bytes_b = prediction::byte_fields(*found->second);
    row_difference d{row.phase, row.repeat, {}};
    for (std::size_t f = 0; f < bytes_a.size(); ++f) {
      if (bytes_a[f] != bytes_b[f]) {
        d.fields.push_back(byte_change{f, bytes_a[f], bytes_b[f]});
      }
    }
    if (!d.fields.empty()) {
      m.different_rows.push_back(std::move(d));
    }
  }
  m.rows_only_in_b = b.size() - m.rows_compared;
  return m;
}

[[nodiscard]] ITERAGPU_INLINE std::string_view name_of(fact_status s) noexcept {
  switch (s) {
    case fact_status::same:
      return "same";
    case fact_status::different:
      return "different";
    case fact_status::not_compared:
      return "not_compared";
  }
  return "unknown";
}

[[nodiscard]] ITERAGPU_INLINE std::vector<fact_comparison> compare_environments(const run_environment& a,
                                                                                const run_environment& b) {
  const auto fact = [](std::string_view name, const std::optional<std::string>& x, const std::optional<std::string>& y,
                       bool only_when_both) {
    fact_comparison f{name, x, y, x == y ? fact_status::same : fact_status::different};
    if (only_when_both && (!x || !y)) {
      f.status = fact_status::not_compared;
    }
    return f;
  };
  return {fact("library", a.library, b.library, false), fact("libtorch", a.libtorch, b.libtorch, false),
          fact("cuda_build", a.cuda_build, b.cuda_build, false), fact("gpu", a.gpu, b.gpu, false),
          fact("driver", a.driver, b.driver, true)};
}

[[nodiscard]] ITERAGPU_INLINE std::vector<setting_difference> compare_configurations(const run_configuration& a,
                                                                                     const run_configuration& b) {
  std::vector<setting_difference> out;
  const auto text = [&](std::string_view name, const std::string& x, const std::string& y) {
    if (x != y) {
      out.push_back(setting_difference{name, x, y});
    }
  };
  const auto number = [&](std::string_view name, std::uint64_t x, std::uint64_t y) {
    text(name, to_decimal_string(x), to_decimal_string(y));
  };
  text("device", a.device, b.device);
  number("batch", a.batch, b.batch);
  number("context", a.context, b.context);
  number("width", a.width, b.width);
  text("dtype", a.dtype, b.dtype);
  number("warmup", a.warmup, b.warmup);
  return out;
}

[[nodiscard]] ITERAGPU_INLINE comparison compare_runs(const measured_run& a, const measured_run& b) {
  return comparison{compare_memory(a.phases, b.phases), compare_times(a.gpu_seconds, b.gpu_seconds),
                    compare_times(a.seconds, b.seconds), compare_environments(a.environment, b.environment),
                    compare_configurations(a.configuration, b.configuration)};
}

[[nodiscard]] ITERAGPU_INLINE std::string memory_summary(const memory_comparison& m) {
  std::string text = m.same() ? "SAME (" + to_decimal_string(m.rows_compared) + " rows"
                              : "DIFFERENT (" + to_decimal_string(m.different_rows.size()) + " of " +
                                    to_decimal_string(m.rows_compared) + " rows";
  for (const auto& [count, side] : {std::pair{m.rows_only_in_a, "A"}, std::pair{m.rows_only_in_b, "B"}}) {
    if (count > 0) {
      text += "; " + to_decimal_string(count) + " warm_forward " + (count == 1 ? "row" : "rows") + " only in " + side;
    }
  }
  return text + ")";
}

[[nodiscard]] ITERAGPU_INLINE std::string verdict_line(const comparison& c) {
  std::string line = "B against A: memory " + memory_summary(c.memory) + ", time ";
  const auto& t = c.gpu_seconds;
  line += std::string(name_of(t.verdict)) + " (gpu_seconds of warm_forward";
  if (t.basis == time_basis::no_interval) {
    line += ", no confidence interval: 5 repeats or fewer)";
  } else {
    line += ", median " + (t.relative_change ? signed_percent(*t.relative_change) : std::string("undefined")) + ")";
  }
  std::string differing;
  for (const auto& f : c.environment) {
    if (f.status == fact_status::different) {
      differing += (differing.empty() ? "" : ", ") + std::string(f.name);
    }
  }
  line += differing.empty() ? ", environment same" : ", environment differs in " + differing;
  differing.clear();
  for (const auto& s : c.configuration) {
    differing += (differing.empty() ? "" : ", ") + std::string(s.name);
  }
  line += differing.empty() ? ", configuration same" : ", configuration differs in " + differing;
  return line;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_COMPARE_IPP
