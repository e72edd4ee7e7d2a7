#ifndef ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "cli/calcul_forfaits_files.hpp"
#include "cli/card_capacity.hpp"
#include "cli/common.hpp"
#include "cli/extrapolate_flags.hpp"
#include "cli/replay_command.hpp"
#include "iteragpu/memory/extrapolation.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/catalog_errors.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// `mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,...`: snapshots of
/// one program at several sizes of one dimension, matched and fitted
/// (memory/extrapolation.hpp), the trace built at each size asked and
/// replayed, and the largest size that completes under each capacity. No
/// GPU, no LibTorch. docs/extrapolate.md documents the command.
namespace iteragpu::cli {

/// One capacity of --largest: its bytes, and the catalog GPU it stands for
/// (none for --capacity-bytes).
using extrapolate_capacity = card_capacity;

/// One prediction: a size under one setting and one capacity.
struct extrapolate_prediction {
  std::uint64_t size{0};                 ///< N
  std::string alloc_conf;                ///< "" for the recorded settings
  std::optional<byte_count> capacity;    ///< none: unlimited
  memory::size_prediction replays;       ///< the lower trace, and the upper one when not exact
};

/// One answer of --largest.
struct extrapolate_largest {
  extrapolate_capacity capacity;  ///< the capacity searched
  std::string alloc_conf;         ///< "" for the recorded settings
  memory::largest_size found;     ///< the size found
};

/// Everything the command prints.
struct extrapolate_run {
  memory::extrapolation model;                   ///< the traces matched and fitted
  std::vector<extrapolate_prediction> predictions;  ///< per --to, setting, capacity
  std::vector<extrapolate_largest> largest;      ///< per capacity and setting, with --largest
};

namespace detail::extrapolating {

// The snapshot's trace of the device asked, or a usage_error naming the file.
[[nodiscard]] inline memory::device_trace trace_in(const memory::snapshot& s, const std::string& file,
                                                   std::size_t device) {
  if (device >= s.devices.size() || s.devices[device].events.empty()) {
    throw usage_error("--device-index " + to_decimal_string(device) + ": " + quoted(file) +
                      " has no trace events for that device (it has traces for " +
                      to_decimal_string(s.devices.size()) +
                      " device(s)); record with torch.cuda.memory._record_memory_history() before the first "
                      "allocation");
  }
  return s.devices[device];
}

// The words for an extrapolation error, naming the snapshot at fault.
[[nodiscard]] inline std::string describe(const memory::extrapolation_error& e,
                                          const extrapolate_command_options& o) {
  const std::string file = e.trace < o.files.size() ? quoted(o.files[e.trace]) : std::string("a snapshot");
  const std::string event = to_decimal_string(e.event);
  const std::string size = to_decimal_string(e.size);
  switch (e.code) {
    case memory::extrapolation_errc::starts_late:
      return file + ": event " + event +
             " frees a block no earlier event allocated (the trace starts late); expected a trace recorded from "
             "the process's first allocation";
    case memory::extrapolation_errc::segment_unexplained:
      return file + ": the snapshot holds the segment at address " + to_decimal_string(e.address) +
             " that no event of its trace reserved (the trace starts late); expected a trace recorded from the "
             "process's first allocation";
    case memory::extrapolation_errc::address_reused:
      return file + ": event " + event + " allocates at the address of a block still in use; expected a "
                                         "trace of torch.cuda.memory._record_memory_history()";
    case memory::extrapolation_errc::negative_size:
      return "size " + size + ": the request of event " + event + " of " + file +
             " falls below 0 bytes there; expected sizes at which every fitted request is 0 bytes or more";
    case memory::extrapolation_errc::size_overflow:
      return "size " + size + ": the request of event " + event + " of " + file +
             " passes 2^63 bytes there; expected a smaller size";
    case memory::extrapolation_errc::replay_failed:
      return "size " + size + ": the trace built from " + file + " cannot be replayed: " +
             (e.replay ? report::describe(*e.replay) : std::string("unknown reason"));
    case memory::extrapolation_errc::too_few_traces:
    case memory::extrapolation_errc::sizes_mismatch:
    case memory::extrapolation_errc::size_not_positive:
    case memory::extrapolation_errc::size_repeated:
      break;
  }
  // The flags are checked before the library sees them.
  return "--sizes: refused; expected one positive size per snapshot, each size once";
}

template <class T>
[[nodiscard]] T checked(result<T, memory::extrapolation_error> r, const extrapolate_command_options& o) {
  if (!r) {
    throw usage_error(describe(r.error(), o));
  }
  return std::move(*r);
}

// The capacities of --largest: those given, the GPU asked, or every GPU of the catalog.
[[nodiscard]] inline std::vector<extrapolate_capacity> capacities_of(
    const extrapolate_command_options& o, std::span<const std::filesystem::path> default_catalogs) {
  if (!o.capacities.empty()) {
    std::vector<extrapolate_capacity> found;
    for (const auto c : o.capacities) {
      found.push_back({c, std::nullopt, memory::prediction::h200_device_memory, "--capacity-bytes"});
    }
    return found;
  }
  return catalog_capacities(card_catalog(o.catalog, default_catalogs), o.gpu, o.outside);
}

}  // namespace detail::extrapolating

/// Reads the snapshots and answers what `o` asks; a usage_error names what is refused.
/// Every --alloc-conf is checked before a file is read.
[[nodiscard]] inline extrapolate_run extrapolate_files(const extrapolate_command_options& o,
                                                       std::span<const std::filesystem::path> default_catalogs) {
  namespace d = detail::extrapolating;
  std::vector<std::optional<memory::prediction::allocator_settings>> asked;
  for (const auto& text : o.alloc_confs) {
    asked.push_back(settings_of_flag(text));
  }
  std::vector<extrapolate_capacity> capacities;
  if (o.largest) {
    capacities = d::capacities_of(o, default_catalogs);
  }
  std::vector<memory::device_trace> traces;
  std::vector<memory::snapshot> snapshots;
  for (const auto& file : o.files) {
    snapshots.push_back(read_snapshot_file(file));
    traces.push_back(d::trace_in(snapshots.back(), file, o.device));
  }
  extrapolate_run run{d::checked(memory::extrapolate(traces, o.sizes), o), {}, {}};
  const auto recorded = memory::settings_of(snapshots[run.model.reference].settings);
  std::vector<std::pair<std::string, memory::prediction::allocator_settings>> settings;
  if (asked.empty()) {
    settings.emplace_back("", recorded);
  }
  for (std::size_t i = 0; i < asked.size(); ++i) {
    settings.emplace_back(o.alloc_confs[i], asked[i].value_or(recorded));
  }
  std::vector<std::optional<byte_count>> limits(o.capacities.begin(), o.capacities.end());
  if (limits.empty()) {
    limits.emplace_back();
  }
  for (const auto n : o.to) {
    for (const auto& [text, s] : settings) {
      for (const auto& limit : limits) {
        memory::replay_options options;
        options.settings = s;
        options.capacity = limit;
        run.predictions.push_back({n, text, limit, d::checked(memory::predict(run.model, n, options), o)});
      }
    }
  }
  for (const auto& capacity : capacities) {
    for (const auto& [text, s] : settings) {
      memory::replay_options options;
      options.settings = s;
      options.capacity = capacity.bytes;
      options.device_memory = capacity.device_memory;
      run.largest.push_back({capacity, text,
                             d::checked(memory::find_largest_size(run.model, options, largest_extrapolated_size), o)});
    }
  }
  return run;
}

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
    unmatched.push_back(boost::json::object{{"snapshot", o.files[u.trace]}, {"size", e.sizes[u.trace]},
                                            {"first_request", u.first_request}, {"count", u.count},
                                            {"event", u.event}});
  }
  out["requests"] = boost::json::object{{"matched", d::matched_count(e)},
                                        {"unexplained", std::move(unexplained)},
                                        {"unmatched", std::move(unmatched)}};
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
inline void write_requests_text(std::ostream& out, const memory::extrapolation& e, const extrapolate_command_options& o) {
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
    out << "  unmatched: " << u.count << " request(s) of " << quoted(o.files[u.trace]) << " (size "
        << e.sizes[u.trace] << ") from request " << u.first_request << " (event " << u.event << ")\n";
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
  out << "; the order of " << quoted(o.files[e.reference]) << " (size " << e.sizes[e.reference]
      << ") is followed\n";
  d::write_requests_text(out, e, o);
  for (const auto& p : run.predictions) {
    const auto& r = p.replays.lower;
    out << "size " << p.size << ", " << d::setting_name(p.alloc_conf) << ", capacity "
        << (p.capacity ? bytes_and_size_text(p.capacity->value) : std::string("unlimited"))
        << ": peak allocated " << bytes_and_size_text(r.peak_allocated.value) << ", peak reserved "
        << bytes_and_size_text(r.peak_reserved.value);
    if (p.replays.upper) {
      out << " to " << bytes_and_size_text(p.replays.upper->peak_reserved.value);
    }
    out << ", " << r.alloc_retries << (r.alloc_retries == 1 ? " allocation retry" : " allocation retries")
        << (r.oom ? ", out of memory" : "") << '\n';
  }
  d::write_largest_text(out, run);
}

