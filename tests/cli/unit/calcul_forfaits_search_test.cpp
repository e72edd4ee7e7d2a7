#include <cli/calcul_forfaits_command.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "text_checks.hpp"

#include <iteragpu/pricing/memory_rule.hpp>

#include "run_command.hpp"

namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

const fs::path shipped_catalog = ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv";
const std::string fits = ITERAGPU_TEST_SOURCE_DIR "/data/fits/";

int calcul_forfaits(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const std::array defaults{fs::path("/nonexistent/share/iteragpu/tarifs-forfaits.csv"), shipped_catalog};
  return iteragpu::cli::run_calcul_forfaits(args, out, err, defaults);
}

command_outcome run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  command_outcome outcome;
  outcome.exit_code = calcul_forfaits(args, out, err);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

json::object json_of(const std::vector<std::string>& args) {
  const auto r = run(args);
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty());
  return json::parse(r.out).as_object();
}

// "gpu days lots total_cents verdict" per listed package.
std::vector<std::string> lines_of(const json::object& o) {
  std::vector<std::string> lines;
  for (const auto& p : o.at("packages").as_array()) {
    const auto& m = p.as_object();
    std::string line = std::string(m.at("gpu").as_string()) + " " + std::to_string(m.at("days").as_int64()) + " " +
                       std::to_string(m.at("lots").as_int64()) + " " +
                       std::to_string(m.at("total_price_cents").as_int64());
    if (!m.at("fit").is_null()) {
      line += " " + std::string(m.at("fit").as_object().at("verdict").as_string());
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calcul_forfaits_search)

// The example: 7e9 parameters at 16 bits and a 4 GiB reserve,
// 17.03851604461669921875 GiB = 18294967296 bytes. The smallest band low
// end of the shipped catalog is the L4's, 23417987058 bytes, so every GPU
// holds it; the list is the 7-day lot prices sorted, the three ties (84.00
// for a6000 and l4, 168.00 for a100-40gb and l40, 435.12 for h100-nvl and
// mi300x) in the order of the catalog's rows. b200 sells 2 GPUs a lot.
BOOST_AUTO_TEST_CASE(the_estimate_and_its_gib_list_the_same_shipped_packages_cheapest_first) {
  const std::vector<std::string> expected{
      "rtx-4090 7 1 4872 fits",      "a6000 7 1 8400 fits",      "l4 7 1 8400 fits",        "rtx-5090 7 1 12768 fits",
      "l40s 7 1 15792 fits",         "a100-40gb 7 1 16800 fits", "l40 7 1 16800 fits",      "a100-80gb 7 1 23352 fits",
      "rtx-pro-6000 7 1 24360 fits", "h100-pcie 7 1 33432 fits", "h100-sxm 7 1 43344 fits", "h100-nvl 7 1 43512 fits",
      "mi300x 7 1 43512 fits",       "h200 7 1 57960 fits",      "b300 7 1 100800 fits",    "b200 7 1 168000 fits"};
  const auto from_file = json_of({"--fits", fits + "estimate-7b.json", "--days", "7", "--json"});
  const auto from_gib = json_of({"--fits-gib", "17.03851604461669921875", "--days", "7", "--json"});
  BOOST_TEST(lines_of(from_file) == expected, boost::test_tools::per_element());
  BOOST_TEST(lines_of(from_gib) == expected, boost::test_tools::per_element());
  for (const auto* o : {&from_file, &from_gib}) {
    const auto& need = o->at("memory_need").as_object();
    BOOST_TEST(need.at("bytes").as_int64() == 18294967296);
    BOOST_TEST(need.at("gib").as_string() == "17.03851604461669921875");
    BOOST_TEST(o->at("memory_rule").as_string() == iteragpu::pricing::memory_rule_statement);
    BOOST_TEST(o->at("illustrative").as_bool());
  }
  BOOST_TEST(std::string(from_gib.at("memory_need").as_object().at("source").as_string()) ==
             "--fits-gib 17.03851604461669921875: the GiB given, rounded up to a whole byte");
  // rtx-4090: 25132489113 - 18294967296 bytes of headroom.
  const auto& first = from_file.at("packages").as_array().at(0).as_object();
  BOOST_TEST(first.at("fit").as_object().at("headroom_bytes").as_int64() == 6837521817);
  BOOST_TEST(first.at("price_per_gpu_hour_cents").as_string() == "29.0000");  // 4872 / 168
}

BOOST_AUTO_TEST_CASE(the_text_table_carries_the_label_the_units_and_the_rule) {
  const auto r = run({"--fits", fits + "estimate-7b.json", "--days", "7"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty());
  BOOST_TEST(r.out.starts_with(std::string(iteragpu::report::illustrative_note) + "\n"));
  for (
      const char* part :
      {"Packages of at least 1 GPU that holds 18294967296 bytes (17.04 GiB), 7 days: 16 packages\n",
       "  need      estimate --json: its memory_need.bytes",
       "gpu           name                     GB/GPU  fit   headroom (GiB)  days  lots  GPUs  price (USD)  GPU-hours  "
       "USD/GPU-hour\n",
       "rtx-4090      NVIDIA GeForce RTX 4090      24  fits            6.36     7     1     1        48.72        168  "
       "    0.290000\n",
       "b200          NVIDIA B200                 180  fits          159.52     7     1     2      1680.00        336  "
       "    5.000000\n",
       "neither availability nor a reservation", "order: cheapest first"}) {
    BOOST_TEST(contains(r.out, part), part);
  }
  BOOST_TEST(contains(r.out, std::string(iteragpu::pricing::memory_rule_statement) + "\n"));
}

BOOST_AUTO_TEST_CASE(a_need_within_the_rule_s_uncertainty_is_listed_as_tight) {
  // 23.5 GiB = 25232932864 bytes: above the RTX 4090's low end
  // (25132489113) and below its high end (25756172288).
  const auto o = json_of({"--fits-gib", "23.5", "--days", "3", "--json"});
  const auto& first = o.at("packages").as_array().at(0).as_object();
  BOOST_TEST(first.at("gpu").as_string() == "rtx-4090");
  const auto& fit = first.at("fit").as_object();
  BOOST_TEST(fit.at("verdict").as_string() == "tight");
  BOOST_TEST(fit.at("shortfall_bytes").as_int64() == 100443751);  // 25232932864 - 25132489113
  BOOST_TEST(fit.at("headroom_bytes").as_int64() == 0);
  const auto text = run({"--fits-gib", "23.5", "--days", "3"});
  BOOST_TEST(contains(text.out, "rtx-4090      NVIDIA GeForce RTX 4090      24  tight           -0.10"), text.out);
}

BOOST_AUTO_TEST_CASE(json_of_a_search_has_its_keys_in_order) {
  const auto o = json_of({"--fits-gib", "0", "--json"});
  const std::array<const char*, 14> keys{
      "kind", "provider", "currency",  "snapshot_date",    "illustrative", "memory_need", "memory_rule",
      "gpus", "days",     "gpu_hours", "accepted_results", "order",        "packages",    "notes"};
  BOOST_REQUIRE_EQUAL(o.size(), keys.size());
  std::size_t i = 0;
  for (const auto& entry : o) {
    BOOST_TEST(entry.key() == keys[i]);
    ++i;
  }
  BOOST_TEST(o.at("kind").as_string() == "packages");
  BOOST_TEST(o.at("packages").as_array().size() == 48U);  // need 0: every package of the catalog
  BOOST_TEST(o.at("days").is_null());
}

BOOST_AUTO_TEST_CASE(a_custom_catalog_search_gives_exact_lots_cents_and_hours) {
  const std::string ties = fits + "catalog-ties.csv";
  // 40e9 bytes, 7 GPUs, 1000 GPU-hours, 7 days (worked out in fit_test.cpp).
  const auto o = json_of({"--catalog", ties, "--fits-gib", "37.252902984619140625", "--gpus", "7", "--gpu-hours",
                          "1000", "--days", "7", "--accepted-results", "4", "--json"});
  BOOST_TEST(o.at("memory_need").as_object().at("bytes").as_int64() == 40000000000);  // exactly 40e9 / 2^30 GiB
  const std::vector<std::string> expected{"r80 7 2 40000 fits", "q48 7 7 47600 fits", "p40 7 7 49000 tight"};
  BOOST_TEST(lines_of(o) == expected, boost::test_tools::per_element());
  const auto& r80 = o.at("packages").as_array().at(0).as_object();
  BOOST_TEST(r80.at("total_gpus").as_int64() == 8);
  BOOST_TEST(r80.at("gpu_hours").as_int64() == 1344);
  BOOST_TEST(r80.at("unused_gpu_hours").as_int64() == 344);
  BOOST_TEST(r80.at("price_per_gpu_hour_cents").as_string() == "29.7619");
  BOOST_TEST(r80.at("unit_cost_cents").as_string() == "10000.0000");
  BOOST_TEST(!o.at("illustrative").as_bool());
  BOOST_TEST(o.at("gpus").as_int64() == 7);
  BOOST_TEST(o.at("gpu_hours").as_int64() == 1000);
  BOOST_TEST(o.at("accepted_results").as_int64() == 4);
  for (const auto& note : o.at("notes").as_array()) {
    BOOST_TEST(!contains(std::string(note.as_string()), "ILLUSTRATIVE"));
  }
  const auto text = run({"--catalog", ties, "--fits-gib", "37.252902984619140625", "--gpus", "7", "--gpu-hours", "1000",
                         "--days", "7", "--accepted-results", "4"});
  BOOST_TEST(!contains(text.out, "ILLUSTRATIVE"));
  BOOST_TEST(contains(text.out, "unused GPU-hours  USD/accepted result\n"), text.out);
  BOOST_TEST(
      contains(text.out, "p40  Test P40      40  tight           -0.38     7     7     7       490.00       1176"),
      text.out);
}

BOOST_AUTO_TEST_CASE(measurements_and_plans_are_read_as_needs) {
  const auto v2 = json_of({"--fits", fits + "measurement-v2.json", "--days", "30", "--json"});
  BOOST_TEST(v2.at("memory_need").as_object().at("bytes").as_int64() == 2027945984);
  BOOST_TEST(contains(std::string(v2.at("memory_need").as_object().at("source").as_string()),
                      "plus the memory outside the allocator, 593494016 bytes"));
  const auto plan = json_of({"--fits", fits + "plan.json", "--days", "30", "--json"});
  BOOST_TEST(plan.at("memory_need").as_object().at("bytes").as_int64() == 1986854912);
  const auto v1 = run({"--fits", fits + "measurement-v1.json", "--days", "30"});
  BOOST_TEST(contains(v1.out, "was not recorded and is not included"), v1.out);
}

BOOST_AUTO_TEST_CASE(a_need_past_every_gpu_prints_an_empty_list) {
  const auto o = json_of({"--fits", fits + "estimate-largest.json", "--json"});
  BOOST_TEST(o.at("packages").as_array().empty());
  const auto text = run({"--fits", fits + "estimate-largest.json"});
  BOOST_TEST(text.exit_code == 0);
  BOOST_TEST(contains(text.out, ": 0 packages\n"));
  BOOST_TEST(contains(text.out, "No package of the catalog meets this search.\n"));
}

BOOST_AUTO_TEST_CASE(gpu_hours_alone_list_every_gpu_without_memory) {
  const auto o = json_of({"--catalog", fits + "catalog-ties.csv", "--gpu-hours", "73", "--days", "3", "--json"});
  const std::vector<std::string> expected{"u16 3 2 1000", "s24 3 2 2000", "r80 3 1 3000", "p40 3 2 6000",
                                          "q48 3 2 6000"};
  BOOST_TEST(lines_of(o) == expected, boost::test_tools::per_element());
  BOOST_TEST(o.at("memory_need").is_null());
  BOOST_TEST(o.at("memory_rule").is_null());
  const auto text = run({"--catalog", fits + "catalog-ties.csv", "--gpu-hours", "73", "--days", "3"});
  BOOST_TEST(!contains(text.out, "Memory rule"));
  BOOST_TEST(contains(text.out, "Packages of at least 1 GPU, at least 73 GPU-hours, 3 days: 5 packages\n"), text.out);
}

BOOST_AUTO_TEST_CASE(durations_compared_side_by_side) {
  const auto o = json_of({"--catalog", fits + "catalog-durations.csv", "--gpu", "d2", "--compare-days",
                          "--accepted-results", "3", "--json"});
  BOOST_TEST(o.at("kind").as_string() == "durations");
  const auto& rows = o.at("durations").as_array();
  BOOST_REQUIRE_EQUAL(rows.size(), 3U);
  const auto& seven = rows.at(1).as_object();
  BOOST_TEST(seven.at("days").as_int64() == 7);
  BOOST_TEST(seven.at("price_per_gpu_day_cents").as_string() == "342.8571");
  BOOST_TEST(seven.at("saving_per_gpu_day_cents").as_string() == "-9.5238");
  BOOST_TEST(seven.at("saving_percent").as_string() == "-2.86");
  BOOST_TEST(seven.at("dearer").as_bool());
  BOOST_TEST(seven.at("unit_cost_cents").as_string() == "800.0000");
  BOOST_TEST(rows.at(2).as_object().at("saving_percent").as_string() == "10.00");

  const auto text = run({"--catalog", fits + "catalog-durations.csv", "--gpu", "d1", "--compare-days"});
  BOOST_TEST(text.exit_code == 0);
  for (const char* part :
       {"Durations compared: d1 (Test D1, 80 GB per GPU), one lot of 2 GPUs\n",
        "days  lot price (USD)  GPU-days  USD/GPU-day  saving vs 3 days (USD/GPU-day)  saving vs 3 "
        "days (%)\n",
        "   7           151.20        14    10.800000                        1.200000                 "
        "10.00\n",
        "  30           576.00        60     9.600000                        2.400000                 "
        "20.00\n",
        "unit cost not computed (no count of accepted results)"}) {
    BOOST_TEST(contains(text.out, part), part << "\n" << text.out);
  }
  const auto shipped = run({"--gpu", "h200", "--compare-days"});
  BOOST_TEST(shipped.out.starts_with(std::string(iteragpu::report::illustrative_note) + "\n"));
}

BOOST_AUTO_TEST_CASE(help_names_every_flag) {
  const auto r = run({"--help"});
  BOOST_TEST(r.exit_code == 0);
  for (const char* flag :
       {"--gpu ", "--days", "--lots", "--accepted-results", "--fits ", "--fits-gib", "--gpus", "--gpu-hours",
        "--compare-days", "--catalog", "--json", "--list", "--help", "data/README.md"}) {
    BOOST_TEST(contains(r.out, flag), flag);
  }
}

struct bad_case {
  std::vector<std::string> args;
  std::vector<std::string> must_say;
};

BOOST_AUTO_TEST_CASE(bad_searches_exit_2_with_one_line_naming_the_flag_and_nothing_on_stdout) {
  const std::string ties = fits + "catalog-ties.csv";
  const std::string thousand_digits(1000, '7');
  const std::vector<bad_case> cases{
      // --fits: a file that is not one of the three kinds, malformed, missing, a directory
      {{"--fits", "/nonexistent/e.json"}, {"--fits: '/nonexistent/e.json' does not exist; expected the JSON of"}},
      {{"--fits", fits}, {"--fits: '" + fits + "' is not a regular file"}},
      {{"--fits", fits + "truncated.json"}, {"--fits: '" + fits + "truncated.json': not valid JSON ("}},
      {{"--fits", fits + "quote.json"}, {"quote.json': a JSON object that is neither an estimate, a plan nor a"}},
      {{"--fits", fits + "kind-sweep.json"}, {"kind-sweep.json': JSON of kind 'sweep'; expected"}},
      {{"--fits", fits + "schema-version-3.json"}, {"a measurement of schema_version '3'"}},
      {{"--fits", fits + "array.json"}, {"JSON that is not an object"}},
      {{"--fits", fits + "catalog-ties.csv"}, {"--fits: ", "not valid JSON"}},
      {{"--fits", fits + "estimate-need-null.json"}, {"--fits: ", "memory_need is null"}},
      {{"--fits", fits + "negative-peak.json"},
       {"--fits: ",
        "a measurement that cannot be read: phases[1].peak_reserved_bytes is the number -1; expected a byte count"}},
      {{"--fits", "/proc/self/pagemap"}, {"--fits: '/proc/self/pagemap' is larger than 16 MiB"}},
      {{"--fits", ""}, {"--fits: an empty value"}},
      {{"--fits="}, {"--fits"}},
      {{"--fits"}, {"--fits"}},
      {{"--fits", "/nonexistent/two\nlines.json"}, {"'/nonexistent/two\\x0Alines.json' does not exist"}},
      // --fits-gib: negative, malformed, 1000 digits, past 64 bits of bytes
      {{"--fits-gib", "-1"}, {"--fits-gib: '-1' is not a plain decimal"}},
      {{"--fits-gib", "17,04"}, {"--fits-gib: '17,04' is not a plain decimal"}},
      {{"--fits-gib", "1e3"}, {"--fits-gib: '1e3' is not a plain decimal"}},
      {{"--fits-gib", "17.04GiB"}, {"--fits-gib: '17.04GiB' is not a plain decimal"}},
      {{"--fits-gib", ""}, {"--fits-gib: an empty value"}},
      {{"--fits-gib", thousand_digits}, {"--fits-gib: ", "has a whole part past 64 bits"}},
      {{"--fits-gib", "0." + thousand_digits}, {"--fits-gib: ", "has more than 40 digits after the point"}},
      {{"--fits-gib", "17179869184"}, {"--fits-gib: '17179869184' GiB is 2^64 bytes or more"}},
      // --gpus and --gpu-hours
      {{"--fits-gib", "1", "--gpus", "0"}, {"--gpus: '0' is too small; expected a positive integer count of GPUs"}},
      {{"--fits-gib", "1", "--gpus", "-2"}, {"--gpus"}},
      {{"--fits-gib", "1", "--gpus", "1.5"}, {"--gpus: '1.5' is not a whole number"}},
      {{"--fits-gib", "1", "--gpus", "18446744073709551616"},
       {"--gpus: '18446744073709551616' does not fit in 64 bits"}},
      {{"--gpu-hours", "0"}, {"--gpu-hours: '0' is too small"}},
      {{"--gpu-hours", "ten"}, {"--gpu-hours: 'ten' is not a whole number"}},
      {{"--fits-gib", "1", "--days", "5"}, {"--days: no package lasts '5' days; expected 3, 7 or 30"}},
      {{"--fits-gib", "1", "--days", "0"}, {"--days: '0' is too small"}},
      {{"--fits-gib", "1", "--accepted-results", "0"}, {"--accepted-results: '0' is too small"}},
      // conflicting flags
      {{"--fits", fits + "plan.json", "--fits-gib", "3"}, {"--fits and --fits-gib do not go together"}},
      {{"--fits-gib", "3", "--gpu", "b200"}, {"--gpu does not go with --fits-gib"}},
      {{"--fits", fits + "plan.json", "--lots", "2"}, {"--lots does not go with --fits"}},
      {{"--gpu-hours", "10", "--lots", "2"}, {"--lots does not go with --gpu-hours"}},
      {{"--gpus", "2"}, {"--gpus goes with a search (--fits, --fits-gib or --gpu-hours)"}},
      {{"--gpu", "b200", "--days", "7", "--lots", "1", "--gpus", "2"}, {"--gpus goes with a search"}},
      {{"--compare-days"}, {"--compare-days needs --gpu"}},
      {{"--compare-days", "--gpu", "b200", "--days", "7"}, {"--compare-days", "--days does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--lots", "1"}, {"--lots does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--fits-gib", "1"}, {"--fits-gib does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--fits", fits + "plan.json"}, {"--fits does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--gpus", "2"}, {"--gpus does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--gpu-hours", "2"}, {"--gpu-hours does not go with it"}},
      {{"--compare-days", "--gpu", "b200", "--accepted-results", "0"}, {"--accepted-results: '0' is too small"}},
      {{"--compare-days", "--gpu", "b201"}, {"--gpu: 'b201' is not in the catalog; expected one of: b300,"}},
      {{"--compare-days=yes", "--gpu", "b200"}, {"--compare-days"}},
      {{"--list", "--fits-gib", "1"}, {"--list prints the whole catalog; --fits-gib does not go with it"}},
      {{"--list", "--fits", "x.json"}, {"--fits does not go with it"}},
      {{"--list", "--gpus", "2"}, {"--gpus does not go with it"}},
      {{"--list", "--gpu-hours", "2"}, {"--gpu-hours does not go with it"}},
      {{"--list", "--compare-days"}, {"--compare-days does not go with it"}},
      {{"--fits-gib", "--gpus", "2"}, {"--fits-gib needs a value; got the flag --gpus"}},
      // figures past 64 bits, each naming the package
      {{"--catalog", fits + "catalog-tiny.csv", "--gpu-hours", "18446744073709551601"},
       {"--gpu-hours: t1, 3 days: 256204778801521551 lots x 1 GPU per lot x 3 days x 24 does not fit in 64 bits of "
        "GPU-hours; expected fewer GPU-hours"}},
      {{"--catalog", ties, "--fits-gib", "18.62645149230957031250", "--gpus", "144115188075855872"},
       {"--gpus: p40, 3 days: 144115188075855872 lots x 3000 cents is past 64 bits of cents "
        "(18446744073709551615); expected fewer GPUs"}},
      {{"--catalog", ties, "--fits-gib", "56", "--gpus", "18446744073709551615"},
       {"--gpus: r80, 3 days: 4611686018427387904 lots x 4 GPUs per lot does not fit in 64 bits; expected fewer "
        "GPUs"}},
      {{"--catalog", fits + "catalog-huge-memory.csv", "--fits-gib", "1"},
       {"--fits-gib: big has 17179869184 GB per GPU, which read as GiB passes 64 bits of bytes"}},
      {{"--catalog", fits + "catalog-durations.csv", "--gpu", "z1", "--compare-days"},
       {"--compare-days: the lot prices of z1 are too large to compare within 64 bits"}},
  };
  for (const auto& c : cases) {
    // `shown` is read by the BOOST_TEST messages, which cppcheck does not expand.
    std::string shown;
    for (const auto& a : c.args) {
      // cppcheck-suppress unreadVariable
      shown += a.substr(0, 80) + " ";
    }
    const auto r = run(c.args);
    BOOST_TEST(r.exit_code == 2, shown);
    BOOST_TEST(r.out.empty(), shown);
    BOOST_TEST(is_one_line(r.err), shown << "-> " << r.err.substr(0, 300));
    BOOST_TEST(r.err.starts_with("calcul_forfaits: "), r.err.substr(0, 300));
    for (const auto& part : c.must_say) {
      BOOST_TEST(contains(r.err, part), shown << "-> " << r.err.substr(0, 400) << " lacks: " << part);
    }
  }
}

BOOST_AUTO_TEST_CASE(quotes_and_lists_are_unchanged_by_the_new_flags) {
  // The quote and the list print what they printed before the search existed.
  const auto quote = run({"--gpu", "b200", "--days", "7", "--lots", "2", "--accepted-results", "3", "--json"});
  BOOST_TEST(quote.exit_code == 0);
  BOOST_TEST(contains(quote.out, "\"total_price_cents\":336000,\"total_price\":\"3360.00\",\"accepted_results\":3,"
                                 "\"unit_cost_cents\":\"112000.0000\""));
  const auto parsed = iteragpu::cli::parse_calcul_forfaits_options(
      std::vector<std::string>{"--gpu", "b200", "--days", "7", "--lots", "2"});
  BOOST_TEST(!parsed.search.has_value());
  BOOST_TEST(!parsed.compare_days);
  const auto compare =
      iteragpu::cli::parse_calcul_forfaits_options(std::vector<std::string>{"--gpu", "h200", "--compare-days"});
  BOOST_TEST(compare.compare_days);
  BOOST_TEST(compare.request.gpu == "h200");
  const auto search = iteragpu::cli::parse_calcul_forfaits_options(
      std::vector<std::string>{"--fits-gib", "17.50", "--gpus", "3", "--days", "30", "--gpu-hours", "9"});
  BOOST_REQUIRE(search.search.has_value());
  BOOST_TEST(search.search->fits_gib->to_string() == "17.5");
  BOOST_TEST(search.search->request.gpus.value == 3U);
  BOOST_TEST(search.search->request.days->value == 30U);
  BOOST_TEST(search.search->request.hours->value == 9U);
  BOOST_TEST(!search.search->request.need.has_value());  // read when the program runs
}

BOOST_AUTO_TEST_SUITE_END()
