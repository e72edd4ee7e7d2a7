#ifndef ITERAGPU_TESTS_SCRATCH_FOLDER_HPP
#define ITERAGPU_TESTS_SCRATCH_FOLDER_HPP

// A fresh empty folder per test, removed afterwards, and a file read whole:
// what the tests of files written need.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>

#include <unistd.h>

#include <iteragpu/io.hpp>

struct scratch_folder {
  std::filesystem::path path;
  scratch_folder()
      : path(std::filesystem::temp_directory_path() /
             ("iteragpu-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  static std::atomic<int>& counter() {
    static std::atomic<int> n{0};
    return n;
  }
  // The entries the folder holds.
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(std::filesystem::directory_iterator(path), std::filesystem::directory_iterator{}));
  }
};

// The whole content of `p`, which the test expects to exist.
inline std::string read_file(const std::filesystem::path& p) { return iteragpu::read_whole_file(p).value(); }

#endif  // ITERAGPU_TESTS_SCRATCH_FOLDER_HPP
