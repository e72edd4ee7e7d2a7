#ifndef ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP
#define ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
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
#include "cli/snapshot_input.hpp"
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

/// One setting replayed: its --alloc-conf text ("" for the recorded settings) and the settings.
struct extrapolate_setting {
  std::string alloc_conf;                           ///< "" for the recorded settings
  memory::prediction::allocator_settings settings;  ///< what is replayed
};

/// One prediction of --to: a size under one setting and one capacity.
struct extrapolate_prediction {
  std::uint64_t size{0};                  ///< N
  std::string alloc_conf;                 ///< "" for the recorded settings
  std::optional<card_capacity> capacity;  ///< none: unlimited
  memory::size_prediction replays;        ///< the lower end, and the upper one when not exact
  bool fits{false};                       ///< every end completes (completes_at())
};

/// One answer of --largest.
struct extrapolate_largest {
  card_capacity capacity;                          ///< the capacity searched (a card or a flag's)
  std::string alloc_conf;                          ///< "" for the recorded settings
  memory::largest_size found;                      ///< the size found
  std::optional<memory::size_prediction> at_size;  ///< the prediction at the size found, under the capacity
  bool exact{false};                               ///< the prediction at the size found is one trace
};

/// The verdict of one card at one size and setting: what `calcul_forfaits
/// --fits FILE --size N` reads.
struct card_verdict {
  std::uint64_t size{0};                           ///< N
  std::string alloc_conf;                          ///< "" for the recorded settings
  bool fits{false};                                ///< every end completes under the card's capacity
  std::optional<memory::size_prediction> replays;  ///< the replays under it (none: a size past what a request can be)
};

/// One card of the catalog and its verdicts.
struct extrapolate_card {
  card_capacity capacity;              ///< its capacity, with the GPU's id
  std::vector<card_verdict> verdicts;  ///< per size and setting
};

/// Everything the command prints.
struct extrapolate_run {
  memory::extrapolation model;                      ///< the traces matched and fitted
  std::vector<extrapolate_setting> settings;        ///< the settings replayed, in order
  std::vector<extrapolate_prediction> predictions;  ///< per --to, setting, capacity
  std::vector<extrapolate_largest> largest;         ///< per capacity and setting, with --largest
  std::vector<extrapolate_card> cards;              ///< the cards judged at every size asked or found
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
    case memory::extrapolation_errc::no_requests:
      return file + ": its trace makes no allocation (segment events only, or none); expected a trace recorded "
                    "with torch.cuda.memory._record_memory_history() while the program ran";
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

// The cards judged: each --gpu, or every GPU of the catalog.
[[nodiscard]] inline std::vector<card_capacity> cards_of(const extrapolate_command_options& o,
                                                         std::span<const std::filesystem::path> default_catalogs) {
  const auto catalog = card_catalog(o.catalog, default_catalogs);
  if (o.gpus.empty()) {
    return catalog_capacities(catalog, std::nullopt, o.outside);
  }
  std::vector<card_capacity> found;
  for (const auto& id : o.gpus) {
    if (std::ranges::any_of(found, [&](const card_capacity& c) { return c.gpu == id; })) {
      throw usage_error("--gpu: " + quoted_excerpt(id) + " is given twice; expected each GPU once");
    }
    for (auto& c : catalog_capacities(catalog, id, o.outside)) {
      found.push_back(std::move(c));
    }
  }
  return found;
}

// The judges of one setting: one per device memory where the setting uses
// it (expandable segments), else one for every capacity.
class judges {
 public:
  judges(const memory::extrapolation& model, const extrapolate_setting& setting) : model_(&model), setting_(&setting) {}
  memory::size_judge& for_device(std::optional<byte_count> device_memory) {
    const auto key = setting_->settings.expandable_segments ? device_memory : std::nullopt;
    for (auto& [k, judge] : judges_) {
      if (k == key) {
        return judge;
      }
    }
    memory::replay_options options;
    options.settings = setting_->settings;
    options.device_memory = key;
    return judges_.emplace_back(key, memory::size_judge(*model_, options)).second;
  }

