# A user's first steps with the archive: configure and build the unpacked
# folder UNPACKED (examples on, LibTorch off, the enclosing build's
# BUILD_TYPE, possibly empty; the archive ships no tests/),
# run the estimate from the README, then pack the release again from the
# unpacked tree and check it is the same release (same MANIFEST.json).
cmake_minimum_required(VERSION 3.25)
foreach(_v UNPACKED WORK GENERATOR CXX NAME)
  if(NOT ${_v})
    message(FATAL_ERROR "build_unpacked.cmake: -D${_v}= is required")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${_rc}):\n${_out}\n${_err}")
  endif()
  set(step_output "${_out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(_build "${WORK}/build")
set(_boost "")
if(BOOST_DIR)
  set(_boost "-DBoost_DIR=${BOOST_DIR}")
endif()
run_step("configuring the unpacked archive"
  "${CMAKE_COMMAND}" -S "${UNPACKED}" -B "${_build}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
  "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" -DITERAGPU_WITH_TORCH=OFF -DITERAGPU_BUILD_TESTS=OFF ${_boost})
run_step("building the unpacked archive" "${CMAKE_COMMAND}" --build "${_build}")
run_step("mesure_memoire estimate" "${_build}/examples/mesure_memoire" estimate
  --parameters 7000000000 --bits 16 --reserve-gib 4 --json)
if(NOT step_output MATCHES "\"weight_gib\":\"13\\.03851604461669921875\".*\"total_gib\":\"17\\.03851604461669921875\"")
  message(FATAL_ERROR "the estimate built from the archive prints:\n${step_output}")
endif()

run_step("packing the release from the unpacked archive"
  "${CMAKE_COMMAND}" "-DBUILD_DIR=${_build}" "-DARCHIVE=${_build}/${NAME}.zip" "-DNAME=${NAME}"
  "-DUNPACK_DIR=${WORK}/again" -P "${CMAKE_CURRENT_LIST_DIR}/build_archive.cmake")
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${UNPACKED}/MANIFEST.json" "${WORK}/again/${NAME}/MANIFEST.json"
  RESULT_VARIABLE _differs)
if(_differs)
  message(FATAL_ERROR "the release packed from the unpacked archive has another MANIFEST.json")
endif()
message(STATUS "the unpacked archive builds, runs the estimate and packs the same release again")
