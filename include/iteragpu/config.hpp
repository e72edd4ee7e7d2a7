#ifndef ITERAGPU_CONFIG_HPP
#define ITERAGPU_CONFIG_HPP

/// \file
/// How the library's functions are compiled.
///
/// By default the library is header-only: each header includes the bodies
/// of its functions (its `impl/*.ipp` file), declared `inline`, and a
/// program includes what it uses and links nothing.
///
/// With `ITERAGPU_SEPARATE_COMPILATION` defined in every translation unit,
/// the headers only declare those functions, and exactly one translation
/// unit of the program includes `<iteragpu/src.hpp>`, which compiles every
/// body once (`src_core.hpp`: the core's, no dependency; `src_json.hpp`:
/// those that need Boost.JSON). With CMake, the installed package's
/// components `compiled` and `json_compiled` are those bodies already
/// compiled: link `iteragpu::compiled` or `iteragpu::json_compiled`, which
/// define the macro for the program. The declarations are the same in both
/// modes; only the cost of including changes.

/// `inline` in header-only use; nothing when the bodies are compiled once.
#ifdef ITERAGPU_SEPARATE_COMPILATION
#define ITERAGPU_INLINE
#else
#define ITERAGPU_INLINE inline
#endif

#endif  // ITERAGPU_CONFIG_HPP
