# The compiled-once libraries hold every body: each header whose bodies are
# compiled once (its guard names ITERAGPU_SOURCE_CORE or
# ITERAGPU_SOURCE_JSON) names the macro of its own group
# (cmake/iteragpu-header-group.cmake) and is included by that group's
# src_core.hpp or src_json.hpp. A header left out would leave its functions
# undefined for every program that links the libraries.
include("${SOURCE}/cmake/iteragpu-header-group.cmake")
file(GLOB_RECURSE headers RELATIVE "${SOURCE}/include" "${SOURCE}/include/iteragpu/*.hpp")
file(READ "${SOURCE}/include/iteragpu/src_core.hpp" src_core)
file(READ "${SOURCE}/include/iteragpu/src_json.hpp" src_json)
set(problems "")
set(counted 0)
foreach(h IN LISTS headers)
  file(READ "${SOURCE}/include/${h}" text)
  if(NOT text MATCHES "defined\\(ITERAGPU_SOURCE")
    continue()
  endif()
  math(EXPR counted "${counted} + 1")
  iteragpu_header_group("${h}" group)
  string(TOUPPER "${group}" macro)
  if(NOT text MATCHES "defined\\(ITERAGPU_SOURCE_${macro}\\)")
    string(APPEND problems "\n  ${h}: its guard does not name ITERAGPU_SOURCE_${macro}, the macro of its group ${group}")
  elseif(NOT src_${group} MATCHES "#include \"${h}\"")
    string(APPEND problems "\n  ${h}: not included by iteragpu/src_${group}.hpp")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "headers whose compiled bodies would be missing:${problems}")
endif()
if(counted LESS 60)
  message(FATAL_ERROR "only ${counted} headers with compiled bodies found; expected the library's 68 or so")
endif()
message(STATUS "${counted} headers with bodies, each in its group's src header")
