// An outside project measures its own workload with its own stateful
// policies through iteragpu::measure(), on the CPU, with only the
// dependency-free target. Exits 0 when the rows come in the documented
// order with the bytes its fake allocator moved.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <iteragpu/measurement.hpp>

namespace {

struct arena {
  std::uint64_t used = 0;
  std::uint64_t peak = 0;
  int synchronised = 0;
};

struct my_backend {
  arena* a;
  void synchronize(iteragpu::device_index) { ++a->synchronised; }
  struct timer {
    void start() {}
    void stop() {}
    [[nodiscard]] double elapsed_seconds() const { return 0.001; }
  };
  timer make_timer(iteragpu::device_index) { return {}; }
};

struct my_counter {
  arena* a;
  iteragpu::allocator_reading read(iteragpu::device_index) { return {a->used, a->used + 64, a->peak, a->peak + 64}; }
  void reset_peaks(iteragpu::device_index) { a->peak = a->used; }
};

class my_output {
 public:
  explicit my_output(arena* a) : a_(a) {
    a_->used += 8;
    a_->peak = a_->used > a_->peak ? a_->used : a_->peak;
  }
  my_output(my_output&& other) noexcept : a_(other.a_) { other.a_ = nullptr; }
  my_output(const my_output&) = delete;
  my_output& operator=(const my_output&) = delete;
  my_output& operator=(my_output&&) = delete;
  ~my_output() {
    if (a_ != nullptr) {
      a_->used -= 8;
    }
  }

 private:
  arena* a_;
};

struct my_workload {
  arena* a;
  void load_model() { a->used += 1000; }
  void make_inputs() { a->used += 100; }
  my_output forward() { return my_output(a); }
};

}  // namespace

int main() {
  arena a;
  my_backend backend{&a};
  my_counter counter{&a};
  my_workload work{&a};
  const auto m = iteragpu::measure(backend, counter, work, iteragpu::device_index{0},
                                   iteragpu::protocol_plan{.warmup = 2, .repeats = 2});
  if (!m) {
    return 10;
  }
  const std::array<std::string_view, 6> order{"model_load", "inputs",       "cold_forward",
                                              "warmup",     "warm_forward", "warm_forward"};
  const std::array<std::uint64_t, 6> end_allocated{1000, 1100, 1108, 1108, 1108, 1108};
  if (m->phases.size() != order.size()) {
    return 11;
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& row = m->phases[i];
    if (iteragpu::name_of(row.phase) != order[i] || row.end_allocated_bytes != end_allocated[i] ||
        row.end_reserved_bytes != end_allocated[i] + 64 || row.gpu_seconds != 0.001) {
      return 12;
    }
  }
  if (m->phases[4].repeat != 0U || m->phases[5].repeat != 1U || m->phases[3].repeat.has_value()) {
    return 13;
  }
  // Each of the six phases synchronised twice.
  return a.synchronised == 12 ? 0 : 14;
}
