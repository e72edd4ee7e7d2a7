// value() of a failure ends the program (std::abort) in every build, where
// std::expected's throws: tests/contracts/CMakeLists.txt runs this program
// and requires it to be aborted. With an argument, it reads the value of a
// success instead and exits 0, so that a program that cannot start at all
// does not pass for an aborted one.
#include <iteragpu/result.hpp>

#include <string>

int main(int argc, char** /*argv*/) {
  const iteragpu::result<std::string, int> success{std::string("ok")};
  const iteragpu::result<std::string, int> failure = iteragpu::unexpected{argc};
  const iteragpu::result<void, int> void_failure = iteragpu::unexpected{argc};
  if (argc > 2) {
    void_failure.value();  // the void side is checked too
    return 0;
  }
  const auto& read = argc > 1 ? success : failure;
  return read.value() == "ok" ? 0 : 3;
}
