// A stand-in for the LibTorch module's real allocator entry
// (examples/mesure_memoire_torch.cpp), for the tests of replay --on-gpu's
// plumbing on a machine with no GPU (tests/cli/unit/replay_on_gpu_test.cpp):
// each allocation takes its size rounded up to 2 MiB, nothing is cached, a
// request past the capacity is refused; its message is the
// PYTORCH_CUDA_ALLOC_CONF it was loaded under. It is not PyTorch.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include <cli/real_allocator.hpp>

extern "C" __attribute__((visibility("default"))) void iteragpu_real_allocator_replay(
    const iteragpu::cli::real_allocator_request* requests, std::size_t count, std::uint64_t capacity,
    iteragpu::cli::real_allocator_figures* out) {
  using iteragpu::cli::real_allocator_figures;
  using iteragpu::cli::real_allocator_request;
  constexpr std::uint64_t page = std::uint64_t{2} << 20U;
  real_allocator_figures figures{};
  std::map<std::uint64_t, std::uint64_t> blocks;
  std::uint64_t held = 0;
  std::uint64_t index = 0;
  for (const auto& r : std::span(requests, count)) {
    if (r.kind == real_allocator_request::empty_cache) {
      continue;
    }
    if (r.kind == real_allocator_request::free) {
      if (const auto found = blocks.find(r.block); found != blocks.end()) {
        held -= found->second;
        blocks.erase(found);
      }
      ++index;
      continue;
    }
    const std::uint64_t bytes = (r.size + page - 1) / page * page;
    if (capacity != 0 && held + bytes > capacity) {
      figures.refused = 1;
      figures.refused_request = index;
      figures.refused_event = r.event;
      figures.refused_size = r.size;
      break;
    }
    blocks[r.block] = bytes;
    held += bytes;
    figures.peak_allocated = held > figures.peak_allocated ? held : figures.peak_allocated;
    ++index;
  }
  figures.peak_reserved = figures.peak_allocated;
  figures.capacity = capacity;
  figures.total_memory = std::uint64_t{80} << 30U;
  figures.status = real_allocator_figures::done;
  const char* conf = std::getenv("PYTORCH_CUDA_ALLOC_CONF");  // NOLINT(concurrency-mt-unsafe)
  const std::string message = "stand-in, PYTORCH_CUDA_ALLOC_CONF=" + std::string(conf != nullptr ? conf : "(unset)");
  std::string_view(message)
      .substr(0, figures.message.size() - 1)
      .copy(figures.message.data(), figures.message.size() - 1);
  *out = figures;
}
