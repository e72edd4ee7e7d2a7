// An integrator's replay: a PyTorch memory snapshot read with the library's
// safe reader and its trace replayed through the simulated caching
// allocator, under the recorded settings and under expandable segments,
// with no GPU and no LibTorch. DEVICE_MEMORY_BYTES is the card's total
// memory (150109880320 on the H200), which sizes expandable segments.
//   replay_snapshot SNAPSHOT DEVICE_MEMORY_BYTES [CAPACITY_BYTES]
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

#include <iteragpu/memory/files/snapshot.hpp>
#include <iteragpu/memory/files/snapshot_file.hpp>
#include <iteragpu/memory/prediction/allocator_settings.hpp>
#include <iteragpu/memory/replay.hpp>
#include <iteragpu/memory/replay_study.hpp>
#include <iteragpu/parse.hpp>
#include <iteragpu/report/replay.hpp>
#include <iteragpu/report/snapshot_errors.hpp>

int main(int argc, char** argv) {
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() < 3 || words.size() > 4) {
    std::cerr << "usage: replay_snapshot SNAPSHOT DEVICE_MEMORY_BYTES [CAPACITY_BYTES]\n";
    return 2;
  }
  const auto device_memory = iteragpu::parse_unsigned(words[2]);
  if (!device_memory || *device_memory == 0) {
    std::cerr << "replay_snapshot: DEVICE_MEMORY_BYTES must be a positive whole number of bytes\n";
    return 2;
  }
  std::optional<iteragpu::byte_count> capacity;
  if (words.size() == 4) {
    const auto parsed = iteragpu::parse_unsigned(words[3]);
    if (!parsed) {
      std::cerr << "replay_snapshot: CAPACITY_BYTES must be a whole number of bytes\n";
      return 2;
    }
    capacity = iteragpu::byte_count{*parsed};
  }
  // The program does its own I/O; the library reads bytes.
  std::ifstream in(words[1], std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && !in) {
    std::cerr << "replay_snapshot: cannot read " << words[1] << '\n';
    return 2;
  }
  const auto document = iteragpu::memory::read_snapshot_bytes(bytes);
  if (!document) {
    std::cerr << "replay_snapshot: " << iteragpu::report::describe(document.error()) << '\n';
    return 2;
  }
  const auto snapshot = iteragpu::memory::snapshot_from(*document);
  if (!snapshot || snapshot->devices.empty()) {
    std::cerr << "replay_snapshot: not a memory snapshot with a trace\n";
    return 2;
  }
  const auto recorded = iteragpu::memory::settings_of(snapshot->settings);
  auto expandable = recorded;
  expandable.expandable_segments = true;
  for (const auto& [name, settings] :
       {std::pair{"recorded settings", recorded}, std::pair{"expandable_segments:True", expandable}}) {
    iteragpu::memory::replay_options options;
    options.settings = settings;
    options.capacity = capacity;
    options.device_memory = iteragpu::byte_count{*device_memory};
    const auto outcome = iteragpu::memory::replay(snapshot->devices[0], options);
    if (!outcome) {
      std::cerr << "replay_snapshot: " << iteragpu::report::describe(outcome.error()) << '\n';
      return 2;
    }
    std::cout << name << ": peak allocated " << outcome->peak_allocated.value << " bytes, peak reserved "
              << outcome->peak_reserved.value << " bytes, " << outcome->alloc_retries << " retries"
              << (outcome->oom ? ", out of memory" : "") << '\n';
  }
  return 0;
}
