#ifndef ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "cli/extrapolate_flags.hpp"
#include "cli/extrapolate_run.hpp"
#include "iteragpu/memory/extrapolation.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The answer of `mesure_memoire extrapolate`: its JSON
/// (data/schema/extrapolation.schema.json) and its text.
namespace iteragpu::cli {

namespace detail::extrapolating {

[[nodiscard]] inline boost::json::value optional_bytes(const std::optional<byte_count>& b) {
  return b ? boost::json::value(b->value) : boost::json::value(nullptr);
}

[[nodiscard]] inline std::size_t matched_count(const memory::extrapolation& e) {
  std::size_t count = 0;
  for (const auto& f : e.fits) {
    count += std::ranges::all_of(f.observed, [](const auto& s) { return s.has_value(); }) ? 1U : 0U;
  }
  return count;
}

// The reference's size of request `i`.
[[nodiscard]] inline std::uint64_t reference_bytes(const memory::extrapolation& e, std::size_t i) {
  return e.fits[i].observed[e.reference].value_or(0);
}

}  // namespace detail::extrapolating

/// The JSON of `mesure_memoire extrapolate --json` (data/schema/extrapolation.schema.json).
[[nodiscard]] inline boost::json::object extrapolation_json(const extrapolate_run& run,
                                                            const extrapolate_command_options& o) {
  namespace d = detail::extrapolating;
  const auto& e = run.model;
  boost::json::object out;
  out["kind"] = "extrapolation";
  boost::json::array sizes;
  for (const auto n : e.sizes) {
    sizes.emplace_back(n);
  }
  out["sizes"] = std::move(sizes);
  boost::json::array unexplained;
  for (const auto i : memory::unexplained_requests(e)) {
    boost::json::array observed;
    for (const auto& s : e.fits[i].observed) {
      observed.push_back(s ? boost::json::value(*s) : boost::json::value(nullptr));
    }
    unexplained.push_back(boost::json::object{{"event", e.fits[i].event},
                                              {"observed_bytes", std::move(observed)},
                                              {"reference_bytes", d::reference_bytes(e, i)},
                                              {"reference_peak_requested_bytes", e.reference_peak_requested}});
  }
  boost::json::array unmatched;
  for (const auto& u : e.unmatched) {
    unmatched.push_back(boost::json::object{{"snapshot", o.files[u.trace]},
                                            {"size", e.sizes[u.trace]},
                                            {"first_request", u.first_request},
                                            {"count", u.count},
                                            {"event", u.event}});
  }
  out["requests"] = boost::json::object{
      {"matched", d::matched_count(e)}, {"unexplained", std::move(unexplained)}, {"unmatched", std::move(unmatched)}};
  boost::json::array predictions;
  for (const auto& p : run.predictions) {
    const auto& r = p.replays.lower;
    boost::json::object row{{"size", p.size},
                            {"alloc_conf", p.alloc_conf},
                            {"capacity_bytes", d::optional_bytes(p.capacity)},
                            {"peak_allocated_bytes", r.peak_allocated.value},
                            {"peak_reserved_bytes", r.peak_reserved.value},
                            {"alloc_retries", r.alloc_retries},
                            {"oom", r.oom.has_value()},
                            {"exact", !p.replays.upper.has_value()}};
    if (p.replays.upper) {
      row["peak_reserved_bytes_upper"] = p.replays.upper->peak_reserved.value;
    }
    predictions.push_back(std::move(row));
  }
  out["predictions"] = std::move(predictions);
  if (o.largest) {
    boost::json::array largest;
    for (const auto& l : run.largest) {
      largest.push_back(boost::json::object{
          {"capacity_bytes", l.capacity.bytes.value},
          {"alloc_conf", l.alloc_conf},
          {"gpu", l.capacity.gpu ? boost::json::value(*l.capacity.gpu) : boost::json::value(nullptr)},
          {"size", l.found.size ? boost::json::value(*l.found.size) : boost::json::value(nullptr)}});
    }
    out["largest"] = std::move(largest);
  }
  return out;
}

namespace detail::extrapolating {

// Hundredths of a percent of `part` in `whole`, rounded down, as "12.34 %".
[[nodiscard]] inline std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) {
    return "0.00 %";
  }
  const auto scaled = checked_mul<std::uint64_t>(part, 10'000U);
  const std::uint64_t hundredths = scaled ? *scaled / whole : 10'000U;
  const std::uint64_t rest = hundredths % 100U;
  return to_decimal_string(hundredths / 100U) + "." + (rest < 10U ? "0" : "") + to_decimal_string(rest) + " %";
}

[[nodiscard]] inline std::string setting_name(const std::string& alloc_conf) {
  return alloc_conf.empty() ? std::string("recorded settings") : "--alloc-conf " + quoted(alloc_conf);
}

/// The requests part of the text: counts, the unexplained and the unmatched.
inline void write_requests_text(std::ostream& out, const memory::extrapolation& e,
                                const extrapolate_command_options& o) {
  const auto unexplained = memory::unexplained_requests(e);
  out << "Requests: " << matched_count(e) << " matched in every snapshot, " << unexplained.size() << " unexplained, "
      << e.unmatched.size() << " unmatched run(s)\n";
  for (const auto i : unexplained) {
    out << "  unexplained: event " << e.fits[i].event << ", sizes";
    for (std::size_t t = 0; t < e.sizes.size(); ++t) {
      const auto& s = e.fits[i].observed[t];
      out << (t == 0 ? " " : ", ") << (s ? to_decimal_string(*s) : std::string("-")) << " at " << e.sizes[t];
    }
    out << "; " << percent(reference_bytes(e, i), e.reference_peak_requested)
        << " of the reference's peak of requested bytes\n";
  }
  for (const auto& u : e.unmatched) {
    out << "  unmatched: " << u.count << " request(s) of " << quoted(o.files[u.trace]) << " (size " << e.sizes[u.trace]
        << ") from request " << u.first_request << " (event " << u.event << ")\n";
  }
  if (!memory::is_exact(e)) {
    out << "Not exact: each figure is a range; lower: every unexplained request at the least size seen; upper: "
           "at the most of each seen size grown in proportion to N (docs/extrapolate.md)\n";
  }
}

/// The largest-size lines of the text.
inline void write_largest_text(std::ostream& out, const extrapolate_run& run) {
  if (!run.largest.empty() && run.largest.front().capacity.gpu) {
    out << pricing::memory_rule_statement << '\n';
  }
  for (const auto& l : run.largest) {
    out << "largest size under " << bytes_and_size_text(l.capacity.bytes.value);
    if (l.capacity.gpu) {
      out << " (" << *l.capacity.gpu << ": " << l.capacity.basis << ")";
    }
    out << ", " << setting_name(l.alloc_conf) << ": ";
    if (!l.found.size) {
      out << "none (size 1 runs out of memory)\n";
    } else if (l.found.at_limit) {
      out << "at least " << *l.found.size << " (the search's limit)\n";
    } else {
      out << *l.found.size << " (" << *l.found.size + 1 << " runs out of memory)\n";
    }
  }
}

}  // namespace detail::extrapolating

