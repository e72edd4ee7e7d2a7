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
if(NOT recorded MATCHES "^Extrapolation of 3 snapshots at sizes 1, 2, 4; the order of '[^']*/traces/size-4\\.pickle' \\(size 4\\)")
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
message(STATUS "extrapolate --torchscript: 3 sizes recorded, the answer of the snapshots themselves")
