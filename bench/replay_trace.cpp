// bench/replay_trace: the time to replay an allocator trace of one million
// events (half allocations, half frees, of sizes from 512 B to 64 MiB on
// one stream, as a training loop's activations come and go), median of five
// runs, under the default settings and under expandable segments; the time
// of the study `mesure_memoire replay` makes of it under six settings (the
// defaults, expandable segments, max_split_size_mb 64 and 256, both forms of
// roundup_power2_divisions: the self-check and six replays); and the time
// to read the same trace from its JSON form (the dict of
// torch.cuda.memory._snapshot()). The goal: the six settings in under 2
// seconds; with --check, exit 1 when they take longer.
//   iteragpu_bench_replay [EVENTS] [--check]
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include <iteragpu/memory/files/snapshot.hpp>
#include <iteragpu/memory/prediction/allocator_settings.hpp>
#include <iteragpu/memory/prediction/caching_allocator.hpp>
#include <iteragpu/memory/replay.hpp>
#include <iteragpu/memory/replay_study.hpp>
#include <iteragpu/parse.hpp>

namespace {

using iteragpu::memory::trace_action;
using iteragpu::memory::trace_event;

// A deterministic trace: a few long-lived tensors, then passes that each
// take a stack of activations and free them in reverse order, with a
// workspace freed at once. Addresses are unique per live block.
iteragpu::memory::device_trace trace_of(std::size_t events) {
  iteragpu::memory::device_trace t;
  t.events.reserve(events);
  std::uint64_t next_address = std::uint64_t{1} << 40U;
  std::uint64_t state = 0x9e3779b97f4a7c15U;
  const auto random = [&state]() {
    state ^= state << 13U;
    state ^= state >> 7U;
    state ^= state << 17U;
    return state;
  };
  std::vector<trace_event> stack;
  while (t.events.size() + 2 <= events) {
    const std::size_t depth = 8 + static_cast<std::size_t>(random() % 56U);
    for (std::size_t i = 0; i < depth && t.events.size() + 2 * (stack.size() + 1) <= events; ++i) {
      const std::uint64_t shift = 9 + random() % 18U;  // 512 B to 64 MiB
      const std::uint64_t size = (std::uint64_t{1} << shift) + random() % 4096U;
      const trace_event e{trace_action::alloc, next_address, size, 0};
      next_address += size + 4096;
      t.events.push_back(e);
      stack.push_back(e);
    }
    while (!stack.empty()) {
      t.events.push_back({trace_action::free_completed, stack.back().address, stack.back().size, 0});
      stack.pop_back();
    }
  }
  return t;
}

template <class F>
double median_seconds(F&& f) {
  std::vector<double> runs;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}

// The study `replay` makes of the trace under six settings: its median
// time, or nothing when it could not be made.
std::optional<double> six_settings_seconds(const iteragpu::memory::device_trace& trace) {
  iteragpu::memory::study_request request;
  for (const char* text : {"", "expandable_segments:True", "max_split_size_mb:64", "max_split_size_mb:256",
                           "roundup_power2_divisions:4", "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"}) {
    const auto settings = iteragpu::memory::prediction::parse_alloc_conf(text);
    if (!settings) {
      return std::nullopt;
    }
    request.settings.push_back({text, *settings});
  }
  request.device_memory = iteragpu::memory::prediction::h200_device_memory;
  bool studied = true;
  const double seconds = median_seconds([&] {
    const auto study = iteragpu::memory::run_study(trace, iteragpu::memory::prediction::allocator_settings{}, request);
    studied = studied && study.has_value() && study->settings.size() == 6;
  });
  return studied ? std::optional<double>{seconds} : std::nullopt;
}

}  // namespace

int main(int argc, char** argv) try {
  std::size_t events = 1'000'000;
  const std::span<char*> all(argv, static_cast<std::size_t>(argc));
  std::vector<std::string> words(all.begin(), all.end());
  const bool check = std::erase(words, std::string("--check")) > 0;
  if (words.size() > 1) {
    const auto parsed = iteragpu::parse_unsigned(words[1]);
    if (!parsed || *parsed < 2 || *parsed > 100'000'000U) {
      std::cerr << "iteragpu_bench_replay: EVENTS must be a whole number from 2 to 100000000\n";
      return 2;
    }
    events = static_cast<std::size_t>(*parsed);
  }
  const auto trace = trace_of(events);
  std::cout << "events: " << trace.events.size() << '\n';
  for (const bool expandable : {false, true}) {
    iteragpu::memory::replay_options options;
    options.settings.expandable_segments = expandable;
    options.device_memory = iteragpu::memory::prediction::h200_device_memory;  // the card the figures stand for
    std::uint64_t peak = 0;
    bool replayed = true;
    const double seconds = median_seconds([&] {
      const auto outcome = iteragpu::memory::replay(trace, options);
      replayed = replayed && outcome.has_value();
      peak = outcome ? outcome->peak_reserved.value : 0;
    });
    if (!replayed) {
      std::cerr << "iteragpu_bench_replay: the trace could not be replayed\n";
      return 1;
    }
    std::cout << (expandable ? "replay, expandable segments: " : "replay, default settings:    ") << seconds
              << " s median of 5 (peak reserved " << peak << " bytes)\n";
  }
  const auto studied = six_settings_seconds(trace);
  if (!studied) {
    std::cerr << "iteragpu_bench_replay: the study under six settings could not be made\n";
    return 1;
  }
  const double six = *studied;
  constexpr double goal = 2.0;
  std::cout << "six settings (the self-check and six replays): " << six << " s median of 5 (goal: under " << goal
            << " s: " << (six < goal ? "met" : "not met") << ")\n";
  boost::json::array list;
  list.reserve(trace.events.size());
  for (const auto& e : trace.events) {
    list.push_back(boost::json::object{{"action", e.action == trace_action::alloc ? "alloc" : "free_completed"},
                                       {"addr", e.address},
                                       {"size", e.size},
                                       {"stream", 0},
                                       {"time_us", 0}});
  }
  const std::string text = boost::json::serialize(
      boost::json::object{{"segments", boost::json::array{}}, {"device_traces", boost::json::array{std::move(list)}}});
  std::size_t read = 0;
  const double reading = median_seconds([&] {
    const auto typed = iteragpu::memory::snapshot_from(boost::json::parse(text));
    read = typed ? typed->devices.at(0).events.size() : 0;
  });
  std::cout << "read from JSON (" << text.size() << " bytes): " << reading << " s median of 5 (" << read
            << " events)\n";
  return check && six >= goal ? 1 : 0;
} catch (const std::exception& e) {
  std::cerr << "iteragpu_bench_replay: " << e.what() << '\n';
  return 1;
}
