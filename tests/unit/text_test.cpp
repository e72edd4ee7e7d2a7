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

BOOST_AUTO_TEST_CASE(a_count_of_bytes_is_shown_exactly_with_its_size_beside_from_one_kib) {
  BOOST_TEST(iteragpu::bytes_and_size_text(102'760'448) == "102760448 bytes (98.00 MiB)");
  BOOST_TEST(iteragpu::bytes_and_size_text(18'295'288'832) == "18295288832 bytes (17.04 GiB)");
  BOOST_TEST(iteragpu::bytes_and_size_text(1024) == "1024 bytes (1.00 KiB)");
  BOOST_TEST(iteragpu::bytes_and_size_text(1023) == "1023 bytes");
  BOOST_TEST(iteragpu::bytes_and_size_text(1) == "1 byte");
}

BOOST_AUTO_TEST_SUITE_END()
