// The LibTorch half of mesure_memoire: `environment` and `measure` over
// LibTorch's runtime, and the requests of `replay --on-gpu` made to PyTorch's
// own caching allocator, in a module that mesure_memoire loads at run time
// only for those commands.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <cli/gpu_commands.hpp>
#include <cli/real_allocator.hpp>
#include <iteragpu/torch/runtime.hpp>

#if defined(ITERAGPU_TORCH_CUDA)
#include <c10/util/Exception.h>

#include <iteragpu/torch/cuda_traits.hpp>
#endif

namespace {

void say(iteragpu::cli::real_allocator_figures& figures, std::int32_t status, std::string_view text) {
  figures.status = status;
  const std::size_t n = text.size() < figures.message.size() - 1 ? text.size() : figures.message.size() - 1;
  text.copy(figures.message.data(), n);
  figures.message.at(n) = '\0';
}

}  // namespace

// `replay --on-gpu`'s requests, made in this process (a fresh one, whose
// PYTORCH_CUDA_ALLOC_CONF was set before LibTorch was loaded) as the oracle
// makes them (tests/oracle/oracle.py): raw_alloc_with_stream on the
// request's stream (the first stream of the trace is the default stream, the
// others new streams of the pool), raw_delete, emptyCache; the capacity by
// setMemoryFraction(capacity / totalGlobalMem); stops at the first request
// refused (c10::OutOfMemoryError). The figures are the device's statistics.
extern "C" __attribute__((visibility("default"))) void iteragpu_real_allocator_replay(
    const iteragpu::cli::real_allocator_request* requests, std::size_t count, std::uint64_t capacity,
    iteragpu::cli::real_allocator_figures* out) {
  using iteragpu::cli::real_allocator_figures;
  using iteragpu::cli::real_allocator_request;
  real_allocator_figures& figures = *out;
  figures = real_allocator_figures{};
#if !defined(ITERAGPU_TORCH_CUDA)
  static_cast<void>(requests);
  static_cast<void>(count);
  static_cast<void>(capacity);
  say(figures, real_allocator_figures::unavailable, "the LibTorch of this build has no CUDA");
#else
  try {
    namespace allocator = c10::cuda::CUDACachingAllocator;
    using traits = iteragpu::torch_adapter::cuda_traits;
    if (traits::device_count() <= 0) {
      say(figures, real_allocator_figures::unavailable, "no GPU is visible to CUDA");
      return;
    }
    traits::initialize();
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
      say(figures, real_allocator_figures::failed, "cudaGetDeviceProperties failed on device 0");
      return;
    }
    const auto total = static_cast<std::uint64_t>(properties.totalGlobalMem);
    figures.total_memory = total;
    if (capacity != 0) {
      if (capacity > total) {
        say(figures, real_allocator_figures::unavailable,
            "the capacity passes the memory of " + std::string(properties.name) + " (" + std::to_string(total) +
                " bytes)");
        return;
      }
      // As torch.cuda.set_per_process_memory_fraction(capacity / total).
      const double fraction = static_cast<double>(capacity) / static_cast<double>(total);
      allocator::setMemoryFraction(fraction, 0);
      figures.capacity = static_cast<std::uint64_t>(fraction * static_cast<double>(total));
    }
    const std::span<const real_allocator_request> asked(requests, count);
    std::vector<cudaStream_t> streams;
    std::vector<void*> blocks;
    std::uint64_t index = 0;  // among the allocations and frees, as the oracle counts them
    for (const auto& r : asked) {
      if (r.kind == real_allocator_request::empty_cache) {
        allocator::emptyCache();
        continue;
      }
      if (r.kind == real_allocator_request::free) {
        if (r.block < blocks.size() && blocks[r.block] != nullptr) {
          allocator::raw_delete(blocks[r.block]);
          blocks[r.block] = nullptr;
        }
        ++index;
        continue;
      }
      while (streams.size() <= r.stream) {
        streams.push_back(streams.empty() ? c10::cuda::getDefaultCUDAStream(0).stream()
                                          : c10::cuda::getStreamFromPool(false, 0).stream());
      }
      try {
        void* block = allocator::raw_alloc_with_stream(static_cast<std::size_t>(r.size), streams[r.stream]);
        if (blocks.size() <= r.block) {
          blocks.resize(static_cast<std::size_t>(r.block) + 1, nullptr);
        }
        blocks[r.block] = block;
      } catch (const c10::OutOfMemoryError&) {
        figures.refused = 1;
        figures.refused_request = index;
        figures.refused_event = r.event;
        figures.refused_size = r.size;
        break;
      }
      ++index;
    }
    if (cudaDeviceSynchronize() != cudaSuccess) {
      say(figures, real_allocator_figures::failed, "cudaDeviceSynchronize failed");
      return;
    }
    const auto stats = allocator::getDeviceStats(0);
    figures.peak_allocated = static_cast<std::uint64_t>(stats.allocated_bytes[0].peak);
    figures.peak_reserved = static_cast<std::uint64_t>(stats.reserved_bytes[0].peak);
    figures.alloc_retries = static_cast<std::uint64_t>(stats.num_alloc_retries);
    figures.ooms = static_cast<std::uint64_t>(stats.num_ooms);
    say(figures, real_allocator_figures::done, properties.name);
  } catch (const std::exception& e) {
    say(figures, real_allocator_figures::failed, e.what());
  }
#endif
}

extern "C" __attribute__((visibility("default"))) int iteragpu_mesure_memoire_torch(const char* command, int argc,
                                                                                    const char* const* argv) {
  namespace cli = iteragpu::cli;
  try {
    const std::span<const char* const> words(argv, static_cast<std::size_t>(argc));
    const std::vector<std::string> args(words.begin(), words.end());
    auto runtime = iteragpu::torch_adapter::open_libtorch_runtime();
    if (std::string_view(command) == "environment") {
      return cli::run_environment(runtime, args, std::cout, std::cerr);
    }
    return cli::run_measure(runtime, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "mesure_memoire: internal error: " << e.what() << '\n';
    return cli::exit_internal_error;
  }
}
