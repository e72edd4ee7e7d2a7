// The estimate command: its JSON and text, bad input and help (the
// arithmetic: tests/unit/memory/estimate_test.cpp).
#include <cli/estimate_command.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "run_command.hpp"

namespace json = boost::json;
using iteragpu::cli::run_estimate;

BOOST_AUTO_TEST_SUITE(estimate)

BOOST_AUTO_TEST_CASE(json_carries_exact_decimals_and_the_exclusions) {
  const auto r =
      run_command(run_estimate, {"--parameters", "7000000000", "--bits", "16", "--reserve-gib", "4", "--json"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty());
  const auto v = json::parse(r.out).as_object();
  BOOST_TEST(v.size() == 10U);
  BOOST_TEST(v.at("parameters").as_int64() == 7'000'000'000);
  BOOST_TEST(v.at("bits").as_int64() == 16);
  BOOST_TEST(v.at("bytes_per_parameter").as_int64() == 2);
  BOOST_TEST(v.at("weight_bytes").as_int64() == 14'000'000'000);
  BOOST_TEST(v.at("weight_gib").as_string() == "13.03851604461669921875");
  BOOST_TEST(v.at("weight_gb").as_string() == "14");
  BOOST_TEST(v.at("reserve_gib").as_string() == "4");
  BOOST_TEST(v.at("total_gib").as_string() == "17.03851604461669921875");
  const auto& excluded = v.at("not_included").as_array();
  BOOST_TEST(excluded.size() == 6U);
  BOOST_TEST(excluded.at(0).as_string() == "activations");
  BOOST_TEST(excluded.at(1).as_string() == "KV cache");
  // The need a package must hold, in the vocabulary the plan shares:
  // 17.03851604461669921875 GiB is 18,294,967,296 bytes exactly.
  const auto& need = v.at("memory_need").as_object();
  BOOST_TEST(need.at("bytes").as_int64() == 18'294'967'296);
  BOOST_TEST(need.at("gib").as_string() == "17.03851604461669921875");
  BOOST_TEST(need.at("gb").as_string() == "18.294967296");
  BOOST_TEST(std::string(need.at("source").as_string()).starts_with("estimate: weights + reserve"));
}

BOOST_AUTO_TEST_CASE(json_keeps_64_bit_byte_counts_exact) {
  const auto r = run_command(run_estimate, {"--parameters", "18446744073709551615", "--bits", "8", "--json"});
  BOOST_TEST(r.exit_code == 0);
  const auto v = json::parse(r.out).as_object();
  BOOST_TEST(v.at("weight_bytes").as_uint64() == std::numeric_limits<std::uint64_t>::max());
  BOOST_TEST(v.at("weight_gib").as_string() == "17179869183.999999999068677425384521484375");
  BOOST_TEST(v.at("memory_need").at("bytes").as_uint64() == std::numeric_limits<std::uint64_t>::max());
  BOOST_TEST(v.at("total_gib").as_string() == "17179869183.999999999068677425384521484375");
}

BOOST_AUTO_TEST_CASE(a_total_past_64_bits_of_bytes_is_shown_in_exact_gib) {
  const auto r =
      run_command(run_estimate, {"--parameters", "18446744073709551615", "--bits", "8", "--reserve-gib", "1"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(
      r.out.find(
          "  total                17179869184.999999999068677425384521484375 GiB: weights + reserve, past 64 bits of bytes\n") !=
      std::string::npos);
}

BOOST_AUTO_TEST_CASE(text_labels_gib_and_gb_and_lists_the_exclusions) {
  const auto r = run_command(run_estimate, {"--parameters", "7000000000", "--bits", "16", "--reserve-gib", "4"});
  BOOST_TEST(r.exit_code == 0);
  // GiB rounded for reading in text (exact in JSON), the bytes beside the total.
  BOOST_TEST(r.out.find("  weights              13.04 GiB (1 GiB = 2^30 bytes)  =  14 GB (10^9 bytes)\n") !=
             std::string::npos);
  BOOST_TEST(r.out.find("4 GiB, chosen by you, not measured") != std::string::npos);
  BOOST_TEST(
      r.out.find(
          "  total                18294967296 bytes (17.04 GiB): weights + reserve, rounded up to a whole byte\n") !=
      std::string::npos);
  BOOST_TEST(r.out.find("13.0385160446") == std::string::npos);
  for (const auto item : iteragpu::memory::not_included_in_estimate) {
    BOOST_TEST(r.out.find(std::string(item)) != std::string::npos, item);
  }
}

BOOST_AUTO_TEST_CASE(fractional_reserve_is_added_exactly) {
  const auto r = run_command(run_estimate, {"--parameters", "1", "--bits", "8", "--reserve-gib=0.5", "--json"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(json::parse(r.out).at("total_gib").as_string() == "0.500000000931322574615478515625");
}

struct bad_case {
  std::initializer_list<const char*> args;
  const char* must_name{nullptr};
};

BOOST_AUTO_TEST_CASE(bad_input_exits_2_with_one_line_naming_the_flag) {
  const bad_case cases[] = {
      {{"--bits", "16"}, "--parameters"},
      {{"--parameters", "7"}, "--bits"},
      {{"--parameters", "7", "--parameters", "8", "--bits", "16"}, "--parameters"},
      {{"--parameters", "7", "--bits", "16x"}, "--bits"},
      {{"--parameters", "7", "--bits", "0"}, "--bits"},
      {{"--parameters", "0", "--bits", "16"}, "--parameters"},
      {{"--parameters", "-7", "--bits", "16"}, "-7"},
      {{"--parameters", "+7", "--bits", "16"}, "--parameters"},
      {{"--parameters", "7.5", "--bits", "16"}, "--parameters"},
      {{"--parameters", "", "--bits", "16"}, "--parameters"},
      {{"--parameters", " 7", "--bits", "16"}, "--parameters"},
      {{"--parameters", "18446744073709551616", "--bits", "16"}, "--parameters"},
      {{"--parameters", "9223372036854775808", "--bits", "16"}, "--parameters"},
      {{"--parameters", "7", "--bits", "16", "--reserve-gib", "-1"}, "-1"},
      {{"--parameters", "7", "--bits", "16", "--reserve-gib", "1e3"}, "--reserve-gib"},
      {{"--parameters", "7", "--bits", "16", "--reserve-gib", "4GiB"}, "--reserve-gib"},
      {{"--parameters", "7", "--bits", "16", "--reserve-gib", ""}, "--reserve-gib"},
      {{"--parameters", "7", "--bits", "16", "--verbose"}, "--verbose"},
      {{"--parameters", "7", "--bits", "16", "--bit", "16"}, "--bit"},
      {{"--parameters", "7", "--bits"}, "--bits"},
      {{"--parameters", "7", "--bits", "16", "extra"}, "extra"},
      {{"--parameters", "7", "--bits", "16", "--json=yes"}, "--json"},
  };
  for (const auto& c : cases) {
    const auto r = run_command(run_estimate, c.args);
    BOOST_TEST(r.exit_code == 2, c.must_name);
    BOOST_TEST(r.out.empty(), c.must_name);
    BOOST_TEST(is_one_line(r.err), r.err);
    BOOST_TEST(r.err.find(c.must_name) != std::string::npos, r.err);
  }
}

BOOST_AUTO_TEST_CASE(help_lists_every_flag) {
  const auto r = run_command(run_estimate, {"--help"});
  BOOST_TEST(r.exit_code == 0);
  for (const char* flag : {"--parameters", "--bits", "--reserve-gib", "--json"}) {
    BOOST_TEST(r.out.find(flag) != std::string::npos, flag);
  }
}

BOOST_AUTO_TEST_SUITE_END()
