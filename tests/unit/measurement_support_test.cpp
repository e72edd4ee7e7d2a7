// Device names, the synthetic model's arithmetic, the new-file writer and the
// environment/measure commands of a build that cannot reach a GPU.
#include <array>
#include <cerrno>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cli/gpu_commands.hpp>
#include <iteragpu/memory/device.hpp>
#include <iteragpu/io.hpp>
#include <iteragpu/report/new_file.hpp>
#include <iteragpu/memory/synthetic_model.hpp>
#include <iteragpu/torch/allocator_stats.hpp>

#include "run_command.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// The commands of a build without LibTorch, as the program's main runs them.
int measure_without_libtorch(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
  return iteragpu::cli::run_measure(runtime, args, out, err);
}
int environment_without_libtorch(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
  return iteragpu::cli::run_environment(runtime, args, out, err);
}

// A fresh empty folder per test, removed afterwards.
struct scratch_folder {
  fs::path path;
  scratch_folder()
      : path(fs::temp_directory_path() /
             ("iteragpu-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  static std::atomic<int>& counter() {
    static std::atomic<int> n{0};
    return n;
  }
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator{}));
  }
};

std::string read_file(const fs::path& p) { return iteragpu::read_whole_file(p).value(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(devices)

BOOST_AUTO_TEST_CASE(only_cuda_colon_index_is_a_device) {
  BOOST_TEST(iteragpu::memory::parse_device("cuda:0").value().value == 0);
  BOOST_TEST(iteragpu::memory::parse_device("cuda:7").value().value == 7);
  BOOST_TEST(iteragpu::memory::parse_device("cuda:127").value().value == 127);
  for (const char* bad : {"cpu", "cuda", "cuda:", "cuda:-1", "cuda:+1", "cuda:1x", "cuda: 1", "CUDA:0", "cuda:128",
                          "cuda:99999999999999999999", "hip:0", "mps", ""}) {
    BOOST_TEST(!iteragpu::memory::parse_device(bad).has_value(), bad);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(allocator_statistics)

// The shape of LibTorch's DeviceStats: StatArrays of {current, peak} whose
// index 0 is the aggregate over pool types.
struct fake_stat {
  std::int64_t current{0};
  std::int64_t peak{0};
};
struct fake_device_stats {
  std::array<fake_stat, 3> allocated_bytes;
  std::array<fake_stat, 3> reserved_bytes;
};

BOOST_AUTO_TEST_CASE(a_reading_takes_the_aggregate_entry_of_allocated_and_reserved) {
  fake_device_stats stats;
  stats.allocated_bytes = {fake_stat{1'645'297'664, 5'940'264'960}, fake_stat{1, 2}, fake_stat{3, 4}};
  stats.reserved_bytes = {fake_stat{5'941'231'616, 5'941'231'616}, fake_stat{5, 6}, fake_stat{7, 8}};
  const auto r = iteragpu::torch_adapter::reading_from(stats);
  BOOST_TEST(r.allocated_bytes == 1'645'297'664U);
  BOOST_TEST(r.peak_allocated_bytes == 5'940'264'960U);
  BOOST_TEST(r.reserved_bytes == 5'941'231'616U);
  BOOST_TEST(r.peak_reserved_bytes == 5'941'231'616U);
}

BOOST_AUTO_TEST_CASE(a_negative_counter_is_an_error_not_a_huge_number) {
  fake_device_stats stats;
  stats.allocated_bytes[0] = fake_stat{-1, 0};
  BOOST_CHECK_THROW(static_cast<void>(iteragpu::torch_adapter::reading_from(stats)), std::range_error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(synthetic_model_arithmetic)

BOOST_AUTO_TEST_CASE(parameters_are_two_matrices_and_two_biases) {
  const auto m = iteragpu::memory::summarize_model({1, 16, 64}, iteragpu::memory::element_type::float32).value();
  BOOST_TEST(m.hidden == 256U);
  BOOST_TEST(m.parameters == 2U * 64U * 256U + 256U + 64U);
  BOOST_TEST(m.parameter_bytes == m.parameters * 4U);
  BOOST_TEST(m.input_elements == 1024U);
  BOOST_TEST(m.layers[0] == "Linear(64 -> 256)");
  BOOST_TEST(m.layers[1] == "GELU");
  BOOST_TEST(m.layers[2] == "Linear(256 -> 64)");
  // The reference figure of the 8x4096x8192 configuration: 536,911,872 parameters.
  BOOST_TEST(iteragpu::memory::summarize_model({8, 4096, 8192}, iteragpu::memory::element_type::bfloat16).value().parameters ==
             536'911'872U);
}

BOOST_AUTO_TEST_CASE(counts_past_what_libtorch_indexes_are_refused) {
  BOOST_TEST(!iteragpu::memory::summarize_model({1, 1, UINT64_MAX / 4 + 1}, iteragpu::memory::element_type::float32).has_value());
  BOOST_TEST(!iteragpu::memory::summarize_model({1, 1, std::uint64_t{1} << 31U}, iteragpu::memory::element_type::float32).has_value());
  BOOST_TEST(!iteragpu::memory::summarize_model({std::uint64_t{1} << 40U, std::uint64_t{1} << 20U, 64}, iteragpu::memory::element_type::float32).has_value());
  BOOST_TEST(iteragpu::memory::summarize_model({std::uint64_t{1} << 20U, std::uint64_t{1} << 10U, 64}, iteragpu::memory::element_type::float32).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(new_file_writer)

BOOST_AUTO_TEST_CASE(writes_the_whole_content_and_leaves_no_temporary) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  BOOST_TEST(iteragpu::write_new_file(file, "{\"a\":1}\n").has_value());
  BOOST_TEST(read_file(file) == "{\"a\":1}\n");
  BOOST_TEST(dir.entries() == 1U);
}

// A problem carries its figures; the report layer words it, naming the file.
BOOST_AUTO_TEST_CASE(new_file_problems_are_worded_from_their_figures) {
  using iteragpu::new_file_error;
  using iteragpu::new_file_problem;
  using iteragpu::new_file_step;
  using iteragpu::report::describe;
  BOOST_TEST(describe(new_file_problem{.kind = new_file_error::folder_missing, .file = "/no/such/r.json"}) ==
             "folder '/no/such' does not exist; expected an existing folder");
  BOOST_TEST(describe(new_file_problem{.kind = new_file_error::not_a_folder, .file = "plain/r.json"}) ==
             "'plain' is not a folder");
  BOOST_TEST(describe(new_file_problem{.kind = new_file_error::is_empty_name, .file = "out/"}) ==
             "'out/' names no file; expected a path to a new file");
  BOOST_TEST(describe(new_file_problem{
                 .kind = new_file_error::name_too_long, .file = "d/n.json", .name_bytes = 300, .longest_name = 255}) ==
             "the file name of 'd/n.json' has 300 bytes; expected at most 255 on that file system");
  BOOST_TEST(describe(new_file_problem{
                 .kind = new_file_error::system_error, .file = "r.json", .step = new_file_step::flushing, .error = ENOSPC}) ==
             "cannot write 'r.json': flushing to disk: No space left on device");
  BOOST_TEST(describe(new_file_problem{.kind = new_file_error::name_taken, .file = "r.json", .kept = "r.kept-7-1.json"}) ==
             "'r.json' was taken by another process while this one worked; the result is kept as 'r.kept-7-1.json'");
}

BOOST_AUTO_TEST_CASE(never_replaces_an_existing_file) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  { std::ofstream(file) << "precious"; }
  const auto written = iteragpu::write_new_file(file, "new content");
  BOOST_REQUIRE(!written.has_value());
  BOOST_TEST((written.error().kind == iteragpu::new_file_error::already_exists));
  BOOST_TEST((written.error().file == file));
  BOOST_TEST(iteragpu::report::describe(written.error()) ==
             "'" + file.string() + "' already exists; expected a new file name (nothing is overwritten)");
  BOOST_TEST(read_file(file) == "precious");
  BOOST_TEST(dir.entries() == 1U);
}

BOOST_AUTO_TEST_CASE(refuses_a_missing_folder_a_file_as_folder_and_a_folder_as_file) {
  const scratch_folder dir;
  const auto kind_of = [](const fs::path& file) {
    const auto written = iteragpu::write_new_file(file, "x");
    BOOST_REQUIRE(!written.has_value());
    return written.error().kind;
  };
  BOOST_TEST((kind_of(dir.path / "missing" / "result.json") == iteragpu::new_file_error::folder_missing));
  { std::ofstream(dir.path / "plain") << "x"; }
  BOOST_TEST((kind_of(dir.path / "plain" / "result.json") == iteragpu::new_file_error::not_a_folder));
  fs::create_directory(dir.path / "sub");
  BOOST_TEST((kind_of(dir.path / "sub") == iteragpu::new_file_error::already_exists));
  BOOST_TEST((kind_of(dir.path / "") == iteragpu::new_file_error::is_empty_name));
  BOOST_TEST(dir.entries() == 2U);
}

BOOST_AUTO_TEST_CASE(a_dangling_symlink_counts_as_an_existing_name) {
  const scratch_folder dir;
  fs::create_symlink(dir.path / "nowhere", dir.path / "link.json");
  const auto written = iteragpu::write_new_file(dir.path / "link.json", "x");
  BOOST_TEST((!written && written.error().kind == iteragpu::new_file_error::already_exists));
  BOOST_TEST(!fs::exists(dir.path / "nowhere"));
}

BOOST_AUTO_TEST_CASE(of_racing_writers_exactly_one_wins_and_no_result_is_lost) {
  const scratch_folder dir;
  const auto file = dir.path / "race.json";
  constexpr int writers = 8;
  std::atomic<int> won{0};
  std::atomic<int> refused_before_work{0};
  std::vector<std::thread> threads;
  std::vector<iteragpu::new_file_problem> kept(writers);
  threads.reserve(writers);
  for (int i = 0; i < writers; ++i) {
    threads.emplace_back([&, i] {
      const std::string content(100000, static_cast<char>('a' + i));
      auto written = iteragpu::write_new_file(file, content);
      if (written) {
        ++won;
      } else if (written.error().kind == iteragpu::new_file_error::already_exists) {
        ++refused_before_work;
      } else {
        kept[static_cast<std::size_t>(i)] = std::move(written).error();
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  BOOST_TEST(won.load() == 1);
  const auto content = read_file(file);
  BOOST_REQUIRE_EQUAL(content.size(), 100000U);
  BOOST_TEST(content.find_first_not_of(content.front()) == std::string::npos);
  // Every writer that lost at the last step kept its whole result beside the name.
  std::size_t kept_files = 0;
  for (int i = 0; i < writers; ++i) {
    const auto& problem = kept[static_cast<std::size_t>(i)];
    if (problem.kept.empty()) {
      continue;
    }
    ++kept_files;
    BOOST_TEST((problem.kind == iteragpu::new_file_error::name_taken));
    BOOST_TEST(read_file(problem.kept) == std::string(100000, static_cast<char>('a' + i)));
  }
  BOOST_TEST(kept_files + 1U + static_cast<std::size_t>(refused_before_work.load()) == static_cast<std::size_t>(writers));
  BOOST_TEST(dir.entries() == 1U + kept_files);
}

BOOST_AUTO_TEST_CASE(a_name_taken_while_working_keeps_the_result_under_a_new_name) {
  const scratch_folder dir;
  const auto file = dir.path / "result.json";
  auto reserved = iteragpu::new_file::reserve(file);
  BOOST_REQUIRE(reserved.has_value());
  { std::ofstream(file) << "another process's"; }
  const auto written = std::move(*reserved).commit("the finished result");
  BOOST_REQUIRE(!written.has_value());
  const auto& problem = written.error();
  BOOST_TEST((problem.kind == iteragpu::new_file_error::name_taken));
  BOOST_TEST(read_file(file) == "another process's");
  BOOST_TEST(problem.kept.parent_path() == dir.path);
  BOOST_TEST(problem.kept.filename().string().starts_with("result.kept-"));
  BOOST_TEST(problem.kept.extension() == ".json");
  BOOST_TEST(read_file(problem.kept) == "the finished result");
  const std::string words = iteragpu::report::describe(problem);
  BOOST_TEST(words.find("is kept as '" + problem.kept.string() + "'") != std::string::npos, words);
  BOOST_TEST(dir.entries() == 2U);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gpu_commands_without_a_gpu)

BOOST_AUTO_TEST_CASE(measure_without_libtorch_exits_2_and_writes_nothing) {
  const scratch_folder dir;
  const auto out = (dir.path / "mesures.json").string();
  const auto r = run_command(measure_without_libtorch,
                             {"--device", "cuda:0", "--batch", "1", "--context", "16", "--width", "64", "--dtype",
                              "float32", "--warmup", "1", "--repeats", "2", "--output", out.c_str()});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(is_one_line(r.err), r.err);
  BOOST_TEST(r.err.find("no LibTorch") != std::string::npos, r.err);
  BOOST_TEST(dir.entries() == 0U);
}

BOOST_AUTO_TEST_CASE(environment_without_libtorch_is_a_valid_report_saying_why) {
  const auto r = run_command(environment_without_libtorch, {"--device", "cuda:1"});
  BOOST_TEST(r.exit_code == 0);
  const auto v = json::parse(r.out).as_object();
  for (const char* key : {"library", "compiler", "cxx_standard", "libtorch", "cuda_build", "hip_build", "gpus", "device",
                          "management", "notes"}) {
    BOOST_TEST(v.contains(key), key);
  }
  BOOST_TEST(v.size() == 10U);
  // Without a GPU runtime there is no backend to ask NVML: no management report.
  BOOST_TEST(v.at("management").is_null());
  BOOST_TEST(v.at("library").at("name").as_string() == "iteragpu");
  BOOST_TEST(v.at("cxx_standard").as_int64() == 202002);
  BOOST_TEST(v.at("libtorch").at("available").as_bool() == false);
  BOOST_TEST(v.at("libtorch").at("version").is_null());
  BOOST_TEST(v.at("gpus").as_array().empty());
  const auto& device = v.at("device").as_object();
  BOOST_TEST(device.at("requested").as_string() == "cuda:1");
  BOOST_TEST(device.at("available").as_bool() == false);
  BOOST_TEST(std::string(device.at("reason").as_string()).find("no LibTorch") != std::string::npos);
  BOOST_TEST(std::string(v.at("notes").at(0).as_string()).find("not the driver version") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(environment_writes_a_new_file_only) {
  const scratch_folder dir;
  const auto out = (dir.path / "env.json").string();
  auto r = run_command(environment_without_libtorch, {"--output", out.c_str()});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.empty());
  const auto first = read_file(out);
  BOOST_TEST(json::parse(first).at("device").at("requested").as_string() == "cuda:0");
  r = run_command(environment_without_libtorch, {"--output", out.c_str()});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(is_one_line(r.err), r.err);
  BOOST_TEST(read_file(out) == first);
}

BOOST_AUTO_TEST_CASE(environment_refuses_a_malformed_device) {
  for (const char* bad : {"cpu", "cuda", "cuda:-1", "gpu0"}) {
    const auto r = run_command(environment_without_libtorch, {"--device", bad});
    BOOST_TEST(r.exit_code == 2, bad);
    BOOST_TEST(r.out.empty());
    BOOST_TEST(r.err.find("--device") != std::string::npos, r.err);
  }
}

struct measure_case {
  std::vector<std::string> args;
  const char* must_name;
};

BOOST_AUTO_TEST_CASE(measure_bad_flags_exit_2_naming_the_flag_and_write_nothing) {
  const scratch_folder dir;
  const auto out = (dir.path / "m.json").string();
  { std::ofstream(dir.path / "taken.json") << "kept"; }
  const auto taken = (dir.path / "taken.json").string();
  const auto missing_dir = (dir.path / "no" / "m.json").string();
  const std::vector<measure_case> cases{
      {{"--output", out}, "--device"},
      {{"--device", "cuda:0"}, "--output"},
      {{"--device", "cpu", "--output", out}, "--device"},
      {{"--device", "cuda", "--output", out}, "--device"},
      {{"--device", "cuda:0", "--output", taken}, "already exists"},
      {{"--device", "cuda:0", "--output", missing_dir}, "does not exist"},
      {{"--device", "cuda:0", "--output", dir.path.string()}, "already exists"},
      {{"--device", "cuda:0", "--batch", "0", "--output", out}, "--batch"},
      {{"--device", "cuda:0", "--context", "-4", "--output", out}, "--context"},
      {{"--device", "cuda:0", "--width", "64.0", "--output", out}, "--width"},
      {{"--device", "cuda:0", "--width=", "--output", out}, "--width"},
      {{"--device", "cuda:0", "--dtype", "float64", "--output", out}, "--dtype"},
      {{"--device", "cuda:0", "--dtype", "fp16", "--output", out}, "--dtype"},
      {{"--device", "cuda:0", "--warmup", "-1", "--output", out}, "--warmup"},
      {{"--device", "cuda:0", "--repeats", "0", "--output", out}, "--repeats"},
      {{"--device", "cuda:0", "--repeats", "18446744073709551616", "--output", out}, "--repeats"},
      {{"--device", "cuda:0", "--batch", "1", "--batch", "2", "--output", out}, "--batch"},
      {{"--device", "cuda:0", "--width", "4294967296", "--output", out}, "--width"},
      {{"--device", "cuda:0", "--seed", "3", "--output", out}, "--seed"},
      {{"--device", "cuda:0", "--output", out, "stray"}, "stray"},
  };
  for (const auto& c : cases) {
    std::ostringstream sout;
    std::ostringstream serr;
    const int code = measure_without_libtorch(c.args, sout, serr);
    BOOST_TEST(code == 2, c.must_name);
    BOOST_TEST(sout.str().empty(), c.must_name);
    BOOST_TEST(is_one_line(serr.str()), serr.str());
    BOOST_TEST(serr.str().find(c.must_name) != std::string::npos, serr.str());
  }
  BOOST_TEST(read_file(taken) == "kept");
  BOOST_TEST(dir.entries() == 1U);
}

BOOST_AUTO_TEST_CASE(measure_options_take_the_seed_defaults_and_every_flag) {
  namespace cli = iteragpu::cli;
  const scratch_folder dir;
  const auto out = (dir.path / "m.json").string();
  const std::vector<std::string> minimal{"--device", "cuda:2", "--output", out};
  auto o = cli::parse_measure_options(cli::parse_arguments(cli::measure_description(), minimal));
  BOOST_TEST(o.run.device.value == 2);
  BOOST_TEST(o.run.shape.batch == 1U);
  BOOST_TEST(o.run.shape.context == 16U);
  BOOST_TEST(o.run.shape.width == 64U);
  BOOST_TEST((o.run.dtype == iteragpu::memory::element_type::float32));
  BOOST_TEST(o.run.plan.warmup == 1U);
  BOOST_TEST(o.run.plan.repeats == 2U);
  const std::vector<std::string> full{"--device=cuda:0", "--batch=8",  "--context=4096", "--width=8192", "--dtype=bfloat16",
                                      "--warmup=0",      "--repeats=5", "--output=" + out};
  o = cli::parse_measure_options(cli::parse_arguments(cli::measure_description(), full));
  BOOST_TEST(o.run.shape.batch == 8U);
  BOOST_TEST(o.run.shape.context == 4096U);
  BOOST_TEST(o.run.shape.width == 8192U);
  BOOST_TEST((o.run.dtype == iteragpu::memory::element_type::bfloat16));
  BOOST_TEST(o.run.plan.warmup == 0U);
  BOOST_TEST(o.run.plan.repeats == 5U);
  BOOST_TEST(o.output == out);
}

BOOST_AUTO_TEST_CASE(measure_options_check_a_model_file_without_hashing_it) {
  // Hashing a model of gigabytes takes seconds: it waits until the device
  // has been found and the module measured.
  namespace cli = iteragpu::cli;
  const scratch_folder dir;
  const std::string model = ITERAGPU_TEST_SOURCE_DIR "/data/torchscript/layout-only.pt";
  const std::vector<std::string> words{"--device", "cuda:0", "--torchscript", model, "--input", "8x512:int64",
                                       "--output", (dir.path / "m.json").string()};
  auto o = cli::parse_measure_options(cli::parse_arguments(cli::measure_description(), words));
  BOOST_REQUIRE(o.torchscript.has_value());
  BOOST_TEST(o.torchscript->file_name == "layout-only.pt");
  BOOST_TEST(o.torchscript->sha256.empty());
  cli::hash_model_file(*o.torchscript);
  BOOST_TEST(o.torchscript->sha256 == "248294f38b3de4aaa6711238177ec25057b5131e1f77d5f0c2ee9ae110f9309b");
}

BOOST_AUTO_TEST_SUITE_END()
