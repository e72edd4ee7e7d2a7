// `mesure_memoire measure --torchscript` on a machine whose LibTorch has the
// CPU only: the command line's checks before any GPU (a missing file, a file
// that is no archive, a bad spec, flags of the synthetic network), the cheap
// checks of a saved module and its digest, and a module that passes them
// meeting the missing GPU. The command line and LibTorch together, so apart
// from the library's tests (tests/unit/torch/).
#pragma GCC diagnostic ignored "-Wnull-dereference"  // LibTorch's headers, as in tests/unit/torch/

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <torch/torch.h>

#include <cli/gpu_commands.hpp>
#include <iteragpu/io.hpp>
#include <iteragpu/memory/sha256.hpp>
#include <iteragpu/memory/torchscript_measurement.hpp>
#include <iteragpu/torch/runtime.hpp>

#include "torch/saved_module.hpp"

namespace ta = iteragpu::torch_adapter;
namespace mem = iteragpu::memory;

namespace {

using iteragpu_tests::linear_source;
using iteragpu_tests::saved_module;
using iteragpu_tests::scratch;

int command(const std::vector<std::string>& args, std::string& err_text) {
  auto runtime = ta::open_libtorch_runtime();
  std::ostringstream out;
  std::ostringstream err;
  const int code = iteragpu::cli::run_measure(runtime, args, out, err);
  err_text = err.str();
  BOOST_TEST(out.str().empty());
  return code;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measure_torchscript_command_here)

BOOST_AUTO_TEST_CASE(a_saved_module_passes_the_cheap_checks_with_its_name_and_is_hashed_after_them) {
  const scratch s;
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, linear_source);
  iteragpu::memory::torchscript_run run;
  run.path = path;
  iteragpu::cli::check_torchscript_file(run);
  BOOST_TEST(run.file_name == "linear.pt");
  // The cheap checks read no more than they need: the digest comes last.
  BOOST_TEST(run.sha256.empty());
  iteragpu::cli::hash_model_file(run);
  const auto bytes = iteragpu::read_whole_file(path).value();
  BOOST_TEST(run.sha256 == mem::to_hex(mem::sha256(bytes)));
  BOOST_TEST(run.sha256.size() == 64U);
}

BOOST_AUTO_TEST_CASE(file_and_spec_mistakes_are_reported_before_the_missing_gpu) {
  const scratch s;
  const auto output = (s.folder / "out.json").string();
  std::string err;
  BOOST_TEST(command({"--torchscript", (s.folder / "missing.pt").string(), "--input", "2x4:float32", "--device",
                      "cuda:0", "--output", output},
                     err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("missing.pt' does not exist") != std::string::npos);
  const auto text = (s.folder / "model.py").string();
  std::ofstream(text) << "def forward(self, x):\n    return x\n";
  BOOST_TEST(command({"--torchscript", text, "--input", "2x4:float32", "--device", "cuda:0", "--output", output},
                     err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("model.py' is not a TorchScript archive (not a zip file)") != std::string::npos);
  const auto path = saved_module(s, "linear.pt", {{"w", torch::ones({4, 3})}, {"b", torch::zeros({3})}}, linear_source);
  BOOST_TEST(command({"--torchscript", path, "--input", "2x4:floaty", "--device", "cuda:0", "--output", output}, err) ==
             iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("--input: '2x4:floaty' has an unknown dtype at column 5") != std::string::npos);
  BOOST_TEST(command({"--torchscript", path, "--input", "2x4:int8", "--input-high", "129", "--device", "cuda:0",
                      "--output", output},
                     err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("--input-high: 129 is past what int8 holds") != std::string::npos);
  BOOST_TEST(command({"--torchscript", path, "--input", "2x4:float32", "--width", "8", "--device", "cuda:0", "--output",
                      output},
                     err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("--width describes the synthetic network") != std::string::npos);
  BOOST_TEST(command({"--train", "--device", "cuda:0", "--output", output}, err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("--train goes with --torchscript or --aoti only") != std::string::npos);
#if !defined(ITERAGPU_TORCH_CUDA) && !defined(ITERAGPU_TORCH_HIP)
  // A module that passes every check meets the missing GPU.
  BOOST_TEST(command({"--torchscript", path, "--input", "2x4:float32", "--device", "cuda:0", "--output", output},
                     err) == iteragpu::cli::exit_usage);
  BOOST_TEST(err.find("cuda:0 cannot be measured") != std::string::npos);
#endif
  BOOST_TEST(!std::filesystem::exists(output));
}

BOOST_AUTO_TEST_SUITE_END()
