#include <cli/calcul_forfaits_command.hpp>

#include <array>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "text_checks.hpp"

#include "run_command.hpp"

namespace {

namespace json = boost::json;
namespace fs = std::filesystem;
using iteragpu::cli::parse_calcul_forfaits_options;
using iteragpu::cli::usage_error;

const fs::path shipped_catalog = ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv";
const std::string fixtures = ITERAGPU_TEST_SOURCE_DIR "/data/catalogs/";

// The program as the example main runs it, with the shipped catalog as the default.
int calcul_forfaits(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const std::array defaults{fs::path("/nonexistent/share/iteragpu/tarifs-forfaits.csv"), shipped_catalog};
  return iteragpu::cli::run_calcul_forfaits(args, out, err, defaults);
}

// The same with no default catalog anywhere.
int without_default(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const std::array defaults{fs::path("/nonexistent/a.csv"), fs::path("/nonexistent/b.csv")};
  return iteragpu::cli::run_calcul_forfaits(args, out, err, defaults);
}

iteragpu::cli::calcul_forfaits_options parse(std::initializer_list<const char*> words) {
  const std::vector<std::string> args(words.begin(), words.end());
  return parse_calcul_forfaits_options(args);
}

json::object json_of(const command_outcome& r) {
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty());
  return json::parse(r.out).as_object();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calcul_forfaits_program)

BOOST_AUTO_TEST_CASE(json_has_exactly_the_16_keys_in_order) {
  const auto v = json_of(run_command(calcul_forfaits, {"--gpu", "b200", "--days", "7", "--lots", "2", "--json"}));
  const std::array<const char*, 16> keys{"provider",
                                         "currency",
                                         "snapshot_date",
                                         "illustrative",
                                         "gpu",
                                         "name",
                                         "days",
                                         "lots",
                                         "gpus_per_lot",
                                         "total_gpus",
                                         "lot_price_cents",
                                         "total_price_cents",
                                         "total_price",
                                         "accepted_results",
                                         "unit_cost_cents",
                                         "notes"};
  BOOST_REQUIRE_EQUAL(v.size(), keys.size());
  std::size_t i = 0;
  for (const auto& entry : v) {
    BOOST_TEST(entry.key() == keys[i]);
    ++i;
  }
}

BOOST_AUTO_TEST_CASE(two_b200_lots_give_four_gpus_at_twice_the_lot_price) {
  const auto v = json_of(run_command(calcul_forfaits, {"--gpu", "b200", "--days", "7", "--lots", "2", "--json"}));
  BOOST_TEST(v.at("provider").as_string() == "illustrative");
  BOOST_TEST(v.at("currency").as_string() == "USD");
  BOOST_TEST(v.at("snapshot_date").as_string() == "2026-09-24");
  BOOST_TEST(v.at("illustrative").as_bool());
  BOOST_TEST(v.at("gpu").as_string() == "b200");
  BOOST_TEST(v.at("name").as_string() == "NVIDIA B200");
  BOOST_TEST(v.at("days").as_int64() == 7);
  BOOST_TEST(v.at("lots").as_int64() == 2);
  BOOST_TEST(v.at("gpus_per_lot").as_int64() == 2);
  BOOST_TEST(v.at("total_gpus").as_int64() == 4);
  const auto lot = v.at("lot_price_cents").as_int64();
  BOOST_TEST(lot == 168000);
  BOOST_TEST(v.at("total_price_cents").as_int64() == 2 * lot);
  BOOST_TEST(v.at("total_price").as_string() == "3360.00");
  BOOST_TEST(v.at("accepted_results").is_null());
  BOOST_TEST(v.at("unit_cost_cents").is_null());
  const auto& notes = v.at("notes").as_array();
  BOOST_REQUIRE_EQUAL(notes.size(), 4U);
  BOOST_TEST(contains(std::string(notes.at(0).as_string()), "not a real offer"));
  BOOST_TEST(contains(std::string(notes.at(1).as_string()), "neither availability nor a reservation"));
  BOOST_TEST(notes.at(3).as_string() == "unit cost not computed (no count of accepted results)");
}