/// `mesure_memoire extrapolate`: exit 0, 2 for bad input.
[[nodiscard]] inline int run_extrapolate(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                                         std::span<const std::filesystem::path> default_catalogs) {
  constexpr std::string_view command = "mesure_memoire extrapolate";
  return guarded(command, out, err, [&] {
    if (help_requested(args)) {
      out << "usage: mesure_memoire extrapolate SNAPSHOT... --sizes N1,N2,... [--to N]... [--device-index N] "
             "[--alloc-conf CONF]... [--capacity-bytes N]... [--largest [--gpu ID] [--catalog PATH]] "
             "[--outside-bytes N] [--json]\n"
             "       mesure_memoire extrapolate --torchscript FILE --input SPEC... [--train] --sizes N1,N2,... "
             "--traces FOLDER [--to N]... [--largest ...] [--json]   (records on this machine's GPU)\n"
          << extrapolate_description() << '\n';
      return exit_success;
    }
    auto options = parse_extrapolate_options(args);
    if (options.recording) {
      if (options.largest) {
        // A catalog or GPU that is refused is refused before the GPU works.
        static_cast<void>(detail::extrapolating::capacities_of(options, default_catalogs));
      }
      auto recorded = record_sizes(*options.recording, options.device, options.sizes, command, err);
      if (!recorded) {
        err << command << ": " << recorded.error().message << '\n';
        return recorded.error().code;
      }
      options.files = std::move(*recorded);
    }
    const auto run = extrapolate_files(options, default_catalogs);
    if (options.json) {
      out << boost::json::serialize(extrapolation_json(run, options)) << '\n';
    } else {
      write_extrapolation_text(out, run, options);
    }
    return exit_success;
  });
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_COMMAND_HPP
