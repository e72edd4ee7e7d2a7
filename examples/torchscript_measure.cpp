// How an integrator measures a TorchScript module of their own, phase by
// phase, through iteragpu::memory::measure():
//
//   torchscript_measure model.pt 8x512:int64 [more input specs...]
//
// The file is checked (layout, SHA-256) and the specs parsed by the
// library's torch-free pieces, then the module is measured with LibTorch's
// CUDA backend and caching-allocator counter on cuda:0. With a LibTorch that
// has no CUDA, the same workload runs on the CPU with a counter that reads
// no allocator: the rows are there, their bytes are 0.
#include <cstdint>
#include <exception>
#include <iomanip>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include <cli/gpu_commands.hpp>
#include <iteragpu/memory/input_spec.hpp>
#include <iteragpu/report/measurement.hpp>
#include <iteragpu/torch/torchscript_workload.hpp>
#if defined(ITERAGPU_TORCH_CUDA)
#include <iteragpu/torch/cuda_backend.hpp>
#endif

namespace {

#if !defined(ITERAGPU_TORCH_CUDA)
struct host_backend {
  void synchronize(iteragpu::memory::device_index) {}
  struct timer {
    void start() {}
    void stop() {}
    [[nodiscard]] double elapsed_seconds() const { return 0.0; }
  };
  timer make_timer(iteragpu::memory::device_index) { return {}; }
};
struct no_allocator_counter {
  iteragpu::memory::allocator_reading read(iteragpu::memory::device_index) { return {}; }
  void reset_peaks(iteragpu::memory::device_index) {}
};
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() < 3) {
    std::cerr << "usage: torchscript_measure FILE.pt SPEC [SPEC...]   (SPEC e.g. 8x512:int64)\n";
    return 2;
  }
  iteragpu::memory::torchscript_run run;
  run.device = iteragpu::memory::device_index{0};
  run.path = words[1];
  run.plan = {.warmup = 1, .repeats = 3};
  try {
    iteragpu::cli::check_torchscript_file(run);  // the layout, without LibTorch
    iteragpu::cli::hash_model_file(run);
  } catch (const std::exception& e) {
    std::cerr << "torchscript_measure: " << e.what() << '\n';
    return 2;
  }
  for (const char* text : words.subspan(2)) {
    auto spec = iteragpu::memory::parse_input_spec(text);
    if (!spec) {
      std::cerr << "torchscript_measure: '" << text << "' " << iteragpu::report::describe(spec.error()) << '\n';
      return 2;
    }
    run.inputs.push_back(*spec);
  }
#if defined(ITERAGPU_TORCH_CUDA)
  iteragpu::torch_adapter::cuda_backend::initialize();
  iteragpu::torch_adapter::cuda_backend backend{iteragpu::nvml::session::open()};
  iteragpu::torch_adapter::cuda_allocator_counter counter;
  const torch::Device device(torch::kCUDA, 0);
#else
  host_backend backend;
  no_allocator_counter counter;
  const torch::Device device(torch::kCPU);
#endif
  const auto measured = iteragpu::torch_adapter::measure_torchscript_module(backend, counter, device, run);
  if (!measured) {
    const bool refused = measured.error().code != iteragpu::memory::torchscript_run_errc::phase_failed;
    std::cerr << "torchscript_measure: " << (refused ? "refused" : "failed") << " in phase "
              << iteragpu::memory::name_of(measured.error().phase) << ": " << measured.error().message << '\n';
    return refused ? 2 : 3;
  }
  std::cout << run.file_name << " sha256 " << run.sha256 << '\n';
  iteragpu::report::write_phase_table(std::cout, measured->phases);
  return 0;
}
