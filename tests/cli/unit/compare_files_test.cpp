// `mesure_memoire compare` on files: the committed measurements of
// tests/data/measurements/ (schema 1 with the H200's rows, schema 2 written
// by `measure` over the fake runtime of tests/schema/fake_measure.cpp), the
// ten malformed files beside them, and the files that cannot be read.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cli/compare_command.hpp>
#include <iteragpu/io.hpp>
#include <iteragpu/report/compare.hpp>

#include "run_command.hpp"

namespace fs = std::filesystem;

namespace {

const std::string fixtures = ITERAGPU_TEST_SOURCE_DIR "/data/measurements/";

std::string fixture(const std::string& name) { return fixtures + name; }

iteragpu::memory::measured_run read(const std::string& name) {
  auto run = iteragpu::memory::read_measurement(fixture(name));
  BOOST_TEST_REQUIRE(run.has_value(), (run.has_value() ? std::string() : iteragpu::report::describe(run.error())));
  return std::move(*run);
}

command_outcome compare(const std::string& a, const std::string& b, bool json = false) {
  std::vector<std::string> args{a, b};
  if (json) {
    args.emplace_back("--json");
  }
  std::ostringstream out;
  std::ostringstream err;
  command_outcome r;
  r.exit_code = iteragpu::cli::run_compare(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

boost::json::object compare_json(const std::string& a, const std::string& b) {
  const auto r = compare(fixture(a), fixture(b), true);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty());
  return boost::json::parse(r.out).as_object();
}

std::string text_of(const boost::json::value& v) { return std::string(v.as_string()); }

// The base time of the fake runtime's warm pass at 1 x 16 x 64: 16 b c w^2 =
// 1,048,576 operations at 700 TFLOP/s, plus 30 us.
const double fake_small_base = 1048576.0 / 700e12 + 30e-6;

// A measurement document from the committed schema-2 file, to be spoiled.
boost::json::object schema_2_document() {
  return boost::json::parse(iteragpu::read_whole_file(fixture("fake-small-float32-repeats20.json")).value())
      .as_object();
}

std::string problem_of(const boost::json::object& document) {
  const auto run = iteragpu::memory::measurement_from_json(document);
  BOOST_TEST_REQUIRE(!run.has_value());
  return iteragpu::report::describe(run.error(), iteragpu::cli::program_documents);
}

struct scratch_folder {
  fs::path path{fs::temp_directory_path() / ("iteragpu-compare-" + std::to_string(::getpid()))};
  scratch_folder() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_files)

BOOST_AUTO_TEST_CASE(a_schema_1_file_has_its_statistics_computed_from_the_rows) {
  const auto run = read("h200-small-float32-v1.json");
  BOOST_TEST(run.schema_version == 1);
  BOOST_TEST(!run.statistics_recorded);
  BOOST_TEST(run.phases.size() == 6U);
  BOOST_TEST(run.phases[2].end_allocated_bytes == 34743808U);  // cold_forward on the H200
  BOOST_TEST(run.phases[5].peak_reserved_bytes == 35651584U);
  // warm_forward gpu_seconds 0.000034 and 0.000031: median (34 + 31) / 2 us,
  // no interval with 2 values; seconds 0.000041 and 0.000038.
  BOOST_TEST(run.gpu_seconds.count == 2U);
  BOOST_TEST(run.gpu_seconds.median == 32.5e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!run.gpu_seconds.ci.has_value());
  BOOST_TEST(run.seconds.median == 39.5e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!run.repeats_with_gpu_state.has_value());
  BOOST_TEST((run.configuration.repeats == std::optional<std::uint64_t>(2)));
  BOOST_TEST((run.environment.library == std::optional<std::string>("iteragpu 0.1.0")));
  BOOST_TEST((run.environment.gpu == std::optional<std::string>("NVIDIA H200")));
  BOOST_TEST(!run.environment.driver.has_value());  // schema 1 has no NVML report
}

BOOST_AUTO_TEST_CASE(a_schema_2_file_has_its_recorded_statistics_read) {
  const auto run = read("fake-small-float32-repeats20.json");
  BOOST_TEST(run.schema_version == 2);
  BOOST_TEST(run.statistics_recorded);
  BOOST_TEST(run.phases.size() == 24U);
  // The fake's 20 repeats cycle through the relative jitters 0, +0.2, -0.3,
  // +0.1, -0.1, +0.4, -0.2 %; sorted, x(10) and x(11) are both 0, so the
  // median is the base time; n = 20 gives ranks 6 and 15
  // (P(Binomial(20, 1/2) <= 5) = 21700 / 2^20 = 0.0207), which hold -0.1 %
  // and +0.2 %.
  BOOST_TEST(run.gpu_seconds.count == 20U);
  BOOST_TEST(run.gpu_seconds.median == fake_small_base, boost::test_tools::tolerance(1e-12));
  BOOST_TEST_REQUIRE(run.gpu_seconds.ci.has_value());
  BOOST_TEST(run.gpu_seconds.ci->lower == fake_small_base * 0.999, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(run.gpu_seconds.ci->upper == fake_small_base * 1.002, boost::test_tools::tolerance(1e-12));
  // Repeat 3 is the one taken under sw_power_cap.
  BOOST_TEST((run.repeats_with_gpu_state == std::optional<std::size_t>(20)));
  BOOST_TEST((run.repeats_under_throttling == std::optional<std::size_t>(1)));
  BOOST_TEST((run.environment.driver == std::optional<std::string>("580.00.00")));
  const auto automatic = read("fake-small-float32-auto.json");
  BOOST_TEST(!automatic.configuration.repeats.has_value());
  BOOST_TEST(automatic.gpu_seconds.count == 10U);  // converged at the tenth repeat
}

BOOST_AUTO_TEST_CASE(two_runs_of_one_configuration_have_the_same_memory_and_time) {
  const auto c = compare_json("fake-small-float32-repeats20.json", "fake-small-float32-auto.json");
  const auto& memory = c.at("memory").as_object();
  BOOST_TEST(text_of(memory.at("verdict")) == "SAME");
  BOOST_TEST(memory.at("rows_compared").to_number<std::uint64_t>() == 14U);  // 4 phases + the 10 repeats both have
  BOOST_TEST(memory.at("rows_only_in_a").to_number<std::uint64_t>() == 10U);
  BOOST_TEST(text_of(c.at("time").at("gpu_seconds").at("verdict")) == "SAME");
  BOOST_TEST(c.at("configuration").at("same").as_bool());
  BOOST_TEST(c.at("environment").at("same").as_bool());
  BOOST_TEST(text_of(c.at("verdict")) ==
             "B against A: memory SAME (14 rows; 10 warm_forward rows only in A), time SAME (gpu_seconds of "
             "warm_forward, median +0.0 %), environment same, configuration same");
}

BOOST_AUTO_TEST_CASE(a_run_ten_percent_faster_on_another_driver_is_faster_and_says_so) {
  const auto c = compare_json("fake-small-float32-repeats20.json", "fake-small-float32-faster-other-driver.json");
  const auto& time = c.at("time").at("gpu_seconds").as_object();
  BOOST_TEST(text_of(time.at("verdict")) == "FASTER");
  BOOST_TEST(time.at("relative_change").as_double() == -0.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(text_of(c.at("time").at("seconds").at("verdict")) == "FASTER");
  const auto& driver = c.at("environment").at("facts").as_array()[4].as_object();
  BOOST_TEST(text_of(driver.at("fact")) == "driver");
  BOOST_TEST(text_of(driver.at("a")) == "580.00.00");
  BOOST_TEST(text_of(driver.at("b")) == "575.57.08");
  BOOST_TEST(text_of(driver.at("status")) == "different");
  BOOST_TEST(!c.at("environment").at("same").as_bool());
  BOOST_TEST(text_of(c.at("verdict")).find(", environment differs in driver,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_run_ten_percent_slower_is_slower) {
  const auto c = compare_json("fake-small-float32-repeats20.json", "fake-small-float32-slower.json");
  BOOST_TEST(text_of(c.at("time").at("gpu_seconds").at("verdict")) == "SLOWER");
  BOOST_TEST(text_of(c.at("memory").at("verdict")) == "SAME");
}

// float16 and bfloat16 take 2 bytes each: the allocator sees the same
// requests, so the memory is the same, and the configuration differs.
BOOST_AUTO_TEST_CASE(float16_and_bfloat16_have_the_same_memory_and_differ_in_dtype) {
  const auto c = compare_json("fake-rate-float16.json", "fake-rate-bfloat16.json");
  BOOST_TEST(text_of(c.at("memory").at("verdict")) == "SAME");
  BOOST_TEST(c.at("memory").at("rows_compared").to_number<std::uint64_t>() == 14U);
  const auto& differences = c.at("configuration").at("differences").as_array();
  BOOST_TEST_REQUIRE(differences.size() == 1U);
  BOOST_TEST(text_of(differences[0].at("setting")) == "dtype");
  BOOST_TEST(text_of(differences[0].at("a")) == "float16");
  BOOST_TEST(text_of(differences[0].at("b")) == "bfloat16");
}

// The H200's schema-1 run of 4 x 2048 x 4096 float16 against the schema-2
// file whose rows are the prediction: every byte of the nine rows both have
// is the same; the five H200 repeats give no interval.
BOOST_AUTO_TEST_CASE(the_h200_rows_match_the_predicted_rows_of_a_schema_2_file) {
  const auto c = compare_json("h200-rate-float16-v1.json", "fake-rate-float16.json");
  BOOST_TEST(text_of(c.at("memory").at("verdict")) == "SAME");
  BOOST_TEST(c.at("memory").at("rows_compared").to_number<std::uint64_t>() == 9U);
  BOOST_TEST(c.at("memory").at("rows_only_in_b").to_number<std::uint64_t>() == 5U);
  BOOST_TEST(text_of(c.at("time").at("gpu_seconds").at("verdict")) == "AMBIGUOUS");
  BOOST_TEST(text_of(c.at("a").at("statistics")) == "computed_from_rows");
  BOOST_TEST(text_of(c.at("b").at("statistics")) == "recorded");
}

BOOST_AUTO_TEST_CASE(two_shapes_differ_in_every_row_and_in_their_settings) {
  const auto c = compare_json("h200-small-float32-v1.json", "h200-rate-float16-v1.json");
  const auto& memory = c.at("memory").as_object();
  BOOST_TEST(text_of(memory.at("verdict")) == "DIFFERENT");
  BOOST_TEST(memory.at("rows_different").to_number<std::uint64_t>() == 6U);
  // model_load: 132608 -> 268476416 allocated at the end.
  const auto& first = memory.at("differences").as_array()[0].as_object();
  BOOST_TEST(text_of(first.at("phase")) == "model_load");
  BOOST_TEST(first.at("repeat").is_null());
  const auto& end_allocated = first.at("fields").as_array()[0].as_object();
  BOOST_TEST(text_of(end_allocated.at("field")) == "end_allocated_bytes");
  BOOST_TEST(end_allocated.at("difference").as_int64() == 268476416 - 132608);
  std::vector<std::string> settings;
  for (const auto& d : c.at("configuration").at("differences").as_array()) {
    settings.push_back(text_of(d.at("setting")));
  }
  BOOST_TEST(settings == (std::vector<std::string>{"batch", "context", "width", "dtype", "warmup"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_text_shows_both_files_each_part_and_the_verdict) {
  const auto r = compare(fixture("fake-small-float32-repeats20.json"), fixture("fake-small-float32-slower.json"));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty());
  BOOST_TEST(r.out.find("A: fake-small-float32-repeats20.json: schema 2, 1 x 16 x 64 float32 on cuda:0, warmup 1, "
                        "repeats 20 (20 warm_forward rows), statistics as recorded; 1 of 20 repeats under a throttle "
                        "reason other than gpu_idle\n") == 0U,
             r.out);
  BOOST_TEST(r.out.find("memory (the six allocator byte fields of every phase row, exact): SAME (24 rows)\n") !=
             std::string::npos);
  BOOST_TEST(r.out.find("  gpu_seconds: A 30.00 \u00b5s [29.97, 30.06] n=20; B 33.00 \u00b5s [32.97, "
                        "33.07] n=20: SLOWER (B's interval lies wholly above A's; B's median is +10.0 % from "
                        "A's)\n") != std::string::npos,
             r.out);
  BOOST_TEST(r.out.ends_with("\nverdict: B against A: memory SAME (24 rows), time SLOWER (gpu_seconds of warm_forward, "
                             "median +10.0 %), environment same, configuration same\n"),
             r.out);
}

BOOST_AUTO_TEST_CASE(a_differing_row_is_listed_with_its_fields_in_the_text) {
  const auto r = compare(fixture("h200-small-float32-v1.json"), fixture("h200-rate-float16-v1.json"));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(
      r.out.find("  cold_forward: baseline_allocated_bytes 136704 -> 335585280 (+335448576); ") != std::string::npos,
      r.out);
}

// 1 x 16 x 64 against 4 x 2048 x 4096: the 14 rows both have all differ;
// the text lists ten and counts the rest, the JSON has all 14.
BOOST_AUTO_TEST_CASE(the_text_lists_ten_differing_rows_and_counts_the_others) {
  const auto r = compare(fixture("fake-small-float32-repeats20.json"), fixture("fake-rate-float16.json"));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("\n  warm_forward 5: ") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("\n  warm_forward 6: ") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("\n  ... and 4 more rows (see the JSON output)\n") != std::string::npos, r.out);
  const auto c = compare_json("fake-small-float32-repeats20.json", "fake-rate-float16.json");
  BOOST_TEST(c.at("memory").at("differences").as_array().size() == 14U);
}

// ---- what is not a measurement ---------------------------------------------

struct malformed_case {
  const char* file;
  const char* says;  // a part of the one-line message
};

// The ten committed malformed files, each refused with exit 2, one line
// that names it, and nothing on stdout, in either place.
BOOST_AUTO_TEST_CASE(each_malformed_file_is_refused_naming_the_file_and_what_was_expected) {
  const std::vector<malformed_case> cases{
      {"not-json.json", "is not JSON (syntax error at byte 0 of 42); expected a measurement"},
      {"array.json", "is not a measurement: the top level is an array; expected a measurement"},
      {"missing-phases.json", "is not a measurement: the document has no \"phases\"; expected an array of phase rows"},
      {"phase-wrong-type.json", "is not a measurement: phases[2].phase is the number 7; expected a string"},
      {"negative-bytes.json",
       "is not a measurement: phases[1].end_allocated_bytes is the number -136704; expected a byte count"},
      {"unknown-schema-version.json",
       "is not a measurement: schema_version is the number 3, not one this program reads; expected a measurement"},
      {"estimate.json", "is not a measurement: it is the weight estimate mesure_memoire estimate --json prints"},
      {"plan.json", "is not a measurement: it is the prediction mesure_memoire plan --json prints"},
      {"truncated.json", "is not JSON (incomplete JSON at byte 1586 of 1586)"},
      {"empty.json", "is empty; expected a measurement"},
  };
  const std::string good = fixture("h200-small-float32-v1.json");
  for (const auto& c : cases) {
    const std::string bad = fixture(std::string("malformed/") + c.file);
    for (const auto& [a, b] : {std::pair{good, bad}, std::pair{bad, good}}) {
      const auto r = compare(a, b);
      BOOST_TEST(r.exit_code == 2, c.file);
      BOOST_TEST(r.out.empty(), c.file);
      BOOST_TEST(is_one_line(r.err), r.err);
      BOOST_TEST(r.err.starts_with("mesure_memoire compare: '" + bad + "' "), r.err);
      BOOST_TEST(r.err.find(c.says) != std::string::npos, r.err);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_missing_file_and_a_folder_are_refused) {
  const std::string good = fixture("h200-small-float32-v1.json");
  const auto missing = compare(good, fixture("no-such-file.json"));
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(missing.out.empty());
  BOOST_TEST(missing.err == "mesure_memoire compare: '" + fixture("no-such-file.json") +
                                "' does not exist; expected a measurement, the JSON file mesure_memoire measure "
                                "--output writes (schema_version 1 or 2)\n");
  const auto folder = compare(fixtures, good);
  BOOST_TEST(folder.exit_code == 2);
  BOOST_TEST(folder.out.empty());
  BOOST_TEST(folder.err.find("' is a folder; expected a measurement") != std::string::npos, folder.err);
}

// A measurement padded with spaces to exactly 16 MiB is read; one byte
// more is refused before it is parsed.
BOOST_AUTO_TEST_CASE(a_file_past_16_mib_is_refused_and_one_of_16_mib_is_read) {
  const scratch_folder dir;
  const std::string good = fixture("h200-small-float32-v1.json");
  std::string text = iteragpu::read_whole_file(good).value();
  constexpr std::size_t limit = std::size_t{16} * 1024 * 1024;
  BOOST_TEST(iteragpu::memory::measurement_file_limit == limit);
  text.resize(limit, ' ');
  const fs::path at_limit = dir.path / "at-limit.json";
  const fs::path past_limit = dir.path / "past-limit.json";
  std::ofstream(at_limit, std::ios::binary) << text;
  std::ofstream(past_limit, std::ios::binary) << text << ' ';
  BOOST_TEST(fs::file_size(past_limit) == limit + 1);
  const auto read = compare(good, at_limit.string());
  BOOST_TEST(read.exit_code == 0, read.err);
  const auto refused = compare(good, past_limit.string());
  BOOST_TEST(refused.exit_code == 2);
  BOOST_TEST(refused.out.empty());
  BOOST_TEST(is_one_line(refused.err), refused.err);
  BOOST_TEST(refused.err.find("is larger than 16 MiB (16777216 bytes), more than compare reads") != std::string::npos,
             refused.err);
}

BOOST_AUTO_TEST_CASE(the_command_line_takes_exactly_two_files) {
  const std::string good = fixture("h200-small-float32-v1.json");
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "expected two measurement files, A.json B.json; got none"},
           {{good}, "expected two measurement files, A.json B.json; got one"},
           {{good, good, "third.json"}, "unexpected word 'third.json'; expected two measurement files"},
           {{good, good, "--jsn"}, "unknown flag '--jsn'"},
           {{good, good, "--json=yes"}, "'--json' takes no value"},
       }) {
    std::ostringstream out;
    std::ostringstream err;
    BOOST_TEST(iteragpu::cli::run_compare(args, out, err) == 2, says);
    BOOST_TEST(out.str().empty());
    BOOST_TEST(is_one_line(err.str()), err.str());
    BOOST_TEST(err.str().find(says) != std::string::npos, err.str());
  }
  const auto help = run_command(&iteragpu::cli::run_compare, {"--help"});
  BOOST_TEST(help.exit_code == 0);
  BOOST_TEST(help.out.starts_with("usage: mesure_memoire compare A.json B.json [--json]\n"));
}

// Documents that parse but break the rules a measurement keeps.
BOOST_AUTO_TEST_CASE(a_schema_2_file_whose_statistics_disagree_with_its_rows_is_refused) {
  auto d = schema_2_document();
  d["statistics"].as_object()["warm_forward"].as_object()["gpu_seconds"].as_object()["count"] = 19;
  BOOST_TEST(problem_of(d) ==
             "statistics.warm_forward.gpu_seconds.count is 19 but phases has 20 warm_forward rows; expected the two "
             "equal");
  d = schema_2_document();
  auto& ci = d["statistics"].as_object()["warm_forward"].as_object()["seconds"].as_object()["median_ci"].as_object();
  ci["upper"] = 1e-9;
  BOOST_TEST(problem_of(d) ==
             "statistics.warm_forward.seconds.median_ci does not hold the median; expected lower <= median <= upper");
  d = schema_2_document();
  d["statistics"].as_object()["repeats_under_throttling"] = 21;
  BOOST_TEST(problem_of(d).starts_with("statistics.repeats_under_throttling is larger than"));
  d = schema_2_document();
  d.erase("statistics");
  BOOST_TEST(problem_of(d) == "the document has no \"statistics\"; expected an object");
}

BOOST_AUTO_TEST_CASE(rows_out_of_the_protocols_order_are_refused) {
  auto d = schema_2_document();
  auto& phases = d["phases"].as_array();
  phases[5].as_object()["repeat"] = 7;
  BOOST_TEST(problem_of(d) ==
             "phases[5] is phase 'warm_forward' with repeat the number 7; expected the row warm_forward 1 (rows in "
             "the protocol's order)");
  d = schema_2_document();
  std::swap(d["phases"].as_array()[0], d["phases"].as_array()[1]);
  BOOST_TEST(problem_of(d).starts_with("phases[0] is phase 'inputs' with repeat null; expected the row model_load"));
  d = schema_2_document();
  d["phases"].as_array().resize(4);
  BOOST_TEST(problem_of(d) ==
             "phases has 4 rows; expected model_load, inputs, cold_forward, warmup and at least one warm_forward row");
}

BOOST_AUTO_TEST_CASE(times_and_bytes_of_the_wrong_kind_are_refused) {
  auto d = schema_2_document();
  d["phases"].as_array()[4].as_object()["gpu_seconds"] = -1e-6;
  BOOST_TEST(problem_of(d) ==
             "phases[4].gpu_seconds is the number -1E-6; expected a finite number of seconds, 0 or more");
  d = schema_2_document();
  d["phases"].as_array()[4].as_object()["seconds"] = "fast";
  BOOST_TEST(problem_of(d).starts_with("phases[4].seconds is the string 'fast'; expected"));
  d = schema_2_document();
  d["phases"].as_array()[0].as_object()["peak_reserved_bytes"] = 2.5;
  BOOST_TEST(problem_of(d).starts_with("phases[0].peak_reserved_bytes is the number 2.5E0; expected a byte count"));
  d = schema_2_document();
  d["phases"].as_array()[0].as_object().erase("peak_reserved_bytes");
  BOOST_TEST(problem_of(d) ==
             "phases[0] has no \"peak_reserved_bytes\"; expected a byte count, an integer of 0 or more");
  // The largest count JSON can hold in 64 bits is a byte count like any other.
  d = schema_2_document();
  d["phases"].as_array()[0].as_object()["peak_reserved_bytes"] = std::numeric_limits<std::uint64_t>::max();
  BOOST_TEST(iteragpu::memory::measurement_from_json(d).has_value());
}

BOOST_AUTO_TEST_CASE(the_configuration_is_checked_and_auto_belongs_to_schema_2) {
  auto d = schema_2_document();
  d["configuration"].as_object()["batch"] = 0;
  BOOST_TEST(problem_of(d) == "configuration.batch is the number 0; expected a positive integer");
  d = schema_2_document();
  d["schema_version"] = 1;
  d["configuration"].as_object()["repeats"] = "auto";
  BOOST_TEST(problem_of(d) == "configuration.repeats is the string 'auto'; expected a positive integer");
  d = schema_2_document();
  d.erase("environment");
  BOOST_TEST(problem_of(d) == "the document has no \"environment\"; expected an object");
  d = schema_2_document();
  d["schema_version"] = "2";
  BOOST_TEST(problem_of(d).starts_with("schema_version is the string '2', not one this program reads"));
  d = schema_2_document();
  d.erase("schema_version");
  BOOST_TEST(problem_of(d).starts_with("it has no schema_version; expected a measurement"));
}

// An environment that says less (the PyTorch baseline of bench/ writes
// only a library, a CUDA build and a device name) is still compared; the
// facts it lacks are empty.
BOOST_AUTO_TEST_CASE(an_environment_that_says_less_is_still_read) {
  auto d = schema_2_document();
  d["environment"] = {{"library", {{"name", "pytorch baseline"}, {"version", "2.11.0"}}}, {"device", {{"name", 7}}}};
  const auto run = iteragpu::memory::measurement_from_json(d);
  BOOST_TEST_REQUIRE(run.has_value());
  BOOST_TEST((run->environment.library == std::optional<std::string>("pytorch baseline 2.11.0")));
  BOOST_TEST(!run->environment.gpu.has_value());
  BOOST_TEST(!run->environment.libtorch.has_value());
  BOOST_TEST(!run->environment.driver.has_value());
}

BOOST_AUTO_TEST_CASE(the_other_outputs_of_the_programs_are_named) {
  const boost::json::object environment{{"library", nullptr}, {"gpus", boost::json::array{}}, {"device", nullptr}};
  BOOST_TEST(problem_of(environment).starts_with("it is the report mesure_memoire environment prints;"));
  const boost::json::object quote{{"provider", "x"}, {"total_price_cents", 1}};
  BOOST_TEST(problem_of(quote).starts_with("it is the package quote calcul_forfaits --json prints;"));
}

BOOST_AUTO_TEST_CASE(without_a_programs_words_the_other_documents_are_named_by_their_kind) {
  const boost::json::object quote{{"provider", "x"}, {"total_price_cents", 1}};
  const auto run = iteragpu::memory::measurement_from_json(quote);
  BOOST_TEST_REQUIRE(!run.has_value());
  BOOST_TEST(iteragpu::report::describe(run.error()) ==
             "it is a package quote; expected a measurement file (schema_version 1 or 2)");
}

BOOST_AUTO_TEST_CASE(a_torchscript_measurement_is_refused_by_name) {
  const auto run = iteragpu::memory::measurement_from_text(
      R"({"schema_version": 2, "workload": {"kind": "torchscript"}, "configuration": {"device": "cuda:0"}})");
  BOOST_REQUIRE(!run.has_value());
  BOOST_TEST(iteragpu::report::describe(run.error()) ==
             "is the measurement of a TorchScript module (it has a workload); compare reads measurements of the "
             "synthetic network only");
}

BOOST_AUTO_TEST_SUITE_END()
