# Every header an umbrella gathers is marked `// IWYU pragma: export`, so
# that include-what-you-use takes a file that includes the umbrella as
# including what the umbrella brings (as mp-units marks its own).
#
#   cmake -DINCLUDE_DIR=<include> -P umbrellas_export.cmake
cmake_minimum_required(VERSION 3.25)
set(_umbrellas core iteragpu measurement memory nvml prediction pricing report sweep traces)
set(_problems "")
foreach(_u IN LISTS _umbrellas)
  file(STRINGS "${INCLUDE_DIR}/iteragpu/${_u}.hpp" _lines REGEX "^#include \"iteragpu/")
  if(NOT _lines)
    string(APPEND _problems "iteragpu/${_u}.hpp gathers no header\n")
  endif()
  foreach(_line IN LISTS _lines)
    if(NOT _line MATCHES "^#include \"iteragpu/[^\"]+\" +// IWYU pragma: export$")
      string(APPEND _problems "iteragpu/${_u}.hpp: not exported: ${_line}\n")
    endif()
  endforeach()
endforeach()
if(NOT _problems STREQUAL "")
  message(FATAL_ERROR "${_problems}")
endif()
message(STATUS "umbrellas-export: every header gathered by the umbrellas is exported")
