# Builds the release archive of BUILD_DIR a second time from scratch and
# checks that its MANIFEST.json and member list are byte for byte those of
# the first build, unpacked in FIRST.
cmake_minimum_required(VERSION 3.25)
foreach(_v BUILD_DIR ARCHIVE NAME FIRST WORK)
  if(NOT ${_v})
    message(FATAL_ERROR "deterministic.cmake: -D${_v}= is required")
  endif()
endforeach()

file(REMOVE "${ARCHIVE}")
file(REMOVE_RECURSE "${BUILD_DIR}/release/stage" "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -DBUILD_DIR=${BUILD_DIR} -DARCHIVE=${ARCHIVE} -DNAME=${NAME}
                        -DUNPACK_DIR=${WORK} -P "${CMAKE_CURRENT_LIST_DIR}/build_archive.cmake"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the second build failed:\n${_out}\n${_err}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${FIRST}/${NAME}/MANIFEST.json" "${WORK}/${NAME}/MANIFEST.json"
  RESULT_VARIABLE _differs)
if(_differs)
  file(READ "${FIRST}/${NAME}/MANIFEST.json" _a)
  file(READ "${WORK}/${NAME}/MANIFEST.json" _b)
  message(FATAL_ERROR "two builds gave different manifests:\n--- first\n${_a}\n--- second\n${_b}")
endif()
file(GLOB_RECURSE _first LIST_DIRECTORIES false RELATIVE "${FIRST}/${NAME}" "${FIRST}/${NAME}/*")
file(GLOB_RECURSE _second LIST_DIRECTORIES false RELATIVE "${WORK}/${NAME}" "${WORK}/${NAME}/*")
list(SORT _first)
list(SORT _second)
if(NOT _first STREQUAL _second)
  message(FATAL_ERROR "two builds gave different members:\n${_first}\n${_second}")
endif()
list(LENGTH _first _count)
message(STATUS "two builds: the same ${_count} members and byte-identical manifests")
