// The library's function bodies, compiled once for separate_main.cpp.
#include <iteragpu/src.hpp>
