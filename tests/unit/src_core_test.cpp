// The core's function bodies compiled once (iteragpu/src_core.hpp): with
// src_json_test.cpp they define every body tests/headers/separate_main.cpp
// declares, which checks what they return (ctest
// headers.separate_compilation_by_group). Built with
// ITERAGPU_SEPARATE_COMPILATION, outside the unit tests' executable.
#include <iteragpu/src_core.hpp>
