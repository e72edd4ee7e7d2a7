// The bodies that need Boost.JSON compiled once (iteragpu/src_json.hpp):
// with src_core_test.cpp they define every body
// tests/headers/separate_main.cpp declares, which checks what they return
// (ctest headers.separate_compilation_by_group). Built with
// ITERAGPU_SEPARATE_COMPILATION, outside the unit tests' executable.
#include <iteragpu/src_json.hpp>
