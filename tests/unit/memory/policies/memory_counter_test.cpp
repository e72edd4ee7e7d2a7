// The memory counter a measurement reads: what it must offer, and the
// reading it gives.
#include <iteragpu/memory/policies/memory_counter.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

namespace {

// A counter over a number the test sets: allocated = reserved / 2.
struct fake_counter {
  std::uint64_t reserved{0};
  std::uint64_t peak{0};
  mem::allocator_reading read(mem::device_index /*device*/) {
    peak = reserved > peak ? reserved : peak;
    return {reserved / 2, reserved, peak / 2, peak};
  }
  void reset_peaks(mem::device_index /*device*/) { peak = 0; }
};

// Without reset_peaks, a counter cannot delimit a phase.
struct reads_only {
  mem::allocator_reading read(mem::device_index /*device*/) { return {}; }
};

template <mem::memory_counter C>
mem::allocator_reading read_device_0(C& counter) {
  return counter.read(mem::device_index{0});
}

}  // namespace

static_assert(mem::memory_counter<fake_counter>);
static_assert(!mem::memory_counter<reads_only>);

BOOST_AUTO_TEST_SUITE(memory_counter_policy)

BOOST_AUTO_TEST_CASE(a_counter_gives_readings_with_their_peaks) {
  fake_counter counter{.reserved = 4096, .peak = 0};
  BOOST_TEST((read_device_0(counter) == mem::allocator_reading{2048, 4096, 2048, 4096}));
  counter.reserved = 1024;  // the peak stays at 4096 until reset
  BOOST_TEST((read_device_0(counter) == mem::allocator_reading{512, 1024, 2048, 4096}));
  counter.reset_peaks(mem::device_index{0});
  BOOST_TEST((read_device_0(counter) == mem::allocator_reading{512, 1024, 512, 1024}));
}

BOOST_AUTO_TEST_SUITE_END()
