#ifndef ITERAGPU_TESTS_UNIT_TORCH_SAVED_MODULE_HPP
#define ITERAGPU_TESTS_UNIT_TORCH_SAVED_MODULE_HPP

// TorchScript modules written by the tests, saved by torch.jit's
// serialisation to a scratch folder: for the workload's tests here and the
// command line's in tests/cli/unit_torch/.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <dirent.h>
#include <unistd.h>

#include <torch/script.h>
#include <torch/torch.h>

namespace iteragpu_tests {

// A folder of this process's own, removed at the end.
struct scratch {
  std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("iteragpu-torchscript-" + std::to_string(::getpid()));
  scratch() { std::filesystem::create_directories(folder); }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  // Removed with POSIX calls: the pip build of LibTorch 2.11 exports a
  // std::filesystem::remove_all of its own that crashes when called from
  // here (seen on the GPU host); the folder holds plain files only.
  ~scratch() {
    if (DIR* d = ::opendir(folder.c_str())) {
      while (const dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") {
          static_cast<void>(::unlink((folder / name).c_str()));
        }
      }
      ::closedir(d);
    }
    static_cast<void>(::rmdir(folder.c_str()));
  }
};

// A module with the parameters given and the TorchScript source of its
// methods, saved by torch.jit's serialisation to `name` in the folder.
inline std::string saved_module(const scratch& s, const std::string& name,
                                const std::vector<std::pair<std::string, torch::Tensor>>& parameters,
                                const std::string& source) {
  torch::jit::Module m("m");
  // What every module saved from Python has, and what train()/eval() set.
  m.register_attribute("training", c10::BoolType::get(), true);
  for (const auto& [parameter, value] : parameters) {
    // Trainable, as nn.Parameter makes them; the flag is saved with the module.
    m.register_parameter(parameter, value.clone().requires_grad_(), false);
  }
  m.define(source);
  const auto path = (s.folder / name).string();
  m.save(path);
  return path;
}

inline const std::string linear_source = R"(
def forward(self, x):
    return x.matmul(self.w) + self.b
)";

}  // namespace iteragpu_tests

#endif  // ITERAGPU_TESTS_UNIT_TORCH_SAVED_MODULE_HPP
