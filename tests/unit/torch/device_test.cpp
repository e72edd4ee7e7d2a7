// Devices as LibTorch numbers them, and the lazy initialization of the GPU
// state through whichever call the LibTorch has.
#include <iteragpu/torch/device.hpp>

#include <stdexcept>

#include <boost/test/unit_test.hpp>

namespace ta = iteragpu::torch_adapter;

namespace {

// LibTorch 2.4 and later: lazyInitDevice(type).
struct newer_context {
  int calls{0};
  c10::DeviceType type{c10::DeviceType::CPU};
  void lazyInitDevice(c10::DeviceType t) {
    ++calls;
    type = t;
  }
};

// Earlier: lazyInitCUDA().
struct older_context {
  int calls{0};
  void lazyInitCUDA() { ++calls; }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(torch_devices)

BOOST_AUTO_TEST_CASE(device_numbers_fit_or_throw) {
  BOOST_TEST(ta::to_c10(iteragpu::memory::device_index{3}) == 3);
  // 40000 fits neither an 8-bit nor a 16-bit DeviceIndex.
  BOOST_CHECK_THROW(static_cast<void>(ta::to_c10(iteragpu::memory::device_index{40000})), std::range_error);
}

BOOST_AUTO_TEST_CASE(the_gpu_state_is_initialized_through_the_call_the_context_has) {
  newer_context newer;
  ta::initialize_gpu_state(newer);
  BOOST_TEST(newer.calls == 1);
  BOOST_TEST((newer.type == c10::DeviceType::CUDA));
  older_context older;
  ta::initialize_gpu_state(older);
  BOOST_TEST(older.calls == 1);
}

BOOST_AUTO_TEST_SUITE_END()
