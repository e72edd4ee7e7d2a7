#ifndef ITERAGPU_SRC_HPP
#define ITERAGPU_SRC_HPP

/// \file
/// The bodies of every function of the library that needs no LibTorch,
/// compiled once: src_core.hpp and src_json.hpp in one translation unit.
/// Include this file in exactly one translation unit of a program built
/// with `ITERAGPU_SEPARATE_COMPILATION` defined, and no other header of the
/// library before it (see config.hpp).

#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "<iteragpu/src.hpp> is for ITERAGPU_SEPARATE_COMPILATION; header-only use needs no source file"
#endif

#include "iteragpu/src_core.hpp"
#include "iteragpu/src_json.hpp"

#endif  // ITERAGPU_SRC_HPP
