// The library's function bodies compiled once (iteragpu/src.hpp), in the
// one TU that defines them for tests/headers/separate_main.cpp, which sees
// declarations only and checks what functions of several folders return:
// ctest headers.separate_compilation. Built with
// ITERAGPU_SEPARATE_COMPILATION, outside the unit tests' executable.
#include <iteragpu/src.hpp>
