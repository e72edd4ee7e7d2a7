// The environment/measure commands of a build that cannot reach a GPU.
#include <array>
#include <atomic>
#include <cerrno>
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
#include <iteragpu/io.hpp>

#include "run_command.hpp"
#include "scratch_folder.hpp"

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

}  // namespace

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
  for (const char* key : {"library", "compiler", "cxx_standard", "libtorch", "cuda_build", "hip_build", "gpus",
                          "device", "management", "notes"}) {
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
  {
    std::ofstream(dir.path / "taken.json") << "kept";
  }
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
  const std::vector<std::string> full{"--device=cuda:0",  "--batch=8",  "--context=4096", "--width=8192",
                                      "--dtype=bfloat16", "--warmup=0", "--repeats=5",    "--output=" + out};
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
  const std::vector<std::string> words{"--device", "cuda:0",      "--torchscript", model,
                                       "--input",  "8x512:int64", "--output",      (dir.path / "m.json").string()};
  auto o = cli::parse_measure_options(cli::parse_arguments(cli::measure_description(), words));
  BOOST_REQUIRE(o.torchscript.has_value());
  BOOST_TEST(o.torchscript->file_name == "layout-only.pt");
  BOOST_TEST(o.torchscript->sha256.empty());
  cli::hash_model_file(*o.torchscript);
  BOOST_TEST(o.torchscript->sha256 == "248294f38b3de4aaa6711238177ec25057b5131e1f77d5f0c2ee9ae110f9309b");
}

BOOST_AUTO_TEST_SUITE_END()
