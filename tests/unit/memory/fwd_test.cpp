// The forward declarations name the very types the full headers define: a
// function declared over them here is defined with the complete types below.
#include <iteragpu/memory/fwd.hpp>

#include <cstdint>

#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

namespace {

// Declared with the incomplete types of fwd.hpp only.
std::uint64_t reserved_of(const mem::allocator_reading& reading);
bool same_device(mem::device_index a, mem::device_index b);

}  // namespace

#include <iteragpu/memory/device.hpp>
#include <iteragpu/memory/policies/memory_counter.hpp>

namespace {

std::uint64_t reserved_of(const mem::allocator_reading& reading) { return reading.reserved_bytes; }
bool same_device(mem::device_index a, mem::device_index b) { return a == b; }

}  // namespace

BOOST_AUTO_TEST_SUITE(forward_declarations)

BOOST_AUTO_TEST_CASE(declarations_over_forward_types_are_the_full_types_functions) {
  BOOST_TEST(reserved_of(mem::allocator_reading{1, 2097152, 3, 4}) == 2097152U);
  BOOST_TEST(same_device(mem::device_index{3}, mem::device_index{3}));
  BOOST_TEST(!same_device(mem::device_index{3}, mem::device_index{4}));
}

BOOST_AUTO_TEST_SUITE_END()
