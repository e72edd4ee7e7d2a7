// The library's own text: fixed_text streams as the characters it holds.
#include <iteragpu/text.hpp>

#include <sstream>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/estimate.hpp>

BOOST_AUTO_TEST_SUITE(text)

BOOST_AUTO_TEST_CASE(a_fixed_text_streams_its_characters) {
  std::ostringstream out;
  out << iteragpu::decimal_text(18'446'744'073'709'551'615U) << ' ' << iteragpu::fixed_text<4>{};
  BOOST_TEST(out.str() == "18446744073709551615 ");
}

BOOST_AUTO_TEST_CASE(the_estimate_in_gib_streams_as_its_text) {
  // The library guide's example, streamed rather than compared.
  constexpr auto w = *iteragpu::memory::estimate_weights(iteragpu::memory::parameter_count{7'000'000'000},
                                                         iteragpu::memory::storage_bits{16});
  std::ostringstream out;
  out << w.weight_gib().text() << " GiB";
  BOOST_TEST(out.str() == "13.03851604461669921875 GiB");
}

BOOST_AUTO_TEST_SUITE_END()
