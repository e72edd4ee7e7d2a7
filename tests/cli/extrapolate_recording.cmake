# `mesure_memoire extrapolate --torchscript` with a stand-in recorder
# (fake_recorder.sh): each size recorded in the new folder WORK/traces, and
# the answer the same, line for line after the first (which names the
# files), as `extrapolate` over the committed snapshots themselves.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ex "${SOURCE}/tests/data/extrapolate")
execute_process(COMMAND "${PROGRAM}" extrapolate --torchscript model.pt --input Bx128:int64 --input 3:float32 --train
                        --sizes 1,2,4 --traces "${WORK}/traces" --to 4 --to 16
                        --record-program "${SOURCE}/tests/cli/fake_recorder.sh"
                RESULT_VARIABLE rc OUTPUT_VARIABLE recorded ERROR_VARIABLE recorded_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "extrapolate --torchscript exited ${rc}:\n${recorded_err}")
endif()
execute_process(COMMAND "${PROGRAM}" extrapolate "${ex}/affine.b1.json" "${ex}/affine.b2.json" "${ex}/affine.b4.json"
                        --sizes 1,2,4 --to 4 --to 16
                RESULT_VARIABLE rc OUTPUT_VARIABLE given)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "extrapolate over the snapshots exited ${rc}")
endif()
# The text after the first line (string(REGEX REPLACE "^...") would apply
# its ^ again after each replacement).
foreach(v recorded given)
  string(FIND "${${v}}" "\n" first_end)
  math(EXPR first_end "${first_end} + 1")
  string(SUBSTRING "${${v}}" ${first_end} -1 ${v}_rest)
endforeach()
if(NOT recorded_rest STREQUAL given_rest OR recorded_rest STREQUAL "")
  message(FATAL_ERROR "recorded:\n${recorded}\ngiven:\n${given}")
endif()
if(NOT recorded MATCHES "^Extrapolation of 3 snapshots at sizes 1, 2, 4; the requests of '[^']*/traces/size-4\\.pickle' \\(size 4\\) are followed")
  message(FATAL_ERROR "first line: ${recorded}")
endif()
foreach(n 1 2 4)
  if(NOT EXISTS "${WORK}/traces/size-${n}.pickle" OR NOT EXISTS "${WORK}/traces/size-${n}.measurement.json")
    message(FATAL_ERROR "size ${n} not kept in ${WORK}/traces")
  endif()
  if(NOT recorded_err MATCHES "size ${n} recorded: [^\n]*/traces/size-${n}\\.pickle\n")
    message(FATAL_ERROR "no progress line for size ${n}:\n${recorded_err}")
  endif()
endforeach()
# The folder is new: a second run refuses it and writes nothing.
execute_process(COMMAND "${PROGRAM}" extrapolate --torchscript model.pt --input Bx128:int64 --sizes 1,2
                        --traces "${WORK}/traces" --to 4 --record-program "${SOURCE}/tests/cli/fake_recorder.sh"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "^mesure_memoire extrapolate: --traces: [^\n]*exists[^\n]*\n$")
  message(FATAL_ERROR "an existing --traces folder: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
# Without --sizes: 2, 3, 4, 8, ... up to the first size that runs out of
# memory (the stand-in has no snapshot past 4), the sizes before it used.
execute_process(COMMAND "${PROGRAM}" extrapolate --torchscript model.pt --input Bx128:int64 --traces "${WORK}/default"
                        --to 16 --record-program "${SOURCE}/tests/cli/fake_recorder.sh"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^Extrapolation of 3 snapshots at sizes 2, 3, 4;"
   OR NOT err MATCHES "size 8: `measure` exited 3: fake_recorder: CUDA out of memory at size '8'[^\n]*; the sizes recorded before it are used\n"
   OR EXISTS "${WORK}/default/size-8.pickle")
  message(FATAL_ERROR "default sizes: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
# A --record-program that is not there: refused (2), no folder made.
execute_process(COMMAND "${PROGRAM}" extrapolate --torchscript model.pt --input Bx128:int64 --traces "${WORK}/missing"
                        --to 16 --record-program "${WORK}/no-such-program"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--record-program: '[^']*no-such-program' is not an executable file"
   OR EXISTS "${WORK}/missing")
  message(FATAL_ERROR "missing --record-program: exit ${rc}, stderr '${err}'")
endif()
# SIGTERM while a size records: 143, as documented, with one line.
find_program(timeout_program timeout)
if(timeout_program)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env FAKE_RECORDER_SLEEP=5
                          "${timeout_program}" --preserve-status -s TERM 1
                          "${PROGRAM}" extrapolate --torchscript model.pt --input Bx128:int64 --sizes 1,2
                          --traces "${WORK}/stopped" --to 16 --record-program "${SOURCE}/tests/cli/fake_recorder.sh"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 143 OR NOT out STREQUAL "" OR NOT err MATCHES "stopped by a signal")
    message(FATAL_ERROR "SIGTERM: exit ${rc}, stdout '${out}', stderr '${err}'")
  endif()
endif()
message(STATUS "extrapolate --torchscript: 3 sizes recorded, the answer of the snapshots themselves; the default sizes up to the first out of memory; a missing recorder refused; SIGTERM 143")