 private:
  const memory::extrapolation* model_;
  const extrapolate_setting* setting_;
  std::deque<std::pair<std::optional<byte_count>, memory::size_judge>> judges_{};
};

// The settings replayed: the recorded ones, or each --alloc-conf ("" for
// the recorded ones); each checked for the device memory it needs.
[[nodiscard]] inline std::vector<extrapolate_setting> settings_of_run(
    const extrapolate_command_options& o,
    const std::vector<std::optional<memory::prediction::allocator_settings>>& asked,
    const memory::prediction::allocator_settings& recorded, std::span<const card_capacity> capacities) {
  std::vector<extrapolate_setting> settings;
  if (asked.empty()) {
    settings.push_back({"", recorded});
  }
  for (std::size_t i = 0; i < asked.size(); ++i) {
    settings.push_back({o.alloc_confs[i], asked[i].value_or(recorded)});
  }
  for (const auto& s : settings) {
    if (!o.to.empty()) {
      require_device_memory(s.alloc_conf, s.settings, o.device_memory.has_value(), "--device-memory-bytes N");
    }
    for (const auto& c : capacities) {
      require_device_memory(s.alloc_conf, s.settings, c.device_memory.has_value(), "--device-memory-bytes N");
    }
  }
  return settings;
}

// The predictions of --to: each size, setting and capacity (none: unlimited).
inline void predict_asked(extrapolate_run& run, std::deque<judges>& by_setting, const extrapolate_command_options& o,
                          std::span<const card_capacity> capacities) {
  std::vector<std::optional<card_capacity>> limits(capacities.begin(), capacities.end());
  if (limits.empty()) {
    limits.emplace_back();
  }
  for (const auto n : o.to) {
    for (std::size_t k = 0; k < run.settings.size(); ++k) {
      for (const auto& limit : limits) {
        auto& judge = by_setting[k].for_device(limit ? limit->device_memory : o.device_memory);
        const auto bytes = limit ? std::optional<byte_count>(limit->bytes) : std::nullopt;
        auto replays = checked(judge.predict(n, bytes), o);
        const bool fits = checked(judge.completes(n, bytes), o);
        run.predictions.push_back({n, run.settings[k].alloc_conf, limit, std::move(replays), fits});
      }
    }
  }
}

// --largest: under each capacity given and each --gpu, or every card of the
// catalog when neither is given.
inline void search_largest(extrapolate_run& run, std::deque<judges>& by_setting, const extrapolate_command_options& o,
                           std::span<const card_capacity> capacities, std::span<const card_capacity> cards) {
  std::vector<card_capacity> searched(capacities.begin(), capacities.end());
  if (capacities.empty() || !o.gpus.empty()) {
    searched.insert(searched.end(), cards.begin(), cards.end());
  }
  for (const auto& capacity : searched) {
    for (std::size_t k = 0; k < run.settings.size(); ++k) {
      auto& judge = by_setting[k].for_device(capacity.device_memory);
      const auto found = checked(judge.largest(capacity.bytes, largest_extrapolated_size), o);
      std::optional<memory::size_prediction> at_size;
      if (found.size) {
        at_size = checked(judge.predict(*found.size, capacity.bytes), o);
      }
      const bool exact = found.size && memory::is_exact_at(run.model, *found.size);
      run.largest.push_back({capacity, run.settings[k].alloc_conf, found, std::move(at_size), exact});
    }
  }
}

// Every card judged at each size asked or found (and the one after a size
// found), so that calcul_forfaits prices what this run answered.
inline void judge_cards(extrapolate_run& run, std::deque<judges>& by_setting, const extrapolate_command_options& o,
                        std::span<const card_capacity> cards) {
  std::vector<std::uint64_t> judged(o.to.begin(), o.to.end());
  for (const auto& l : run.largest) {
    if (l.found.size) {
      judged.push_back(*l.found.size);
      if (!l.found.at_limit) {
        judged.push_back(*l.found.size + 1);
      }
    }
  }
  std::ranges::sort(judged);
  judged.erase(std::unique(judged.begin(), judged.end()), judged.end());
  for (const auto& card : cards) {
    extrapolate_card c{card, {}};
    for (const auto n : judged) {
      for (std::size_t k = 0; k < run.settings.size(); ++k) {
        auto& judge = by_setting[k].for_device(card.device_memory);
        const bool fits = checked(judge.completes(n, card.bytes), o);
        auto replays = judge.predict(n, card.bytes);
        c.verdicts.push_back({n, run.settings[k].alloc_conf, fits,
                              replays ? std::optional<memory::size_prediction>(std::move(*replays)) : std::nullopt});
      }
    }
    run.cards.push_back(std::move(c));
  }
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
  std::vector<card_capacity> capacities;
  for (const auto& c : o.capacities) {
    capacities.push_back(resolve_capacity(c, o.device_memory, o.outside));
  }
  const auto cards = d::cards_of(o, default_catalogs);
  std::vector<memory::device_trace> traces;
  std::vector<memory::snapshot> snapshots;
  for (const auto& file : o.files) {
    snapshots.push_back(read_snapshot_file(file));
    traces.push_back(d::trace_in(snapshots.back(), file, o.device));
  }
  extrapolate_run run{d::checked(memory::extrapolate(traces, o.sizes), o), {}, {}, {}, {}};
  run.settings = d::settings_of_run(o, asked, memory::settings_of(snapshots[run.model.reference].settings), capacities);
  std::deque<d::judges> by_setting;
  for (const auto& s : run.settings) {
    by_setting.emplace_back(run.model, s);
  }
  d::predict_asked(run, by_setting, o, capacities);
  if (o.largest) {
    d::search_largest(run, by_setting, o, capacities, cards);
  }
  d::judge_cards(run, by_setting, o, cards);
  return run;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_EXTRAPOLATE_RUN_HPP
