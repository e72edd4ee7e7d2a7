#ifndef ITERAGPU_VERSION_HPP
#define ITERAGPU_VERSION_HPP

/// \file
/// The library's version; CMake's project version is kept equal to it by a
/// configure-time check in the top-level CMakeLists.txt.
#define ITERAGPU_VERSION_MAJOR 0  ///< major version
#define ITERAGPU_VERSION_MINOR 1  ///< minor version
#define ITERAGPU_VERSION_PATCH 0  ///< patch version

namespace iteragpu {

inline constexpr const char* library_name = "iteragpu";  ///< the name --version prints
inline constexpr const char* library_version = "0.1.0";  ///< MAJOR.MINOR.PATCH, as the macros

}  // namespace iteragpu

#endif  // ITERAGPU_VERSION_HPP
