// narrow_or_throw: a value out of the target's range is an exception, as
// LibTorch's callers expect (this header needs no LibTorch).
#include <iteragpu/torch/narrow.hpp>

#include <cstdint>
#include <stdexcept>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(narrow_or_throw)

BOOST_AUTO_TEST_CASE(in_range_values_pass_and_others_throw) {
  namespace ta = iteragpu::torch_adapter;
  BOOST_TEST(ta::narrow_or_throw<std::int64_t>(std::uint64_t{9'223'372'036'854'775'807U}) == INT64_MAX);
  BOOST_CHECK_THROW(static_cast<void>(ta::narrow_or_throw<std::int64_t>(std::uint64_t{9'223'372'036'854'775'808U})),
                    std::range_error);
  BOOST_CHECK_THROW(static_cast<void>(ta::narrow_or_throw<std::uint64_t>(std::int64_t{-1})), std::range_error);
  BOOST_TEST(ta::narrow_or_throw<std::uint16_t>(65535) == 65535U);
  BOOST_CHECK_THROW(static_cast<void>(ta::narrow_or_throw<std::uint16_t>(65536)), std::range_error);
}

BOOST_AUTO_TEST_SUITE_END()