/// The text of `mesure_memoire extrapolate`.
inline void write_extrapolation_text(std::ostream& out, const extrapolate_run& run,
                                     const extrapolate_command_options& o) {
  namespace d = detail::extrapolating;
  const auto& e = run.model;
  out << "Extrapolation of " << o.files.size() << " snapshots at sizes";
  for (std::size_t i = 0; i < e.sizes.size(); ++i) {
    out << (i == 0 ? " " : ", ") << e.sizes[i];
  }
  out << "; the order of " << quoted(o.files[e.reference]) << " (size " << e.sizes[e.reference] << ") is followed\n";
  d::write_requests_text(out, e, o);
  for (const auto& p : run.predictions) {
    const auto& r = p.replays.lower;
    out << "size " << p.size << ", " << d::setting_name(p.alloc_conf) << ", capacity "
        << (p.capacity ? bytes_and_size_text(p.capacity->value) : std::string("unlimited")) << ": peak allocated "
        << bytes_and_size_text(r.peak_allocated.value) << ", peak reserved "
        << bytes_and_size_text(r.peak_reserved.value);
    if (p.replays.upper) {
      out << " to " << bytes_and_size_text(p.replays.upper->peak_reserved.value);
    }
    out << ", " << r.alloc_retries << (r.alloc_retries == 1 ? " allocation retry" : " allocation retries")
        << (r.oom ? ", out of memory" : "") << '\n';
  }
  d::write_largest_text(out, run);
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP
