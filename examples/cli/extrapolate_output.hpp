#ifndef ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP

#include <algorithm>
#include <array>
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
/// (data/schema/extrapolation.schema.json) and its text, the answer first
/// (the largest size per card or capacity, then the sizes asked), then what
/// the answer assumes, then what the model could not explain.
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

// The name of a fit's kind, as the JSON and the text write it.
[[nodiscard]] inline const char* kind_name(memory::fit_kind k) noexcept {
  switch (k) {
    case memory::fit_kind::constant:
      return "constant";
    case memory::fit_kind::affine:
      return "affine";
    case memory::fit_kind::quadratic:
      return "quadratic";
    case memory::fit_kind::saturating:
      return "saturating";
    case memory::fit_kind::piecewise:
      return "piecewise";
    case memory::fit_kind::unexplained:
      return "unexplained";
  }
  return "unexplained";
}

inline constexpr std::array<memory::fit_kind, 6> every_kind{memory::fit_kind::constant,  memory::fit_kind::affine,
                                                            memory::fit_kind::quadratic, memory::fit_kind::saturating,
                                                            memory::fit_kind::piecewise, memory::fit_kind::unexplained};

[[nodiscard]] inline std::size_t count_of(const memory::extrapolation& e, memory::fit_kind k) {
  return static_cast<std::size_t>(std::ranges::count_if(e.fits, [&](const auto& f) { return f.kind == k; }));
}

// Per input size, the explained requests whose size there lies on no
// piece of their fit shared with another size: left out of the fit (the
// request takes another path at that size, typically size 1).
[[nodiscard]] inline std::vector<std::pair<std::uint64_t, std::size_t>> left_out(const memory::extrapolation& e) {
  std::vector<std::pair<std::uint64_t, std::size_t>> counts;
  for (std::size_t t = 0; t < e.sizes.size(); ++t) {
    std::size_t count = 0;
    for (const auto& f : e.fits) {
      const bool alone = std::ranges::any_of(
          f.below, [&](const memory::fit_piece& p) { return p.first == e.sizes[t] && p.last == e.sizes[t]; });
      count += f.kind != memory::fit_kind::unexplained && f.observed[t] && alone ? 1U : 0U;
    }
    if (count > 0) {
      counts.emplace_back(e.sizes[t], count);
    }
  }
  std::ranges::sort(counts);
  return counts;
}

// The memory outside the allocator and where the figure comes from.
[[nodiscard]] inline std::string outside_source(const extrapolate_command_options& o) {
  return o.outside_given ? std::string("given by --outside-bytes")
                         : std::string("the CUDA context and library handles of PyTorch 2.11 measured on an H200; "
                                       "another card, driver or PyTorch differs: --outside-bytes to change it");
}

[[nodiscard]] inline boost::json::object replay_json(const memory::replay_outcome& r) {
  return boost::json::object{{"peak_allocated_bytes", r.peak_allocated.value},
                             {"peak_reserved_bytes", r.peak_reserved.value},
                             {"alloc_retries", r.alloc_retries},
                             {"oom", r.oom.has_value()}};
}

// One prediction's figures: the lower end's, `exact`, and the upper end's
// own (`upper`) where not exact; `oom` is true when either end runs out of
// memory.
inline void add_prediction(boost::json::object& row, const memory::size_prediction& p) {
  const auto& r = p.lower;
  row["peak_allocated_bytes"] = r.peak_allocated.value;
  row["peak_reserved_bytes"] = r.peak_reserved.value;
  row["alloc_retries"] = r.alloc_retries;
  row["oom"] = r.oom.has_value() || (p.upper && p.upper->oom.has_value());
  row["exact"] = !p.upper.has_value();
  if (p.upper) {
    row["peak_reserved_bytes_upper"] = p.upper->peak_reserved.value;
    row["upper"] = replay_json(*p.upper);
  }
}

[[nodiscard]] inline boost::json::object model_json(const memory::extrapolation& e) {
  boost::json::object kinds;
  for (const auto k : every_kind) {
    kinds[kind_name(k)] = count_of(e, k);
  }
  boost::json::array paths;
  paths.push_back(boost::json::object{{"from", e.path_first}, {"to", e.sizes[e.reference]}});
  for (const auto& m : e.below) {
    paths.push_back(boost::json::object{{"from", m.path_first}, {"to", m.sizes[m.reference]}});
  }
  boost::json::array dropped;
  for (const auto& [n, count] : left_out(e)) {
    dropped.push_back(boost::json::object{{"size", n}, {"requests", count}});
  }
  return boost::json::object{{"requests", e.fits.size()},
                             {"kinds", std::move(kinds)},
                             {"paths", std::move(paths)},
                             {"left_out", std::move(dropped)}};
}

