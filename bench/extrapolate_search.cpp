// bench/extrapolate_search: the time to find the largest size that completes
// under a capacity (the peak reserved at 300,000), searched up to 1,000,000, from two traces of 100,000
// events of one program (at sizes 1 and 2; half allocations, half frees,
// each request b + k·n bytes with b from 512 B to 64 MiB and k from 1 to
// 64 bytes per unit of n, as a training loop's activations grow with the
// batch), median of five runs: the fit, then the doubling and halving search
// of memory::find_largest_size(), each step a trace built and replayed. The
// goal: under a second.
//   iteragpu_bench_extrapolate [EVENTS]
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <span>
#include <vector>

#include <iteragpu/memory/extrapolation.hpp>
#include <iteragpu/parse.hpp>

namespace {

using iteragpu::memory::trace_action;
using iteragpu::memory::trace_event;

// The program at size n: passes that each take a stack of activations and
// free them in reverse order. The same random draws at every n.
iteragpu::memory::device_trace trace_at(std::size_t events, std::uint64_t n) {
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
      const std::uint64_t size = (std::uint64_t{1} << shift) + (1 + random() % 64U) * n;
      const trace_event e{trace_action::alloc, next_address, size, 0};
      next_address += (std::uint64_t{1} << 28U);
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

}  // namespace

int main(int argc, char** argv) try {
  std::size_t events = 100'000;
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() > 1) {
    const auto parsed = iteragpu::parse_unsigned(words[1]);
    if (!parsed || *parsed < 2 || *parsed > 10'000'000U) {
      std::cerr << "iteragpu_bench_extrapolate: EVENTS must be a whole number from 2 to 10000000\n";
      return 2;
    }
    events = static_cast<std::size_t>(*parsed);
  }
  const std::vector<iteragpu::memory::device_trace> traces{trace_at(events, 1), trace_at(events, 2)};
  const std::vector<std::uint64_t> sizes{1, 2};
  // The capacity: the peak reserved at 300,000, so that the search has to
  // halve its way down to the answer and not stop at its limit.
  const auto fitted = iteragpu::memory::extrapolate(traces, sizes);
  const auto at_300k = fitted ? iteragpu::memory::predict(*fitted, 300'000, {}) : iteragpu::unexpected{fitted.error()};
  if (!at_300k) {
    std::cerr << "iteragpu_bench_extrapolate: the traces could not be fitted and replayed\n";
    return 1;
  }
  iteragpu::memory::replay_options options;
  options.capacity = at_300k->lower.peak_reserved;
  std::uint64_t found = 0;
  bool searched = true;
  const double seconds = median_seconds([&] {
    const auto model = iteragpu::memory::extrapolate(traces, sizes);
    if (!model) {
      searched = false;
      return;
    }
    const auto largest = iteragpu::memory::find_largest_size(*model, options);
    searched = searched && largest.has_value();
    found = largest && largest->size ? *largest->size : 0;
  });
  if (!searched) {
    std::cerr << "iteragpu_bench_extrapolate: the search failed\n";
    return 1;
  }
  std::cout << "events: " << traces[0].events.size() << " per trace\n"
            << "largest size under " << options.capacity->value << " bytes, searched up to 1000000: " << found << ", "
            << seconds << " s median of 5 (fit and search)\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "iteragpu_bench_extrapolate: " << e.what() << '\n';
  return 1;
}
