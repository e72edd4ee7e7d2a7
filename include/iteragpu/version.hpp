#ifndef ITERAGPU_VERSION_HPP
#define ITERAGPU_VERSION_HPP

// The library's version; CMake's project version is kept equal to it by a
// configure-time check in the top-level CMakeLists.txt.
#define ITERAGPU_VERSION_MAJOR 0
#define ITERAGPU_VERSION_MINOR 1
#define ITERAGPU_VERSION_PATCH 0

namespace iteragpu {

inline constexpr const char* library_name = "iteragpu";
inline constexpr const char* library_version = "0.1.0";

}  // namespace iteragpu

#endif  // ITERAGPU_VERSION_HPP
