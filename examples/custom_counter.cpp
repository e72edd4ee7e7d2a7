// How an integrator measures their own workload with their own counters:
// iteragpu::memory::measure() over three policy objects written here, with no GPU,
// no LibTorch and no Boost (only the target iteragpu::iteragpu).
//
// The "device" is the host. The workload holds its buffers through an
// allocator that counts bytes, the counter reads that allocator, and the
// backend times with the steady clock. Each policy keeps its state in its
// object: several measurements can run side by side with no global.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <vector>

#include <iteragpu/measurement.hpp>

namespace {

// The bytes in use and their peak since the last reset.
struct byte_ledger {
  std::uint64_t in_use = 0;
  std::uint64_t peak = 0;
  std::uint64_t reserved = 0;  // grows in whole 4 KiB pages, never shrinks: a cache

  void take(std::size_t bytes) {
    in_use += bytes;
    peak = std::max(peak, in_use);
    const std::uint64_t page = 4096;
    const std::uint64_t pages_needed = (in_use + page - 1) / page;
    reserved = std::max(reserved, pages_needed * page);
  }
  void give_back(std::size_t bytes) { in_use -= bytes; }
};

// A std::allocator that reports to a ledger.
template <class T>
struct counting_allocator {
  using value_type = T;
  byte_ledger* ledger;

  explicit counting_allocator(byte_ledger& l) : ledger(&l) {}
  template <class U>
  explicit counting_allocator(const counting_allocator<U>& other) : ledger(other.ledger) {}

  T* allocate(std::size_t n) {
    ledger->take(n * sizeof(T));
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) {
    ledger->give_back(n * sizeof(T));
    std::allocator<T>{}.deallocate(p, n);
  }
  friend bool operator==(const counting_allocator& a, const counting_allocator& b) { return a.ledger == b.ledger; }
};

using counted_floats = std::vector<float, counting_allocator<float>>;

// The counter: reads the ledger. allocated is part of reserved, as the
// protocol expects; a reset sets the peak to the current value.
struct ledger_counter {
  byte_ledger* ledger;
  [[nodiscard]] iteragpu::memory::allocator_reading read(iteragpu::memory::device_index /*host*/) const {
    return {ledger->in_use, ledger->reserved, ledger->peak, ledger->reserved};
  }
  void reset_peaks(iteragpu::memory::device_index /*host*/) const { ledger->peak = ledger->in_use; }
};

// The backend: nothing to synchronise on the host; the timer is the
// steady clock.
struct host_backend {
  static void synchronize(iteragpu::memory::device_index /*host*/) {}
  struct timer {
    std::chrono::steady_clock::time_point started;
    std::chrono::steady_clock::time_point stopped;
    void start() { started = std::chrono::steady_clock::now(); }
    void stop() { stopped = std::chrono::steady_clock::now(); }
    [[nodiscard]] double elapsed_seconds() const { return std::chrono::duration<double>(stopped - started).count(); }
  };
  [[nodiscard]] static timer make_timer(iteragpu::memory::device_index /*host*/) { return {}; }
};

// The workload: a dot product of a "model" vector with each input row.
struct dot_product_workload {
  byte_ledger* ledger;
  std::size_t width;
  std::size_t rows;
  counted_floats weights{counting_allocator<float>(*ledger)};
  counted_floats inputs{counting_allocator<float>(*ledger)};

  void load_model() { weights.assign(width, 0.5F); }
  void make_inputs() { inputs.assign(width * rows, 2.0F); }
  // The output lives as long as the returned vector.
  counted_floats forward() {
    counted_floats out(rows, 0.0F, counting_allocator<float>(*ledger));
    for (std::size_t r = 0; r < rows; ++r) {
      const auto row = inputs.begin() + static_cast<std::ptrdiff_t>(r * width);
      out[r] = std::inner_product(weights.begin(), weights.end(), row, 0.0F);
    }
    return out;
  }
};

static_assert(iteragpu::memory::measuring_backend<host_backend>);
static_assert(iteragpu::memory::memory_counter<ledger_counter>);
static_assert(iteragpu::memory::workload<dot_product_workload>);

}  // namespace

int main() {
  byte_ledger ledger;
  host_backend backend;
  ledger_counter counter{&ledger};
  dot_product_workload work{&ledger, 1000, 300};
  const auto measured = iteragpu::memory::measure(backend, counter, work, iteragpu::memory::device_index{0},
                                                  iteragpu::memory::protocol_plan{.warmup = 2, .repeats = 3});
  if (!measured) {
    std::cerr << "custom_counter: failed during " << iteragpu::memory::name_of(measured.error().phase) << ": "
              << measured.error().message << '\n';
    return 3;
  }
  std::cout << "phase         repeat  baseline_alloc  end_alloc  peak_alloc  end_reserved\n";
  for (const auto& row : measured->phases) {
    std::cout << std::left << std::setw(14) << iteragpu::memory::name_of(row.phase) << std::right << std::setw(6)
              << (row.repeat ? std::to_string(*row.repeat) : std::string("-")) << std::setw(16)
              << row.baseline_allocated_bytes << std::setw(11) << row.end_allocated_bytes << std::setw(12)
              << row.peak_allocated_bytes << std::setw(14) << row.end_reserved_bytes << '\n';
  }
  return 0;
}
