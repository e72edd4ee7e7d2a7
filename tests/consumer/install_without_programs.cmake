# Installs iteragpu from a build configured with -DITERAGPU_BUILD_PROGRAMS=OFF
# and checks that nothing was compiled, neither by the install nor by a
# build of that folder, and that the prefix holds the headers, the package,
# the data, the README and its reference pages; run_consumer.cmake then uses
# the prefix from outside.
foreach(_v IN ITEMS SOURCE WORK GENERATOR CXX WITH_TORCH)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "install_without_programs.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
set(_build "${WORK}/build")
set(_prefix "${WORK}/prefix")
set(_config -S "${SOURCE}" -B "${_build}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
  -DITERAGPU_BUILD_PROGRAMS=OFF "-DITERAGPU_WITH_TORCH=${WITH_TORCH}")
if(BOOST_DIR)
  list(APPEND _config "-DBoost_DIR=${BOOST_DIR}")
endif()

function(_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install without programs: ${name} failed (${rc}):\n${out}")
  endif()
  message(STATUS "install without programs: ${name} ok")
endfunction()

_step(configure "${CMAKE_COMMAND}" ${_config})
# The install comes first: it must need no build.
_step(install "${CMAKE_COMMAND}" --install "${_build}" --prefix "${_prefix}")
_step(build "${CMAKE_COMMAND}" --build "${_build}")

file(GLOB_RECURSE _compiled "${_build}/*.o" "${_build}/*.obj" "${_build}/*.so" "${_build}/*.a")
if(_compiled)
  list(JOIN _compiled "\n  " _compiled)
  message(FATAL_ERROR "install without programs: the build folder holds compiled files:\n  ${_compiled}")
endif()
if(EXISTS "${_prefix}/bin")
  file(GLOB _programs "${_prefix}/bin/*")
  message(FATAL_ERROR "install without programs: programs were installed: ${_programs}")
endif()
foreach(_f IN ITEMS include/iteragpu/iteragpu.hpp include/iteragpu/core.hpp
                    share/iteragpu/tarifs-forfaits.csv share/iteragpu/README.md
                    share/doc/iteragpu/README.md share/doc/iteragpu/docs/replay.md)
  if(NOT EXISTS "${_prefix}/${_f}")
    message(FATAL_ERROR "install without programs: ${_prefix}/${_f} was not installed")
  endif()
endforeach()
file(GLOB_RECURSE _configs "${_prefix}/*/iteragpu-config.cmake")
if(NOT _configs)
  message(FATAL_ERROR "install without programs: no iteragpu-config.cmake under ${_prefix}")
endif()
