#ifndef ITERAGPU_TESTS_UNIT_TORCH_CPU_BACKEND_HPP
#define ITERAGPU_TESTS_UNIT_TORCH_CPU_BACKEND_HPP

// The backend the LibTorch tests pass to iteragpu::memory::measure() on the CPU:
// nothing to synchronise, and a timer that reads zero (the tests check bytes,
// not time).
#include <iteragpu/memory/device.hpp>

namespace iteragpu_tests {

struct cpu_backend {
  void synchronize(iteragpu::memory::device_index) {}
  struct timer {
    void start() {}
    void stop() {}
    [[nodiscard]] double elapsed_seconds() const { return 0.0; }
  };
  timer make_timer(iteragpu::memory::device_index) { return {}; }
};

}  // namespace iteragpu_tests

#endif  // ITERAGPU_TESTS_UNIT_TORCH_CPU_BACKEND_HPP
