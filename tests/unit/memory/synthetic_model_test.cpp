// The synthetic model's arithmetic: parameter counts, layers, and the sizes
// LibTorch could not index.
#include <iteragpu/memory/synthetic_model.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(synthetic_model_arithmetic)

BOOST_AUTO_TEST_CASE(parameters_are_two_matrices_and_two_biases) {
  const auto m = iteragpu::memory::summarize_model({1, 16, 64}, iteragpu::memory::element_type::float32).value();
  BOOST_TEST(m.hidden == 256U);
  BOOST_TEST(m.parameters == 2U * 64U * 256U + 256U + 64U);
  BOOST_TEST(m.parameter_bytes == m.parameters * 4U);
  BOOST_TEST(m.input_elements == 1024U);
  BOOST_TEST(m.layers[0] == "Linear(64 -> 256)");
  BOOST_TEST(m.layers[1] == "GELU");
  BOOST_TEST(m.layers[2] == "Linear(256 -> 64)");
  // The reference figure of the 8x4096x8192 configuration: 536,911,872 parameters.
  BOOST_TEST(
      iteragpu::memory::summarize_model({8, 4096, 8192}, iteragpu::memory::element_type::bfloat16).value().parameters ==
      536'911'872U);
}

BOOST_AUTO_TEST_CASE(counts_past_what_libtorch_indexes_are_refused) {
  BOOST_TEST(!iteragpu::memory::summarize_model({1, 1, UINT64_MAX / 4 + 1}, iteragpu::memory::element_type::float32)
                  .has_value());
  BOOST_TEST(
      !iteragpu::memory::summarize_model({1, 1, std::uint64_t{1} << 31U}, iteragpu::memory::element_type::float32)
           .has_value());
  BOOST_TEST(!iteragpu::memory::summarize_model({std::uint64_t{1} << 40U, std::uint64_t{1} << 20U, 64},
                                                iteragpu::memory::element_type::float32)
                  .has_value());
  BOOST_TEST(iteragpu::memory::summarize_model({std::uint64_t{1} << 20U, std::uint64_t{1} << 10U, 64},
                                               iteragpu::memory::element_type::float32)
                 .has_value());
}

BOOST_AUTO_TEST_SUITE_END()
