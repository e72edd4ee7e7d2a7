#ifndef ITERAGPU_SRC_HPP
#define ITERAGPU_SRC_HPP

/// \file
/// The bodies of the library's functions, compiled once. Include this file
/// in exactly one translation unit of a program built with
/// `ITERAGPU_SEPARATE_COMPILATION` defined, and no other header of the
/// library before it (see config.hpp).

#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "<iteragpu/src.hpp> is for ITERAGPU_SEPARATE_COMPILATION; header-only use needs no source file"
#endif

#define ITERAGPU_SOURCE
#include "iteragpu/iteragpu.hpp"

#endif  // ITERAGPU_SRC_HPP
