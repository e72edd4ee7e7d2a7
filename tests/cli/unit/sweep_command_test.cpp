// `mesure_memoire sweep` and `collect` in-process: every refused
// combination of flags, the JSON of records and measurements, and whole
// sweeps whose points run as fresh processes of a stand-in program
// (tests/sweep/fake_point_program.py): resume, --run-point idempotence, a
// measurement left without its record, collect of two GPUs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <unistd.h>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cli/collect_command.hpp>
#include <cli/sweep_command.hpp>
#include <cli/sweep_process_runner.hpp>
#include <iteragpu/report/sweep_errors.hpp>

#include "run_command.hpp"

namespace fs = std::filesystem;
namespace sw = iteragpu::sweep;
namespace cli = iteragpu::cli;
namespace json = boost::json;

namespace {

const std::string fake_program = std::string(ITERAGPU_TEST_SOURCE_DIR) + "/sweep/fake_point_program.py";

int plain_sweep(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  return cli::run_sweep_with(args, out, err, std::nullopt);
}

command_outcome sweep(const std::vector<std::string>& words) {
  std::ostringstream out;
  std::ostringstream err;
  command_outcome o;
  o.exit_code = plain_sweep(words, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

command_outcome collect(const std::vector<std::string>& words) {
  std::ostringstream out;
  std::ostringstream err;
  command_outcome o;
  o.exit_code = cli::run_collect(words, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(prefix)) {
      ++n;
    }
  }
  return n;
}

// A scratch folder, the stand-in's configuration and its log of processes.
struct scratch_fixture {
  fs::path dir;
  fs::path config;
  fs::path log;

  scratch_fixture()
      : dir(fs::temp_directory_path() / ("iteragpu-sweep-command-" + std::to_string(::getpid()) + "-" +
                                         boost::unit_test::framework::current_test_case().p_name.get())) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    config = dir / "fake.json";
    log = dir / "processes.log";
    configure(R"({"gpu_names": {"cuda:0": "Fake A", "cuda:1": "Fake B"}})");
  }
  scratch_fixture(const scratch_fixture&) = delete;
  scratch_fixture& operator=(const scratch_fixture&) = delete;
  scratch_fixture(scratch_fixture&&) = delete;
  scratch_fixture& operator=(scratch_fixture&&) = delete;
  ~scratch_fixture() {
    // The test process has one thread; the stand-in reads its settings from this variable.
    ::unsetenv("ITERAGPU_FAKE_POINT_CONFIG");  // NOLINT(concurrency-mt-unsafe)
    fs::remove_all(dir);
  }

  // The stand-in's behaviour: the given JSON object, plus its log.
  void configure(const std::string& object) {
    auto value = json::parse(object).as_object();
    value["log"] = log.string();
    std::ofstream(config) << json::serialize(value);
    ::setenv("ITERAGPU_FAKE_POINT_CONFIG", config.c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
  }

  [[nodiscard]] std::size_t measures() const { return lines_starting(read(log), "start "); }
  [[nodiscard]] std::string path(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_command)

BOOST_AUTO_TEST_CASE(a_point_gives_measure_its_flags) {
  const sw::sweep_point p{3, {8, 4096, 8192}, iteragpu::memory::element_type::bfloat16, 1, sw::repeat_setting{}};
  BOOST_TEST(
      cli::measure_flags(p) == (std::vector<std::string>{"--batch", "8", "--context", "4096", "--width", "8192",
                                                         "--dtype", "bfloat16", "--warmup", "1", "--repeats", "auto"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_bad_flag_and_combination_is_refused_naming_the_flag_and_writes_nothing) {
  const auto dir = fs::temp_directory_path() / ("iteragpu-sweep-refusals-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out = (dir / "new").string();
  fs::create_directories(dir / "existing");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--predict-only", "--output-dir", out, "--batch", "8..100"},
       "--batch: '8..100': 100 is not 8 times a power of two; expected comma-separated positive integers or doubling "
       "ranges A..B (B = A x 2^k), e.g. 8,16 or 64..8192"},
      {{"--predict-only", "--output-dir", out, "--context", "16,,32"}, "--context: '16,,32' has an empty item"},
      {{"--predict-only", "--output-dir", out, "--width", "0"}, "--width: '0' is not positive"},
      {{"--predict-only", "--output-dir", out, "--width", "64,64"}, "--width: 64 is given twice"},
      {{"--predict-only", "--output-dir", out, "--dtype", "half"},
       "--dtype: 'half' is not float32, float16 or bfloat16"},
      {{"--predict-only", "--output-dir", out, "--repeats", "0"},
       "--repeats: '0' is not a positive integer up to 10000, or auto"},
      {{"--predict-only", "--output-dir", out, "--warmup", "-1"}, "--warmup: '-1' is not a whole number in digits"},
      // 63 x 63 x 31 = 123,039 points.
      {{"--predict-only", "--output-dir", out, "--batch", "1..4611686018427387904", "--context",
        "1..4611686018427387904", "--width", "1..1073741824"},
       "--batch/--context/--width/--dtype: the lists make more than 100000 points"},
      {{"--output-dir", out}, "--device, --devices or --predict-only is required"},
      {{"--device", "cuda:0", "--devices", "cuda:0,cuda:1", "--output-dir", out},
       "--device and --devices are exclusive"},
      {{"--devices", "cuda:0,cuda:0", "--output-dir", out}, "--devices: 'cuda:0' is given twice"},
      {{"--devices", "cuda:0,gpu1", "--output-dir", out}, "--devices: 'gpu1' in 'cuda:0,gpu1' is not accepted"},
      {{"--device", "cpu", "--output-dir", out}, "--device: 'cpu' is not accepted"},
      {{"--predict-only", "--device", "cuda:0", "--output-dir", out},
       "--device cannot be used with --predict-only: no process runs and no device is used"},
      {{"--device", "cuda:0", "--memory-gib", "80", "--output-dir", out}, "--memory-gib cannot be used with a device"},
      {{"--predict-only", "--memory-gib", "8O", "--output-dir", out}, "--memory-gib: '8O' is not a plain decimal"},
      {{"--predict-only", "--memory-gib", "0", "--output-dir", out}, "--memory-gib: '0' is less than a byte"},
      {{"--predict-only", "--host-memory-gib", "0.0000000001", "--output-dir", out},
       "--host-memory-gib: '0.0000000001' is less than a byte"},
      {{"--plan-only", "--device", "cuda:0", "--output-dir", out}, "--device cannot be used with --plan-only"},
      {{"--plan-only", "--resume", out}, "--plan-only, --run-point and --resume are exclusive"},
      {{"--run-point", "3", "--batch", "8", "--output-dir", out, "--predict-only"},
       "--batch cannot be used with --run-point: the plan is read from the folder's points.tsv"},
      {{"--run-point", "x", "--output-dir", out, "--predict-only"}, "--run-point: 'x' is not a whole number in digits"},
      {{"--run-point", "0", "--devices", "cuda:0,cuda:1", "--output-dir", out},
       "--devices cannot be used with --run-point: one point runs on one device"},
      {{"--resume", out, "--output-dir", out, "--predict-only"}, "--output-dir cannot be used with --resume"},
      {{"--predict-only"}, "--output-dir is required"},
      {{"--predict-only", "--output-dir", (dir / "existing").string()}, "already exists; expected a new folder"},
      {{"--predict-only", "--output-dir", (dir / "missing" / "new").string()}, "does not exist"},
      {{"--predict-only", "--output-dir", out, "extra"}, "unexpected word 'extra'"},
      {{"--predict-only", "--output-dir", out, "--batch", "--width", "8"},
       "--batch needs a value; got the flag --width"},
      {{"--resume", (dir / "existing").string(), "--predict-only"}, "--resume: '"},
      {{"--run-point", "0", "--output-dir", (dir / "existing").string(), "--predict-only"}, "--output-dir: '"},
  };
  for (const auto& [words, message] : cases) {
    const auto o = sweep(words);
    BOOST_TEST(o.exit_code == 2, message);
    BOOST_TEST(o.out.empty(), message);
    BOOST_TEST(is_one_line(o.err), message << ": " << o.err);
    BOOST_TEST(o.err.starts_with("mesure_memoire sweep: "), o.err);
    BOOST_TEST(o.err.find(message) != std::string::npos, "expected '" << message << "' in " << o.err);
    BOOST_TEST(!fs::exists(out), message);
  }
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(help_lists_every_flag) {
  const auto o = sweep({"--help"});
  BOOST_TEST(o.exit_code == 0);
  for (const char* flag : {"--device", "--devices", "--predict-only", "--output-dir", "--batch", "--context", "--width",
                           "--dtype", "--warmup", "--repeats", "--plan-only", "--run-point", "--resume", "--memory-gib",
                           "--host-memory-gib", "--workspace-bytes", "--outside-bytes", "--point-program"}) {
    BOOST_TEST(o.out.find(flag) != std::string::npos, flag);
  }
  BOOST_TEST(collect({"--help"}).out.find("--output-dir") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_record_reads_back_as_written_and_only_for_its_own_point) {
  sw::point_record r;
  r.kind = sw::record_kind::measurement;
  r.point = sw::sweep_point{2, {8, 4096, 8192}, iteragpu::memory::element_type::bfloat16, 1, sw::repeat_setting{}};
  r.device = iteragpu::memory::device_index{1};
  r.outcome = sw::outcome_kind::out_of_memory;
  r.reason = "exit 3: CUDA out of memory";
  r.gpu_name = "NVIDIA H200";
  r.device_free_bytes = 100;
  r.device_total_bytes = 200;
  r.outside_allocator_bytes = 7;
  r.workspaces = {iteragpu::byte_count{5}, iteragpu::byte_count{6}};
  r.prediction = sw::point_prediction{10, 11, {12, 13, 25}, {}};
  r.process = sw::process_figures{3, std::nullopt, "CUDA out of memory", 4.5};
  const auto doc = json::value(sw::files::record_json(r, 10));
  BOOST_TEST(json::serialize(doc.at("files")) ==
             R"({"record":"point-0002.json","measurement":null,"prediction":null})");
  const auto back = sw::files::record_from(doc, r.point);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((back->outcome == r.outcome));
  BOOST_TEST(back->reason == r.reason);
  BOOST_TEST(back->device->value == 1);
  BOOST_TEST(*back->gpu_name == "NVIDIA H200");
  BOOST_TEST(back->prediction->host.total == 25U);
  BOOST_TEST(back->workspaces.cublaslt.value == 6U);
  BOOST_TEST((*back->process == *r.process));
  BOOST_TEST(!back->measured.has_value());
  // Another point of the plan: refused.
  auto other = r.point;
  other.shape.batch = 16;
  BOOST_TEST((sw::files::record_from(doc, other).error().code == sw::files::record_errc::other_point));
  BOOST_TEST((sw::files::record_from(doc, other).error().expected == other));
  BOOST_TEST(iteragpu::report::words_of(sw::files::record_from(doc, other).error()) ==
             "its point is not point 2 of points.tsv (batch 16, context 4096, width 8192, bfloat16)");
  auto newer = doc;
  newer.as_object()["schema_version"] = 2;
  BOOST_TEST(iteragpu::report::words_of(sw::files::record_from(newer, r.point).error()) ==
             "its schema_version (expected 1) is missing or invalid");
}

BOOST_AUTO_TEST_CASE(a_measured_record_reads_back_with_its_timing_intervals) {
  // The figures that summary.csv and the plot take from the records, the
  // confidence interval of each median included.
  sw::point_record r;
  r.kind = sw::record_kind::measurement;
  r.point = sw::sweep_point{0, {8, 4096, 8192}, iteragpu::memory::element_type::bfloat16, 1, sw::repeat_setting{}};
  r.device = iteragpu::memory::device_index{0};
  r.outcome = sw::outcome_kind::measured;
  r.measured = sw::measured_figures{5'940'264'960U,
                                    5'941'231'616U,
                                    718'077'952U,
                                    sw::timing_summary{0.25, 0.125, 0.375},
                                    sw::timing_summary{0.5, std::nullopt, std::nullopt},
                                    1.5,
                                    "NVIDIA H200",
                                    150'109'880'320U};
  r.process = sw::process_figures{0, std::nullopt, std::nullopt, 2.0};
  const auto doc = json::value(sw::files::record_json(r, 10));
  BOOST_TEST(json::serialize(doc.at("measured").at("warm_seconds")) ==
             R"({"median":2.5E-1,"lower":1.25E-1,"upper":3.75E-1})");
  const auto back = sw::files::record_from(doc, r.point);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST_REQUIRE(back->measured.has_value());
  BOOST_TEST_REQUIRE(back->measured->warm_seconds.has_value());
  BOOST_TEST(back->measured->warm_seconds->lower.value_or(-1.0) == 0.125);
  BOOST_TEST(back->measured->warm_seconds->upper.value_or(-1.0) == 0.375);
  BOOST_TEST(!back->measured->warm_gpu_seconds->lower.has_value());
  BOOST_TEST((*back->measured == *r.measured));
}

namespace {

// A measurement file as `measure` writes it, of schema `schema`: the four
// leading rows (model_load 0.5 s, peak 10 allocated / 20 reserved, the
// others 0 s and smaller), then `warm` (JSON rows, comma-separated), with
// `extra` added to the top level.
json::value measurement_doc(int schema, std::size_t repeats, const std::string& warm, const std::string& extra) {
  std::string rows;
  for (const std::string_view name : {"model_load", "inputs", "cold_forward", "warmup"}) {
    const bool first = name == "model_load";
    rows += R"({"phase":")" + std::string(name) + R"(","repeat":null,"seconds":)" + (first ? "0.5" : "0") +
            R"(,"gpu_seconds":)" + (first ? "0.4" : "0") +
            R"(,"baseline_allocated_bytes":0,"baseline_reserved_bytes":0,"end_allocated_bytes":10,)"
            R"("end_reserved_bytes":20,"peak_allocated_bytes":10,"peak_reserved_bytes":20},)";
  }
  return json::parse(R"({"schema_version":)" + std::to_string(schema) +
                     R"(,"configuration":{"device":"cuda:0","batch":1,"context":8,"width":16,"dtype":"float32",)"
                     R"("warmup":1,"repeats":)" +
                     std::to_string(repeats) + "}," + extra + R"("phases":[)" + rows + warm + "]}");
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_measurement_of_schema_1_gives_its_peaks_and_the_median_of_its_rows) {
  // Six warm rows: 1..6 ms host, half of it on the GPU; median 3.5 ms, and
  // for n = 6 the 95 % interval of the median is [X(1), X(6)] = [1, 6] ms.
  std::string rows;
  for (int i = 1; i <= 6; ++i) {
    rows += std::string(i > 1 ? "," : "") + R"({"phase":"warm_forward","repeat":)" + std::to_string(i - 1) +
            R"(,"seconds":)" + std::to_string(i) + "e-3" + R"(,"gpu_seconds":)" + std::to_string(i) + "e-3" +
            R"(,"baseline_allocated_bytes":10,"baseline_reserved_bytes":20,"end_allocated_bytes":30,)"
            R"("end_reserved_bytes":40,"peak_allocated_bytes":)" +
            std::to_string(30 + i) + R"(,"peak_reserved_bytes":50,"end_device_used_bytes":900})";
  }
  auto doc =
      measurement_doc(1, 6, rows, R"("environment":{"device":{"name":"NVIDIA H200","total_memory_bytes":150}},)");
  const auto m = sw::files::measured_from(doc);
  BOOST_TEST_REQUIRE(m.has_value());
  BOOST_TEST(m->peak_allocated_bytes == 36U);
  BOOST_TEST(m->peak_reserved_bytes == 50U);
  // Schema 1 has no device memory: a device-used field there is not read.
  BOOST_TEST(!m->outside_allocator_bytes.has_value());
  BOOST_TEST(m->warm_seconds->median == 0.0035);
  BOOST_TEST(*m->warm_seconds->lower == 0.001);
  BOOST_TEST(*m->warm_seconds->upper == 0.006);
  BOOST_TEST(m->phase_seconds == 0.5 + 0.021, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*m->gpu_name == "NVIDIA H200");
  BOOST_TEST(*m->device_total_bytes == 150U);
  // The figures are compare's reading of the same document.
  const auto run = iteragpu::memory::measurement_from_json(doc);
  BOOST_TEST_REQUIRE(run.has_value());
  BOOST_TEST((sw::files::figures_of(run.value()) == m.value()));
  // A file that compare refuses gives no figures, in compare's words.
  BOOST_TEST(iteragpu::report::describe(sw::files::measured_from(json::parse(R"({"phases":[]})")).error()) ==
             "it has no schema_version; " + iteragpu::report::expected_measurement());
  doc.at("phases").as_array().at(5).as_object().erase("seconds");
  const auto refused = sw::files::measured_from(doc);
  BOOST_TEST_REQUIRE(!refused.has_value());
  const auto* field = refused.error().what.get_if<iteragpu::memory::measurement_field_error>();
  BOOST_TEST_REQUIRE(field != nullptr);
  BOOST_TEST(field->path == "phases[5]");
  BOOST_TEST((field->what == iteragpu::memory::measurement_field_data{
                                 iteragpu::memory::missing_key{"seconds", "a finite number of seconds, 0 or more"}}));
  BOOST_TEST(iteragpu::report::describe(refused.error()) ==
             R"(phases[5] has no "seconds"; expected a finite number of seconds, 0 or more)");
}

BOOST_AUTO_TEST_CASE(a_measurement_of_schema_2_gives_its_statistics_and_the_memory_outside_the_allocator) {
  const auto doc = measurement_doc(
      2, 1,
      R"({"phase":"warm_forward","repeat":0,"seconds":2,"gpu_seconds":1,"baseline_allocated_bytes":100,)"
      R"("baseline_reserved_bytes":200,"end_allocated_bytes":100,"end_reserved_bytes":200,)"
      R"("peak_allocated_bytes":150,"peak_reserved_bytes":250,"baseline_device_used_bytes":500,)"
      R"("end_device_used_bytes":900})",
      R"("environment":{},"statistics":{"warm_forward":{"seconds":{"count":1,"median":0.25,)"
      R"("median_ci":{"lower":0.2,"upper":0.3}},"gpu_seconds":{"count":1,"median":0.125,"median_ci":null}},)"
      R"("repeats_with_gpu_state":0,"repeats_under_throttling":0},)");
  const auto m = sw::files::measured_from(doc);
  BOOST_TEST_REQUIRE(m.has_value());
  // Outside: baseline 500 - 200 and end 900 - 200: the larger, 700.
  BOOST_TEST(*m->outside_allocator_bytes == 700U);
  BOOST_TEST(m->peak_reserved_bytes == 250U);
  BOOST_TEST(m->warm_seconds->median == 0.25);
  BOOST_TEST(*m->warm_seconds->upper == 0.3);
  BOOST_TEST(m->warm_gpu_seconds->median == 0.125);
  BOOST_TEST(!m->warm_gpu_seconds->lower.has_value());
  BOOST_TEST(!m->gpu_name.has_value());
  BOOST_TEST(!m->device_total_bytes.has_value());
}

BOOST_AUTO_TEST_CASE(the_environment_output_gives_the_free_memory_or_why_there_is_none) {
  const auto ok = sw::files::device_from(json::parse(
      R"({"device":{"name":"NVIDIA H200","free_memory_bytes":100,"total_memory_bytes":150,"reason":null}})"));
  BOOST_TEST_REQUIRE(ok.has_value());
  BOOST_TEST(*ok->free_bytes == 100U);
  BOOST_TEST(*ok->gpu_name == "NVIDIA H200");
  const auto no_torch = sw::files::device_from(
      json::parse(R"({"device":{"free_memory_bytes":null,"reason":"this build has no LibTorch\n"}})"));
  BOOST_TEST_REQUIRE(!no_torch.has_value());
  BOOST_TEST(*no_torch.error().reason == "this build has no LibTorch\n");
  BOOST_TEST(iteragpu::report::words_of(no_torch.error()) == "this build has no LibTorch\\x0A");
  BOOST_TEST(iteragpu::report::words_of(sw::files::device_from(json::parse("[]")).error()) ==
             "it reports no free memory");
}

BOOST_FIXTURE_TEST_CASE(a_sweep_runs_each_point_as_a_fresh_process_and_writes_its_report, scratch_fixture) {
  configure(R"({"gpu_names": {"cuda:0": "Fake A"}, "schema": 2})");
  const auto o = sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("run"), "--batch",
                        "1..4", "--width", "64,128", "--repeats", "auto"});
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(o.out.find("planned 6 points in") != std::string::npos);
  BOOST_TEST(o.out.find("points: measured 6, without a result 0") != std::string::npos);
  BOOST_TEST(lines_starting(o.err, "sweep: [") == 6U);
  BOOST_TEST(measures() == 6U);
  // Six different processes, each started and ended before the next.
  std::istringstream events(read(log));
  std::vector<std::string> pids;
  for (std::string what, pid, rest; events >> what >> pid && std::getline(events, rest);) {
    if (what == "start") {
      BOOST_TEST((std::find(pids.begin(), pids.end(), pid) == pids.end()));
      pids.push_back(pid);
    }
  }
  for (const char* name : {"points.tsv", "summary.csv", "plot.svg", "index.html", "point-0000.json",
                           "point-0000.measurement.json", "point-0005.json"}) {
    BOOST_TEST(fs::exists(dir / "run" / name), name);
  }
  const auto record = json::parse(read(dir / "run" / "point-0005.json"));
  BOOST_TEST(record.at("outcome").as_string() == "measured");
  BOOST_TEST(record.at("point").at("repeats").as_string() == "auto");
  BOOST_TEST(record.at("measured").at("warm_seconds").at("median").as_double() == 0.0042);
  BOOST_TEST(record.at("gpu_name").as_string() == "Fake A");
  BOOST_TEST(record.at("process").at("wall_seconds").as_double() > 0.0);
  // No partial file is left anywhere.
  for (const auto& e : fs::directory_iterator(dir / "run")) {
    BOOST_TEST(!e.path().filename().string().ends_with(".partial"));
  }
}

BOOST_FIXTURE_TEST_CASE(a_device_that_cannot_be_measured_refuses_the_sweep_before_any_file, scratch_fixture) {
  configure(R"({"unavailable": true})");
  const auto o = sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("run")});
  BOOST_TEST(o.exit_code == 2);
  BOOST_TEST(is_one_line(o.err));
  BOOST_TEST(o.err == "mesure_memoire sweep: --device: cuda:0 cannot be measured: fake: no GPU here; nothing was run "
                      "(--predict-only plans without a GPU)\n");
  BOOST_TEST(!fs::exists(dir / "run"));
  // Given with --devices, the message names that flag.
  const auto listed =
      sweep({"--devices", "cuda:0,cuda:1", "--point-program", fake_program, "--output-dir", path("run")});
  BOOST_TEST(listed.exit_code == 2);
  BOOST_TEST(listed.err.starts_with("mesure_memoire sweep: --devices: cuda:0 cannot be measured: fake: no GPU here;"),
             listed.err);
  BOOST_TEST(!fs::exists(dir / "run"));
}

BOOST_FIXTURE_TEST_CASE(an_exit_3_is_recorded_and_the_larger_points_skipped, scratch_fixture) {
  // Activations batch x 16 x 64 x 4 x 4 bytes: 16,384 per batch; above 40,000 (batch 4) the stand-in exits 3.
  configure(R"({"oom_above_bytes": 40000, "fail_batch": 2})");
  const auto o =
      sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("run"), "--batch", "1..16"});
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(o.out.find("points: failed 1, measured 1, out_of_memory 1, skipped_after_failure 2,") != std::string::npos,
             o.out);
  BOOST_TEST(measures() == 3U);
  const auto failed = json::parse(read(dir / "run" / "point-0001.json"));
  BOOST_TEST(failed.at("reason").as_string() == "exit 1: mesure_memoire measure: fake failure\\x09for this batch");
  const auto oom = json::parse(read(dir / "run" / "point-0002.json"));
  BOOST_TEST(oom.at("outcome").as_string() == "out_of_memory");
  BOOST_TEST(oom.at("process").at("stderr").as_string().starts_with("mesure_memoire measure: failed during phase"));
  const std::string csv = read(dir / "run" / "summary.csv");
  // The reason holds commas: quoted.
  BOOST_TEST(csv.find(",skipped_after_failure,\"skipped: point 2 (batch 4, context 16, width 64, float32) ended with "
                      "out_of_memory") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(resume_runs_only_the_points_without_a_result, scratch_fixture) {
  BOOST_TEST(
      sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("run"), "--batch", "1..8"})
          .exit_code == 0);
  // A finished sweep: nothing to run, the report stays.
  auto again = sweep({"--resume", path("run"), "--device", "cuda:0", "--point-program", fake_program});
  BOOST_TEST(again.exit_code == 0);
  BOOST_TEST(again.out.find("the report is already in") != std::string::npos);
  BOOST_TEST(measures() == 4U);
  // Two results removed (a record with its measurement, and the report):
  // resume measures those two points and writes the report again.
  for (const char* name : {"point-0001.json", "point-0001.measurement.json", "point-0003.json",
                           "point-0003.measurement.json", "summary.csv", "plot.svg", "index.html"}) {
    fs::remove(dir / "run" / name);
  }
  again = sweep({"--resume", path("run"), "--device", "cuda:0", "--point-program", fake_program});
  BOOST_TEST(again.exit_code == 0, again.err);
  BOOST_TEST(measures() == 6U);
  BOOST_TEST(lines_starting(again.err, "sweep: [") == 2U);
  BOOST_TEST(again.err.find("sweep: [1/2] point 1 ") != std::string::npos);
  BOOST_TEST(fs::exists(dir / "run" / "summary.csv"));
  // A predictions' resume of a folder of measurements is refused.
  const auto mixed = sweep({"--resume", path("run"), "--predict-only"});
  BOOST_TEST(mixed.exit_code == 2);
  BOOST_TEST(mixed.err.find("its records are measurements; resume it with --device") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(a_measurement_left_without_its_record_is_adopted_not_measured_again, scratch_fixture) {
  BOOST_TEST(
      sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("run"), "--batch", "1,2"})
          .exit_code == 0);
  fs::remove(dir / "run" / "point-0000.json");
  fs::remove(dir / "run" / "summary.csv");
  fs::remove(dir / "run" / "plot.svg");
  fs::remove(dir / "run" / "index.html");
  const auto o = sweep({"--resume", path("run"), "--device", "cuda:0", "--point-program", fake_program});
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(measures() == 2U);
  const auto record = json::parse(read(dir / "run" / "point-0000.json"));
  BOOST_TEST(record.at("outcome").as_string() == "measured");
  BOOST_TEST(record.at("process").is_null());
}

BOOST_FIXTURE_TEST_CASE(a_plan_of_one_point_says_one_point, scratch_fixture) {
  const auto planned = sweep({"--plan-only", "--output-dir", path("one")});
  BOOST_TEST(planned.exit_code == 0);
  BOOST_TEST(planned.out == "planned 1 point in " + path("one") + "/points.tsv\n");
}

BOOST_FIXTURE_TEST_CASE(run_point_runs_one_point_once_and_leaves_a_done_point_alone, scratch_fixture) {
  const auto planned =
      sweep({"--plan-only", "--output-dir", path("plan"), "--batch", "1..4", "--dtype", "float16,float32"});
  BOOST_TEST(planned.exit_code == 0);
  BOOST_TEST(planned.out == "planned 6 points in " + path("plan") + "/points.tsv\n");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir / "plan")) {
    files.push_back(e.path().filename().string());
  }
  BOOST_TEST(files == (std::vector<std::string>{"points.tsv"}), boost::test_tools::per_element());
  const std::vector<std::string> run{"--run-point", "4",      "--output-dir",    path("plan"),
                                     "--device",    "cuda:0", "--point-program", fake_program};
  auto o = sweep(run);
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(o.out.starts_with("point 4: measured, peak reserved "));
  BOOST_TEST(measures() == 1U);
  const auto record = json::parse(read(dir / "plan" / "point-0004.json"));
  BOOST_TEST(record.at("point").at("batch").as_int64() == 2);
  BOOST_TEST(record.at("point").at("dtype").as_string() == "float32");
  o = sweep(run);
  BOOST_TEST(o.exit_code == 0);
  BOOST_TEST(o.out == "point 4 already has its result (measured); left alone\n");
  BOOST_TEST(measures() == 1U);
  BOOST_TEST(!fs::exists(dir / "plan" / "summary.csv"));  // collect makes the report
  o = sweep({"--run-point", "6", "--output-dir", path("plan"), "--device", "cuda:0", "--point-program", fake_program});
  BOOST_TEST(o.exit_code == 2);
  BOOST_TEST(o.err == "mesure_memoire sweep: --run-point: 6 is past the plan's last point 5; expected 0 to 5\n");
}

BOOST_FIXTURE_TEST_CASE(predictions_resume_with_their_prediction_file_kept_when_identical, scratch_fixture) {
  BOOST_TEST(sweep({"--predict-only", "--output-dir", path("plan"), "--batch", "8..64", "--context", "4096", "--width",
                    "8192", "--dtype", "bfloat16", "--memory-gib", "40"})
                 .exit_code == 0);
  const std::string prediction = read(dir / "plan" / "point-0000.prediction.json");
  for (const char* name : {"point-0000.json", "summary.csv", "plot.svg", "index.html"}) {
    fs::remove(dir / "plan" / name);
  }
  const auto o = sweep({"--resume", path("plan"), "--predict-only", "--memory-gib", "40"});
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(read(dir / "plan" / "point-0000.prediction.json") == prediction);
  const auto p = json::parse(prediction);
  BOOST_TEST(p.at("kind").as_string() == "prediction");
  BOOST_TEST(p.at("phases").as_array().size() == 6U);
  // The H200 reference: cold_forward peak reserved 5,941,231,616 (issue "Explainable memory").
  BOOST_TEST(p.at("phases").at(2).at("peak_reserved_bytes").as_int64() == 5'941'231'616);
  // 40 GiB = 42,949,672,960 bytes: batch 64 needs 39,764,099,072 + 718,077,952 = 40,482,177,024: fits.
  const auto last = json::parse(read(dir / "plan" / "point-0003.json"));
  BOOST_TEST(last.at("outcome").as_string() == "predicted");
  BOOST_TEST(last.at("device_free_bytes").as_int64() == 42'949'672'960);
}

BOOST_FIXTURE_TEST_CASE(collect_merges_two_folders_into_one_series_per_gpu, scratch_fixture) {
  configure(R"({"gpu_names": {"cuda:0": "Fake A", "cuda:1": "Fake B"}})");
  BOOST_TEST(
      sweep({"--device", "cuda:0", "--point-program", fake_program, "--output-dir", path("a"), "--width", "64..256"})
          .exit_code == 0);
  BOOST_TEST(sweep({"--plan-only", "--output-dir", path("b"), "--width", "64..256"}).exit_code == 0);
  for (const char* index : {"0", "2"}) {
    BOOST_TEST(
        sweep({"--run-point", index, "--output-dir", path("b"), "--device", "cuda:1", "--point-program", fake_program})
            .exit_code == 0);
  }
  const auto o = collect({path("a"), path("b"), "--output-dir", path("merged")});
  BOOST_TEST(o.exit_code == 0, o.err);
  BOOST_TEST(o.err == "mesure_memoire collect: 1 of 3 points of '" + path("b") + "' have no result yet (1)\n");
  BOOST_TEST(o.out == "wrote " + path("merged") + "/summary.csv\nwrote " + path("merged") + "/plot.svg\nwrote " +
                          path("merged") + "/index.html\n");
  const std::string csv = read(dir / "merged" / "summary.csv");
  BOOST_TEST(lines_starting(csv, "a,") == 3U);
  BOOST_TEST(lines_starting(csv, "b,") == 3U);
  BOOST_TEST(csv.find("\nb,1,,no_result,") != std::string::npos);
  BOOST_TEST(csv.find(",Fake B,cuda:1,") != std::string::npos);
  const std::string svg = read(dir / "merged" / "plot.svg");
  BOOST_TEST(svg.find("GPUs: Fake A; Fake B") != std::string::npos);
  BOOST_TEST(svg.find(">Fake A</text>") != std::string::npos);
  BOOST_TEST(svg.find(">Fake B</text>") != std::string::npos);
  // The output folder is new, and each folder must be a sweep's.
  BOOST_TEST(collect({path("a"), "--output-dir", path("merged")}).exit_code == 2);
  const auto bad = collect({path("missing"), "--output-dir", path("other")});
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.err.find("points.tsv") != std::string::npos);
  BOOST_TEST(collect({"--output-dir", path("other")}).err.find("no sweep folder given") != std::string::npos);
  BOOST_TEST(!fs::exists(dir / "other"));
}

BOOST_AUTO_TEST_SUITE_END()