BOOST_AUTO_TEST_CASE(accepted_results_divide_the_whole_price) {
  const auto v = json_of(run_command(
      calcul_forfaits, {"--gpu", "b200", "--days", "7", "--lots", "2", "--accepted-results", "3", "--json"}));
  BOOST_TEST(v.at("total_price_cents").as_int64() == 336000);
  BOOST_TEST(v.at("accepted_results").as_int64() == 3);
  BOOST_TEST(v.at("unit_cost_cents").as_string() == "112000.0000");
  BOOST_TEST(contains(std::string(v.at("notes").as_array().back().as_string()), "half to even"));

  const auto h200 =
      json_of(run_command(calcul_forfaits, {"--gpu=h200", "--days=3", "--lots=1", "--accepted-results=7", "--json"}));
  BOOST_TEST(h200.at("unit_cost_cents").as_string() == "3548.5714");
}

BOOST_AUTO_TEST_CASE(text_output_names_every_figure_and_the_warnings) {
  const auto r = run_command(calcul_forfaits, {"--gpu", "b200", "--days", "7", "--lots", "2"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty());
  for (const char* part : {"ILLUSTRATIVE catalog: not a real offer", "b200 (NVIDIA B200, 180 GB per GPU), 7 days",
                           "2 x 2 GPUs per lot = 4 GPUs", "lot price     1680.00 USD", "total price   3360.00 USD",
                           "not computed (no count of accepted results)", "provider illustrative, snapshot 2026-09-24",
                           "neither availability nor a reservation"}) {
    BOOST_TEST(contains(r.out, part), part);
  }
  const auto with =
      run_command(calcul_forfaits, {"--gpu", "b200", "--days", "7", "--lots", "2", "--accepted-results", "3"});
  BOOST_TEST(contains(with.out, "1120.000000 USD per accepted result (3360.00 USD / 3, rounded half to even to 4 "
                                "decimal places of a cent)\n"),
             with.out);
}

BOOST_AUTO_TEST_CASE(a_real_catalog_carries_no_illustrative_warning) {
  const std::string real = fixtures + "valid-crlf-quoted.csv";
  const auto v = json_of(run_command(
      calcul_forfaits, {"--catalog", real.c_str(), "--gpu", "x1", "--days", "30", "--lots", "1", "--json"}));
  BOOST_TEST(!v.at("illustrative").as_bool());
  BOOST_TEST(v.at("provider").as_string() == "acme");
  BOOST_TEST(v.at("name").as_string() == "Example X1, \"80 GB\"");
  BOOST_TEST(v.at("notes").as_array().size() == 3U);
  for (const auto& note : v.at("notes").as_array()) {
    BOOST_TEST(!contains(std::string(note.as_string()), "ILLUSTRATIVE"));
  }
  const auto text =
      run_command(calcul_forfaits, {"--catalog", real.c_str(), "--gpu", "x1", "--days", "3", "--lots", "1"});
  BOOST_TEST(!contains(text.out, "ILLUSTRATIVE"));
  BOOST_TEST(contains(text.out, "neither availability nor a reservation"));
}

BOOST_AUTO_TEST_CASE(the_largest_total_that_fits_is_printed_exactly) {
  const std::string real = fixtures + "valid-crlf-quoted.csv";
  const auto v = json_of(run_command(calcul_forfaits, {"--catalog", real.c_str(), "--gpu", "x2", "--days", "30",
                                                       "--lots", "1", "--accepted-results", "2", "--json"}));
  BOOST_TEST(v.at("total_price_cents").as_uint64() == UINT64_MAX);
  BOOST_TEST(v.at("total_price").as_string() == "184467440737095516.15");
  BOOST_TEST(v.at("unit_cost_cents").as_string() == "9223372036854775807.5000");
  BOOST_TEST(v.at("total_gpus").as_int64() == 4);
}

BOOST_AUTO_TEST_CASE(list_prints_every_package) {
  const auto r = run_command(calcul_forfaits, {"--list"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty());
  std::size_t lines = 0;
  for (const char c : r.out) {
    lines += c == '\n' ? 1U : 0U;
  }
  BOOST_TEST(lines == 48U + 4U);  // title, warning, column heads, 48 packages, reminder
  BOOST_TEST(contains(r.out, "provider illustrative, currency USD, snapshot 2026-09-24, 48 packages"));
  BOOST_TEST(contains(r.out, "not a real offer"));
  BOOST_TEST(contains(r.out, "b200          NVIDIA B200                 180         2     7          1680.00\n"),
             r.out);
  BOOST_TEST(contains(r.out, "rtx-4090      NVIDIA GeForce RTX 4090      24         1    30           208.80\n"));
  const std::string real = fixtures + "valid-crlf-quoted.csv";
  const auto other = run_command(calcul_forfaits, {"--list", "--catalog", real.c_str()});
  BOOST_TEST(other.exit_code == 0);
  BOOST_TEST(!contains(other.out, "ILLUSTRATIVE"));
  BOOST_TEST(contains(other.out, "Example X1, \"80 GB\""));
}

BOOST_AUTO_TEST_CASE(help_lists_every_flag_and_the_rounding_rule) {
  const auto r = run_command(calcul_forfaits, {"--gpu", "nonsense", "--help"});
  BOOST_TEST(r.exit_code == 0);
  for (const char* flag : {"--gpu", "--days", "--lots", "--accepted-results", "--catalog", "--json", "--list"}) {
    BOOST_TEST(contains(r.out, flag), flag);
  }
  BOOST_TEST(contains(r.out, "half to even"));
}

BOOST_AUTO_TEST_CASE(options_parse_without_touching_a_file) {
  const auto o =
      parse({"--gpu", "b200", "--days", "7", "--lots", "2", "--accepted-results", "3", "--catalog", "/x.csv"});
  BOOST_TEST(o.request.gpu == "b200");
  BOOST_TEST(o.request.days.value == 7U);
  BOOST_TEST(o.request.lots.value == 2U);
  BOOST_TEST(o.request.accepted->value == 3U);
  BOOST_TEST(*o.catalog_path == "/x.csv");
  BOOST_TEST(!o.json);
  BOOST_TEST(!o.list);
  BOOST_TEST(!parse({"--gpu", "b200", "--days", "7", "--lots", "2"}).request.accepted.has_value());
  BOOST_TEST(!parse({"--gpu", "b200", "--days", "7", "--lots", "2"}).catalog_path.has_value());
  BOOST_TEST(parse({"--list"}).list);
  BOOST_TEST(parse({"--help", "--lots", "0"}).help);
  BOOST_CHECK_THROW((void)parse({"--gpu", "b200", "--days", "7", "--lots", "0"}), usage_error);
}

struct bad_case {
  std::vector<std::string> args;
  std::vector<std::string> must_say;
};

BOOST_AUTO_TEST_CASE(bad_input_exits_2_with_one_line_and_nothing_on_stdout) {
  const std::string ok_catalog = fixtures + "valid-crlf-quoted.csv";
  const std::vector<bad_case> cases{
      // unknown GPU: the known ids are listed
      {{"--gpu", "b201", "--days", "7", "--lots", "1"},
       {"--gpu: 'b201' is not in the catalog; expected one of: b300, b200, h200,", "rtx-4090, l4 (see --list)"}},
      {{"--gpu", "B200", "--days", "7", "--lots", "1"}, {"--gpu: 'B200' is not in the catalog"}},
      {{"--gpu=", "--days", "7", "--lots", "1"}, {"--gpu"}},
      {{"--gpu", "", "--days", "7", "--lots", "1"}, {"--gpu: an empty value"}},
      {{"--days", "7", "--lots", "1"}, {"--gpu is required"}},
      // a duration the GPU does not have: its durations are listed
      {{"--gpu", "b200", "--days", "5", "--lots", "1"}, {"--days: b200 has no 5-day package; expected 3, 7 or 30"}},
      {{"--gpu", "b200", "--days", "0", "--lots", "1"}, {"--days: '0' is too small"}},
      {{"--gpu", "b200", "--days", "7d", "--lots", "1"}, {"--days: '7d' is not a whole number"}},
      {{"--gpu", "b200", "--lots", "1"}, {"--days is required"}},
      // bad or zero lots
      {{"--gpu", "b200", "--days", "7", "--lots", "0"}, {"--lots: '0' is too small; expected a positive integer"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "-1"}, {"-1"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1.5"}, {"--lots: '1.5' is not a whole number"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "two"}, {"--lots: 'two'"}},
      {{"--gpu", "b200", "--days", "7", "--lots="}, {"--lots"}},
      {{"--gpu", "b200", "--days", "7", "--lots", ""}, {"--lots: an empty value"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "18446744073709551616"},
       {"--lots: '18446744073709551616' does not fit in 64 bits"}},
      {{"--gpu", "b200", "--days", "7"}, {"--lots is required"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--lots", "2"}, {"lots"}},
      // zero or malformed accepted results
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results", "0"},
       {"--accepted-results: '0' is too small; expected a positive integer count of distinct accepted results"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results", "3.0"}, {"--accepted-results: '3.0'"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results", "+3"}, {"--accepted-results: '+3'"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results="}, {"--accepted-results"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results", ""},
       {"--accepted-results: an empty value"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--accepted-results"}, {"accepted-results"}},
      // totals past 64 bits
      {{"--gpu", "b300", "--days", "7", "--lots", "18446744073709551615"},
       {"--lots: 18446744073709551615 lots x 100800 cents is past 64 bits of cents"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "9223372036854775808"},
       {"--lots: 9223372036854775808 lots x 2 GPUs per lot does not fit in 64 bits"}},
      {{"--catalog", ok_catalog, "--gpu", "x2", "--days", "30", "--lots", "2"},
       {"--lots: 2 lots x 18446744073709551615 cents is past 64 bits of cents"}},
      // missing or invalid catalogs, with the file:line:column reason
      {{"--catalog", "/nonexistent/catalog.csv", "--list"}, {"--catalog: '/nonexistent/catalog.csv' does not exist"}},
      {{"--catalog", fixtures, "--list"}, {"is not a regular file"}},
      {{"--catalog=", "--list"}, {"--catalog"}},
      {{"--catalog", "", "--list"}, {"--catalog: an empty value"}},
      {{"--catalog", "/nonexistent/two\nlines.csv", "--list"}, {"'/nonexistent/two\\x0Alines.csv' does not exist"}},
      {{"--catalog", fixtures + "empty.csv", "--list"},
       {"invalid catalog: " + fixtures + "empty.csv:1:1: an empty file"}},
      {{"--catalog", fixtures + "header-only.csv", "--list"}, {"header-only.csv:2:1: no price rows after the header"}},
      {{"--catalog", fixtures + "bad-header.csv", "--list"},
       {"bad-header.csv:1:78: header field 9 'price_cents'; expected 'lot_price_cents'"}},
      {{"--catalog", fixtures + "missing-duration.csv", "--gpu", "x1", "--days", "3", "--lots", "1"},
       {"missing-duration.csv:2:21: x1 with rows for 3 and 7 days only"}},
      {{"--catalog", fixtures + "duplicate-row.csv", "--list"}, {"duplicate-row.csv:5:40: a second x1 row for 7 days"}},
      {{"--catalog", fixtures + "zero-price.csv", "--list"}, {"zero-price.csv:2:42: lot_price_cents '0'"}},
      {{"--catalog", fixtures + "decimal-price.csv", "--list"}, {"decimal-price.csv:2:42: lot_price_cents '300.00'"}},
      {{"--catalog", fixtures + "price-too-large.csv", "--list"}, {"price-too-large.csv:2:42:", "fits 64 bits"}},
      {{"--catalog", fixtures + "two-providers.csv", "--list"},
       {"two-providers.csv:5:1: provider 'other'; expected 'acme'"}},
      {{"--catalog", fixtures + "euro.csv", "--list"}, {"euro.csv:2:6: currency 'EUR'; expected USD"}},
      {{"--catalog", fixtures + "bad-date.csv", "--list"}, {"bad-date.csv:2:10: snapshot_date '24/09/2026'"}},
      {{"--catalog", fixtures + "bad-gpu-id.csv", "--list"}, {"bad-gpu-id.csv:2:21: gpu 'X1'"}},
      {{"--catalog", fixtures + "lots-differ.csv", "--list"},
       {"lots-differ.csv:4:38: gpus_per_lot '2' for x1; expected 1"}},
      {{"--catalog", fixtures + "unclosed-quote.csv", "--list"},
       {"unclosed-quote.csv:4:24: a quoted field that is never closed"}},
      {{"--catalog", fixtures + "eight-fields.csv", "--list"}, {"eight-fields.csv:3:41: a row of 8 fields"}},
      // --list goes with --catalog only
      {{"--list", "--gpu", "b200"}, {"--gpu does not go with it"}},
      {{"--list", "--json"}, {"--json does not go with it"}},
      // the command line itself
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--verbose"}, {"--verbose"}},
      {{"--gpu", "b200", "--days", "7", "--lot", "1"}, {"--lot"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "extra"}, {"unexpected word 'extra'"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--json=yes"}, {"--json"}},
  };
  for (const auto& c : cases) {
    // `shown` is read by the BOOST_TEST messages, which cppcheck does not expand.
    std::string shown;
    for (const auto& a : c.args) {
      // cppcheck-suppress unreadVariable
      shown += a + " ";
    }
    std::ostringstream out;
    std::ostringstream err;
    const int code = calcul_forfaits(c.args, out, err);
    BOOST_TEST(code == 2, shown);
    BOOST_TEST(out.str().empty(), shown);
    BOOST_TEST(is_one_line(err.str()), shown << "-> " << err.str());
    BOOST_TEST(err.str().starts_with("calcul_forfaits: "), err.str());
    for (const auto& part : c.must_say) {
      BOOST_TEST(contains(err.str(), part), shown << "-> " << err.str() << " lacks: " << part);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_missing_default_catalog_names_where_it_looked) {
  const auto r = run_command(without_default, {"--gpu", "b200", "--days", "7", "--lots", "1"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(is_one_line(r.err));
  BOOST_TEST(
      r.err ==
      "calcul_forfaits: the shipped catalog is not found (looked at '/nonexistent/a.csv', '/nonexistent/b.csv'); "
      "expected --catalog PATH\n");
  // --catalog still works without a default.
  const auto given = run_command(without_default, {"--catalog", shipped_catalog.c_str(), "--list"});
  BOOST_TEST(given.exit_code == 0);
}

BOOST_AUTO_TEST_CASE(default_candidates_put_the_install_first) {
  const auto candidates =
      iteragpu::cli::default_catalog_candidates("../share/iteragpu", "/src/data/tarifs-forfaits.csv");
  BOOST_REQUIRE_EQUAL(candidates.size(), 2U);
  const auto exe = iteragpu::cli::running_executable();
  BOOST_REQUIRE(exe.has_value());
  BOOST_TEST(candidates[0] == exe->parent_path().parent_path() / "share/iteragpu/tarifs-forfaits.csv");
  BOOST_TEST(candidates[1] == fs::path("/src/data/tarifs-forfaits.csv"));
}

BOOST_AUTO_TEST_SUITE_END()
