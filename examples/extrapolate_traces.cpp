// An integrator's extrapolation: PyTorch memory snapshots of one program at
// a few batch sizes, read with the library's safe reader, matched and
// fitted, the trace at a batch nobody ran built and replayed, and the
// largest batch that completes under a capacity searched; no GPU, no
// LibTorch.
//   extrapolate_traces CAPACITY_BYTES N SNAPSHOT@SIZE SNAPSHOT@SIZE...
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include <iteragpu/memory/extrapolation.hpp>
#include <iteragpu/memory/files/snapshot.hpp>
#include <iteragpu/memory/files/snapshot_file.hpp>
#include <iteragpu/memory/replay_study.hpp>
#include <iteragpu/parse.hpp>

namespace {

// A whole number, or nothing.
std::optional<std::uint64_t> number(const std::string& text) {
  const auto parsed = iteragpu::parse_unsigned(text);
  return parsed ? std::optional<std::uint64_t>(*parsed) : std::nullopt;
}

// The snapshot's first device, or nothing.
std::optional<iteragpu::memory::snapshot> read(const std::string& file) {
  // The program does its own I/O; the library reads bytes.
  std::ifstream in(file, std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto document = iteragpu::memory::read_snapshot_bytes(bytes);
  if (!document) {
    return std::nullopt;
  }
  auto snapshot = iteragpu::memory::snapshot_from(*document);
  if (!snapshot || snapshot->devices.empty()) {
    return std::nullopt;
  }
  return std::move(*snapshot);
}

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  const auto capacity = words.size() > 1 ? number(words[1]) : std::nullopt;
  const auto n = words.size() > 2 ? number(words[2]) : std::nullopt;
  if (words.size() < 5 || !capacity || !n) {
    std::cerr << "usage: extrapolate_traces CAPACITY_BYTES N SNAPSHOT@SIZE SNAPSHOT@SIZE...\n";
    return 2;
  }
  std::vector<iteragpu::memory::device_trace> traces;
  std::vector<std::uint64_t> sizes;
  std::optional<iteragpu::memory::snapshot> first;
  for (const char* word : words.subspan(3)) {
    const std::string text(word);
    const auto at = text.rfind('@');
    const auto size = at == std::string::npos ? std::nullopt : number(text.substr(at + 1));
    auto snapshot = size ? read(text.substr(0, at)) : std::nullopt;
    if (!snapshot) {
      std::cerr << "extrapolate_traces: " << text << " is not SNAPSHOT@SIZE with a readable snapshot\n";
      return 2;
    }
    traces.push_back(snapshot->devices[0]);
    sizes.push_back(*size);
    if (!first) {
      first = std::move(snapshot);
    }
  }
  const auto model = iteragpu::memory::extrapolate(traces, sizes);
  if (!model) {
    std::cerr << "extrapolate_traces: the traces cannot be matched (trace " << model.error().trace << ", event "
              << model.error().event << ")\n";
    return 2;
  }
  std::cout << iteragpu::memory::unexplained_requests(*model).size() << " unexplained request(s), "
            << model->unmatched.size() << " unmatched run(s)\n";
  iteragpu::memory::replay_options options;
  options.settings = iteragpu::memory::settings_of(first->settings);
  const auto at_n = iteragpu::memory::predict(*model, *n, options);
  if (!at_n) {
    std::cerr << "extrapolate_traces: no trace at " << *n << '\n';
    return 2;
  }
  std::cout << "at " << *n << ": peak allocated " << at_n->lower.peak_allocated.value << " bytes, peak reserved "
            << at_n->lower.peak_reserved.value;
  if (at_n->upper) {
    std::cout << " to " << at_n->upper->peak_reserved.value;
  }
  std::cout << " bytes\n";
  options.capacity = iteragpu::byte_count{*capacity};
  const auto largest = iteragpu::memory::find_largest_size(*model, options);
  if (!largest) {
    std::cerr << "extrapolate_traces: the search failed at size " << largest.error().size << '\n';
    return 2;
  }
  std::cout << "largest size under " << *capacity
            << " bytes: " << (largest->size ? std::to_string(*largest->size) : std::string("none")) << '\n';
  return 0;
}
