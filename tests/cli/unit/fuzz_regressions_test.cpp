// Inputs the fuzz harnesses (tests/fuzz) turned up, kept as named tests.
#include <string>

#include <boost/test/unit_test.hpp>

#include <cli/estimate_command.hpp>
#include <iteragpu/parse.hpp>

#include "run_command.hpp"

using iteragpu::cli::run_estimate;

BOOST_AUTO_TEST_SUITE(fuzz_regressions)

// Boost.Program_options fills its messages by search-and-replace until no
// placeholder is left; a flag holding one used to make that loop forever.
BOOST_AUTO_TEST_CASE(a_flag_holding_a_message_placeholder_is_an_unknown_flag) {
  const auto r = run_command(run_estimate, {"--x%canonical_option%", "7"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err ==
             "mesure_memoire estimate: unknown flag '--x%canonical_option%'; see --help for the accepted flags\n");
}

BOOST_AUTO_TEST_CASE(a_newline_inside_a_value_is_escaped_so_the_message_stays_one_line) {
  const auto r = run_command(run_estimate, {"--parameters", "7\n8", "--bits", "16"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(is_one_line(r.err), r.err);
  BOOST_TEST(r.err.find("'7\\x0A8' is not a whole number") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(control_characters_in_a_flag_are_shown_as_hex_escapes) {
  const auto r = run_command(run_estimate, {"--bi\x1bts", "16"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("'--bi\\x1Bts'") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(digits_that_overflow_before_a_letter_are_not_a_number) {
  BOOST_TEST((iteragpu::parse_unsigned("99999999999999999999x").error() == iteragpu::number_errc::not_a_number));
  const auto r = run_command(run_estimate, {"--parameters", "99999999999999999999x", "--bits", "16"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("is not a whole number in digits") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(flag_syntax_errors_name_the_flag) {
  const auto missing = run_command(run_estimate, {"--parameters", "7", "--bits"});
  BOOST_TEST(missing.err == "mesure_memoire estimate: '--bits' needs a value (--flag VALUE or --flag=VALUE)\n");
  const auto twice = run_command(run_estimate, {"--bits", "8", "--bits", "16", "--parameters", "7"});
  BOOST_TEST(twice.err == "mesure_memoire estimate: '--bits' is given more than once; each flag is accepted once\n");
  const auto valued_switch = run_command(run_estimate, {"--parameters", "7", "--bits", "16", "--json=yes"});
  BOOST_TEST(valued_switch.err == "mesure_memoire estimate: '--json' takes no value\n");
}

BOOST_AUTO_TEST_SUITE_END()
