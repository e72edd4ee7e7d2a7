// Device names: only cuda:<index> names a device.
#include <iteragpu/memory/device.hpp>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(devices)

BOOST_AUTO_TEST_CASE(only_cuda_colon_index_is_a_device) {
  BOOST_TEST(iteragpu::memory::parse_device("cuda:0").value().value == 0);
  BOOST_TEST(iteragpu::memory::parse_device("cuda:7").value().value == 7);
  BOOST_TEST(iteragpu::memory::parse_device("cuda:127").value().value == 127);
  for (const char* bad : {"cpu", "cuda", "cuda:", "cuda:-1", "cuda:+1", "cuda:1x", "cuda: 1", "CUDA:0", "cuda:128",
                          "cuda:99999999999999999999", "hip:0", "mps", ""}) {
    BOOST_TEST(!iteragpu::memory::parse_device(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()
