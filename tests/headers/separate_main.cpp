// A program built with ITERAGPU_SEPARATE_COMPILATION: this TU sees the
// declarations only (the umbrella brings no function body and no more of
// Boost.JSON than its forward declarations), and tests/unit/src_test.cpp (or
// src_core_test.cpp with src_json_test.cpp) defines
// them. It calls functions of several folders and checks what they return.
#include <array>
#include <cerrno>
#include <cstdio>
#include <string>

#include <boost/json.hpp>

#include <iteragpu/iteragpu.hpp>

#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "separate_main.cpp is built with ITERAGPU_SEPARATE_COMPILATION"
#endif
#ifdef ITERAGPU_IMPL_IO_IPP
#error "io.hpp's bodies reached a TU that declares only"
#endif

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "separate compilation: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  using iteragpu::new_file_errc;
  using iteragpu::new_file_error;
  using iteragpu::new_file_step;
  expect(iteragpu::describe(new_file_error{.code = new_file_errc::system_error,
                                           .file = "r.json",
                                           .what = iteragpu::refused_step{new_file_step::flushing, ENOSPC}}) ==
             "cannot write 'r.json': flushing to disk: No space left on device",
         "describe(new_file_error)");

  // PROTO 2, BININT1 5, STOP: the integer 5.
  const std::array<unsigned char, 5> pickle{0x80, 0x02, 0x4b, 0x05, 0x2e};
  const auto value = iteragpu::memory::read_pickle(pickle);
  expect(value.has_value() && *value == boost::json::value(5), "memory::read_pickle");

  const auto count = iteragpu::memory::json_byte_count(boost::json::value(-1));
  expect(!count.has_value(), "memory::json_byte_count(-1)");

  const auto mib = iteragpu::memory::json_byte_count(boost::json::parse("1048576"));
  expect(mib == std::uint64_t{1048576}, "memory::json_byte_count(1048576)");
  return failures == 0 ? 0 : 1;
}