[[nodiscard]] inline boost::json::object requests_json(const memory::extrapolation& e,
                                                       const extrapolate_command_options& o) {
  boost::json::array unexplained;
  for (const auto i : memory::unexplained_requests(e)) {
    boost::json::array observed;
    for (const auto& s : e.fits[i].observed) {
      observed.push_back(s ? boost::json::value(*s) : boost::json::value(nullptr));
    }
    unexplained.push_back(boost::json::object{{"event", e.fits[i].event},
                                              {"observed_bytes", std::move(observed)},
                                              {"reference_bytes", reference_bytes(e, i)},
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
  return boost::json::object{
      {"matched", matched_count(e)}, {"unexplained", std::move(unexplained)}, {"unmatched", std::move(unmatched)}};
}

[[nodiscard]] inline boost::json::array predictions_json(const extrapolate_run& run) {
  boost::json::array predictions;
  for (const auto& p : run.predictions) {
    boost::json::object row{
        {"size", p.size},
        {"alloc_conf", p.alloc_conf},
        {"capacity_bytes", p.capacity ? boost::json::value(p.capacity->bytes.value) : boost::json::value(nullptr)}};
    add_prediction(row, p.replays);
    predictions.push_back(std::move(row));
  }
  return predictions;
}

// The capacity less the most peak reserved at the size found.
[[nodiscard]] inline std::uint64_t margin_of(const extrapolate_largest& l) {
  const auto& most = l.at_size->upper ? *l.at_size->upper : l.at_size->lower;
  return l.capacity.bytes.value - std::min(l.capacity.bytes.value, most.peak_reserved.value);
}

[[nodiscard]] inline boost::json::array largest_json(const extrapolate_run& run) {
  boost::json::array largest;
  for (const auto& l : run.largest) {
    boost::json::object row{{"capacity_bytes", l.capacity.bytes.value},
                            {"alloc_conf", l.alloc_conf},
                            {"gpu", l.capacity.gpu ? boost::json::value(*l.capacity.gpu) : boost::json::value(nullptr)},
                            {"size", l.found.size ? boost::json::value(*l.found.size) : boost::json::value(nullptr)},
                            {"at_limit", l.found.at_limit},
                            {"exact", l.exact}};
    if (l.at_size) {
      row["margin_bytes"] = margin_of(l);
    }
    largest.push_back(std::move(row));
  }
  return largest;
}

[[nodiscard]] inline boost::json::array cards_json(const extrapolate_run& run) {
  boost::json::array cards;
  for (const auto& c : run.cards) {
    boost::json::array verdicts;
    for (const auto& v : c.verdicts) {
      boost::json::object row{{"size", v.size}, {"alloc_conf", v.alloc_conf}, {"fits", v.fits}};
      if (v.replays) {
        add_prediction(row, *v.replays);
      }
      verdicts.push_back(std::move(row));
    }
    cards.push_back(boost::json::object{{"gpu", c.capacity.gpu.value_or("")},
                                        {"capacity_bytes", c.capacity.bytes.value},
                                        {"device_memory_bytes", optional_bytes(c.capacity.device_memory)},
                                        {"sizes", std::move(verdicts)}});
  }
  return cards;
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
  boost::json::array settings;
  for (const auto& s : run.settings) {
    settings.emplace_back(s.alloc_conf);
  }
  out["assumptions"] = boost::json::object{{"outside_allocator_bytes", o.outside.value},
                                           {"outside_allocator_source", d::outside_source(o)},
                                           {"device_memory_bytes", d::optional_bytes(o.device_memory)},
                                           {"alloc_confs", std::move(settings)}};
  out["model"] = d::model_json(e);
  out["requests"] = d::requests_json(e, o);
  out["predictions"] = d::predictions_json(run);
  if (o.largest) {
    out["largest"] = d::largest_json(run);
  }
  out["cards"] = d::cards_json(run);
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

// A request's sizes as seen: "1048576 at 4, 4194304 at 16".
[[nodiscard]] inline std::string seen_text(const memory::extrapolation& e, std::size_t i) {
  std::string text;
  for (std::size_t t = 0; t < e.sizes.size(); ++t) {
    if (const auto& s = e.fits[i].observed[t]) {
      text += (text.empty() ? "" : ", ") + to_decimal_string(*s) + " at " + to_decimal_string(e.sizes[t]);
    }
  }
  return text;
}

// The first line of the model: the requests per function and the paths.
inline void write_kinds_text(std::ostream& out, const memory::extrapolation& e) {
  out << "Model: " << e.fits.size() << " requests of the reference (size " << e.sizes[e.reference] << "):";
  bool first = true;
  for (const auto k : every_kind) {
    if (const auto count = count_of(e, k); count > 0) {
      out << (first ? " " : ", ") << count << ' ' << kind_name(k);
      first = false;
    }
  }
  out << "; its path holds from size " << e.path_first;
  for (const auto& m : e.below) {
    out << "; another from " << m.path_first << " to " << m.sizes[m.reference];
  }
  out << '\n';
}

// The unexplained requests in one line: count, share, the three largest.
inline void write_unexplained_text(std::ostream& out, const memory::extrapolation& e,
                                   std::vector<std::size_t> unexplained) {
  std::ranges::stable_sort(unexplained,
                           [&](std::size_t x, std::size_t y) { return reference_bytes(e, x) > reference_bytes(e, y); });
  std::uint64_t bytes = 0;
  for (const auto i : unexplained) {
    bytes += reference_bytes(e, i);
  }
  out << "  " << unexplained.size()
      << " unexplained (no confirmed function: each a range, from the largest sizes seen), "
      << percent(std::min(bytes, e.reference_peak_requested), e.reference_peak_requested)
      << " of the reference's peak of bytes asked at once at most; the largest:";
  for (std::size_t k = 0; k < unexplained.size() && k < 3; ++k) {
    out << (k == 0 ? " " : "; ") << "event " << e.fits[unexplained[k]].event << " (" << seen_text(e, unexplained[k])
        << ")";
  }
  out << '\n';
}

// With --verbose, every unexplained request and every unmatched run.
inline void write_every_request_text(std::ostream& out, const memory::extrapolation& e,
                                     const extrapolate_command_options& o) {
  for (const auto i : memory::unexplained_requests(e)) {
    out << "  unexplained: event " << e.fits[i].event << ", sizes " << seen_text(e, i) << "; "
        << percent(reference_bytes(e, i), e.reference_peak_requested)
        << " of the reference's peak of requested bytes\n";
  }
  for (const auto& u : e.unmatched) {
    out << "  unmatched: " << u.count << " request(s) of " << quoted(o.files[u.trace]) << " (size " << e.sizes[u.trace]
        << ") from request " << u.first_request << " (event " << u.event << ")\n";
  }
}

/// What the model holds and what it could not explain, in a few lines
/// (every request with --verbose).
inline void write_model_text(std::ostream& out, const memory::extrapolation& e, const extrapolate_command_options& o) {
  write_kinds_text(out, e);
  if (const auto saturating = count_of(e, memory::fit_kind::saturating); saturating > 0) {
    out << "  " << saturating
        << " request(s) stop growing at a size that depends on the device (one part per multiprocessor): the "
           "answer holds on cards like the recording one\n";
  }
  const auto dropped = left_out(e);  // sizes where a request takes another path
  if (!dropped.empty()) {
    out << "  left out of their fits (another path there):";
    for (std::size_t k = 0; k < dropped.size(); ++k) {
      out << (k == 0 ? " " : ", ") << dropped[k].second << " at size " << dropped[k].first;
    }
    out << '\n';
  }
  const auto unexplained = memory::unexplained_requests(e);
  if (!unexplained.empty()) {
    write_unexplained_text(out, e, unexplained);
  }
  if (o.verbose) {
    write_every_request_text(out, e, o);
  } else if (!unexplained.empty() || !e.unmatched.empty()) {
    out << "  (--verbose lists every unexplained request and every run of requests another path makes)\n";
  }
}

// The largest size's words: the size, its margin, and why the next does not fit.
[[nodiscard]] inline std::string largest_text(const extrapolate_largest& l) {
  if (!l.found.size) {
    return "none (size 1 does not fit)";
  }
  if (l.found.at_limit) {
    return "at least " + to_decimal_string(*l.found.size) + " (the search's limit)";
  }
  std::string text = to_decimal_string(*l.found.size);
  if (l.at_size) {
    text += ", margin " + bytes_and_size_text(margin_of(l));
  }
  text += l.exact ? "; " + to_decimal_string(*l.found.size + 1) + " does not fit"
                  : "; " + to_decimal_string(*l.found.size + 1) +
                        " does not fit at one end of its range (judged on "
                        "both ends)";
  return text;
}

/// The largest-size lines of the text: one per capacity and setting.
inline void write_largest_text(std::ostream& out, const extrapolate_run& run) {
  std::string setting;
  for (const auto& l : run.largest) {
    if (l.alloc_conf != setting || &l == &run.largest.front()) {
      setting = l.alloc_conf;
      out << "Largest size, " << setting_name(setting) << ":\n";
    }
    out << "  " << (l.capacity.gpu ? *l.capacity.gpu : l.capacity.basis) << ", capacity "
        << bytes_and_size_text(l.capacity.bytes.value) << ": " << largest_text(l) << '\n';
  }
}

// The cards that hold size n under the setting, in words.
[[nodiscard]] inline std::string cards_text(const extrapolate_run& run, std::uint64_t n, const std::string& setting) {
  std::vector<std::string> fit;
  std::vector<std::string> not_fit;
  for (const auto& c : run.cards) {
    for (const auto& v : c.verdicts) {
      if (v.size != n || v.alloc_conf != setting) {
        continue;
      }
      if (v.fits) {
        fit.push_back(c.capacity.gpu.value_or("?"));
      } else {
        not_fit.push_back(c.capacity.gpu.value_or("?"));
      }
    }
  }
  const auto join = [](const std::vector<std::string>& ids) {
    std::string text;
    for (const auto& id : ids) {
      text += (text.empty() ? "" : " ") + id;
    }
    return text;
  };
  if (fit.empty() && not_fit.empty()) {
    return "";
  }
  if (not_fit.empty()) {
    return "; fits every card judged";
  }
  return fit.empty() ? "; fits no card judged" : "; fits " + join(fit) + "; not " + join(not_fit);
}

}  // namespace detail::extrapolating

/// The text of `mesure_memoire extrapolate`: the answer first.
inline void write_extrapolation_text(std::ostream& out, const extrapolate_run& run,
                                     const extrapolate_command_options& o) {
  namespace d = detail::extrapolating;
  const auto& e = run.model;
  out << "Extrapolation of " << o.files.size() << " snapshots at sizes";
  for (std::size_t i = 0; i < e.sizes.size(); ++i) {
    out << (i == 0 ? " " : ", ") << e.sizes[i];
  }
  out << "; the requests of " << quoted(o.files[e.reference]) << " (size " << e.sizes[e.reference]
      << ") are followed (a prediction)\n";
  d::write_largest_text(out, run);
  for (const auto& p : run.predictions) {
    const auto& r = p.replays.lower;
    out << "size " << p.size << ", " << d::setting_name(p.alloc_conf) << ", capacity "
        << (p.capacity ? bytes_and_size_text(p.capacity->bytes.value) : std::string("unlimited")) << ": peak allocated "
        << bytes_and_size_text(r.peak_allocated.value) << ", peak reserved "
        << bytes_and_size_text(r.peak_reserved.value);
    if (p.replays.upper) {
      const auto& u = *p.replays.upper;
      if (u.oom) {
        out << "; the upper end of the range runs out of memory";
      } else {
        out << " to " << bytes_and_size_text(u.peak_reserved.value) << " (a range)";
      }
    }
    out << ", " << r.alloc_retries << (r.alloc_retries == 1 ? " allocation retry" : " allocation retries")
        << (r.oom ? ", out of memory" : "") << (p.capacity ? "" : d::cards_text(run, p.size, p.alloc_conf)) << '\n';
  }
  out << "Assumed: " << o.outside.value << " bytes outside the allocator on every card (" << d::outside_source(o)
      << "); settings replayed: ";
  for (std::size_t k = 0; k < run.settings.size(); ++k) {
    out << (k == 0 ? "" : ", ") << d::setting_name(run.settings[k].alloc_conf);
  }
  if (std::ranges::any_of(run.settings, [](const auto& s) { return s.settings.expandable_segments; })) {
    out << "; expandable segments sized by "
        << (o.device_memory ? to_decimal_string(o.device_memory->value) + " bytes (--device-memory-bytes)"
                            : std::string("each card's own memory"));
  }
  out << '\n';
  if (!run.cards.empty()) {
    out << pricing::memory_rule_statement << '\n';
  }
  d::write_model_text(out, e, o);
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_OUTPUT_HPP
