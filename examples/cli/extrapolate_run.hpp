#ifndef ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cli/calcul_forfaits_files.hpp"
#include "cli/card_capacity.hpp"
#include "cli/common.hpp"
#include "cli/extrapolate_flags.hpp"
#include "cli/replay_command.hpp"
#include "iteragpu/memory/extrapolation.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/catalog_errors.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// What `mesure_memoire extrapolate` computes from its snapshots: the
/// predictions at each size asked and the largest size under each capacity
/// (extrapolate_files); extrapolate_output.hpp prints it.
namespace iteragpu::cli {

/// One capacity of --largest: its bytes, and the catalog GPU it stands for
/// (none for --capacity-bytes).
using extrapolate_capacity = card_capacity;

/// One prediction: a size under one setting and one capacity.
struct extrapolate_prediction {
  std::uint64_t size{0};               ///< N
  std::string alloc_conf;              ///< "" for the recorded settings
  std::optional<byte_count> capacity;  ///< none: unlimited
  memory::size_prediction replays;     ///< the lower trace, and the upper one when not exact
};

/// One answer of --largest.
struct extrapolate_largest {
  extrapolate_capacity capacity;  ///< the capacity searched
  std::string alloc_conf;         ///< "" for the recorded settings
  memory::largest_size found;     ///< the size found
};

/// Everything the command prints.
struct extrapolate_run {
  memory::extrapolation model;                      ///< the traces matched and fitted
  std::vector<extrapolate_prediction> predictions;  ///< per --to, setting, capacity
  std::vector<extrapolate_largest> largest;         ///< per capacity and setting, with --largest
};

namespace detail::extrapolating {

// The snapshot's trace of the device asked, or a usage_error naming the file.
[[nodiscard]] inline memory::device_trace trace_in(const memory::snapshot& s, const std::string& file,
                                                   std::size_t device) {
  if (device >= s.devices.size() || s.devices[device].events.empty()) {
    throw usage_error("--device-index " + to_decimal_string(device) + ": " + quoted(file) +
                      " has no trace events for that device (it has traces for " + to_decimal_string(s.devices.size()) +
                      " device(s)); record with torch.cuda.memory._record_memory_history() before the first "
                      "allocation");
  }
  return s.devices[device];
}

// The words for an extrapolation error, naming the snapshot at fault.
[[nodiscard]] inline std::string describe(const memory::extrapolation_error& e, const extrapolate_command_options& o) {
  const std::string file = e.trace < o.files.size() ? quoted(o.files[e.trace]) : std::string("a snapshot");
  const std::string event = to_decimal_string(e.event);
  const std::string size = to_decimal_string(e.size);
  switch (e.code) {
    case memory::extrapolation_errc::starts_late:
      return file + ": event " + event +
             " frees a block no earlier event allocated (the trace starts late); expected a trace recorded from "
             "the process's first allocation";
    case memory::extrapolation_errc::segment_unexplained: {
      const auto* segment = e.what.get_if<memory::unexplained_segment_at>();
      return file + ": the snapshot holds the segment at address " +
             to_decimal_string(segment != nullptr ? segment->address : 0) +
             " that no event of its trace reserved (the trace starts late); expected a trace recorded from the "
             "process's first allocation";
    }
    case memory::extrapolation_errc::address_reused:
      return file + ": event " + event +
             " allocates at the address of a block still in use; expected a "
             "trace of torch.cuda.memory._record_memory_history()";
    case memory::extrapolation_errc::negative_size:
      return "size " + size + ": the request of event " + event + " of " + file +
             " falls below 0 bytes there; expected sizes at which every fitted request is 0 bytes or more";
    case memory::extrapolation_errc::size_overflow:
      return "size " + size + ": the request of event " + event + " of " + file +
             " passes 2^63 bytes there; expected a smaller size";
    case memory::extrapolation_errc::replay_failed: {
      const auto* replay = e.what.get_if<memory::replay_error>();
      return "size " + size + ": the trace built from " + file +
             " cannot be replayed: " + (replay != nullptr ? report::describe(*replay) : std::string("unknown reason"));
    }
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
      found.push_back({c, std::nullopt, o.device_memory, "--capacity-bytes"});
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
  // The predictions of --to run on the device of --device-memory-bytes, or on --gpu's.
  const std::optional<byte_count> device_memory =
      o.gpu && !capacities.empty() ? capacities.front().device_memory : o.device_memory;
  for (const auto& [text, s] : settings) {
    if (!o.to.empty()) {
      require_device_memory(text, s, device_memory.has_value(), "--device-memory-bytes N");
    }
    for (const auto& capacity : capacities) {
      require_device_memory(text, s, capacity.device_memory.has_value(), "--device-memory-bytes N");
    }
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
        options.device_memory = device_memory;
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
      run.largest.push_back(
          {capacity, text, d::checked(memory::find_largest_size(run.model, options, largest_extrapolated_size), o)});
    }
  }
  return run;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP
