# Builds the release_archive target of BUILD_DIR, then unpacks ARCHIVE into a
# fresh UNPACK_DIR with `cmake -E tar xf` and checks it holds one top folder,
# NAME.
cmake_minimum_required(VERSION 3.25)
foreach(_v BUILD_DIR ARCHIVE NAME UNPACK_DIR)
  if(NOT ${_v})
    message(FATAL_ERROR "build_archive.cmake: -D${_v}= is required")
  endif()
endforeach()

execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target release_archive
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "building release_archive failed (${_rc}):\n${_out}\n${_err}")
endif()
if(NOT EXISTS "${ARCHIVE}")
  message(FATAL_ERROR "release_archive did not write ${ARCHIVE}:\n${_out}")
endif()

file(REMOVE_RECURSE "${UNPACK_DIR}")
file(MAKE_DIRECTORY "${UNPACK_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xf "${ARCHIVE}" WORKING_DIRECTORY "${UNPACK_DIR}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cmake -E tar xf ${ARCHIVE} failed: ${_err}")
endif()
file(GLOB _top RELATIVE "${UNPACK_DIR}" "${UNPACK_DIR}/*")
if(NOT _top STREQUAL NAME OR NOT IS_DIRECTORY "${UNPACK_DIR}/${NAME}")
  message(FATAL_ERROR "the archive's top level holds '${_top}', expected the one folder ${NAME}")
endif()
message(STATUS "${ARCHIVE} unpacked into ${UNPACK_DIR}/${NAME}")
