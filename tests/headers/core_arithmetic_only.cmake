# core.hpp is arithmetic and text only: no header of the library that it
# reaches includes a header of file-system, process, signal or
# dynamic-loading calls, or <filesystem>, <fstream>, <iostream>. Read from
# the library's own #include lines (what the standard library includes for
# itself differs between its versions and is not the library's doing).
#
#   cmake -DINCLUDE_DIR=<include/> -P core_arithmetic_only.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT INCLUDE_DIR OR NOT EXISTS "${INCLUDE_DIR}/iteragpu/core.hpp")
  message(FATAL_ERROR "core_arithmetic_only: -DINCLUDE_DIR= must name the include/ folder (got '${INCLUDE_DIR}')")
endif()
set(_forbidden unistd.h fcntl.h sys/stat.h sys/mman.h sys/wait.h spawn.h dlfcn.h signal.h csignal filesystem
    fstream iostream)
set(_todo iteragpu/core.hpp)
set(_seen "")
set(_problems "")
while(_todo)
  list(POP_FRONT _todo _header)
  if(_header IN_LIST _seen)
    continue()
  endif()
  list(APPEND _seen "${_header}")
  file(STRINGS "${INCLUDE_DIR}/${_header}" _lines REGEX "^[ \t]*#[ \t]*include")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "#[ \t]*include[ \t]*\"(iteragpu/[^\"]+)\"")
      list(APPEND _todo "${CMAKE_MATCH_1}")
    elseif(_line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
      if(CMAKE_MATCH_1 IN_LIST _forbidden)
        list(APPEND _problems "${_header} includes <${CMAKE_MATCH_1}>")
      endif()
    endif()
  endforeach()
endwhile()
list(LENGTH _seen _count)
if(_problems)
  list(JOIN _problems "\n  " _text)
  message(FATAL_ERROR "core.hpp reaches file-system, process, signal or loader headers:\n  ${_text}")
endif()
message(STATUS "core.hpp and the ${_count} library headers it reaches include none of: ${_forbidden}")
