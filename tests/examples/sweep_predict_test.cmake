# examples/sweep_predict.cpp in a scratch folder: every point of its plan
# has a record of outcome "predicted", whose predicted peaks are those that
# `mesure_memoire plan --json` prints for the same shape (run here, not
# written down); the prediction file beside it says the same; the report's
# three files exist and summary.csv has one line per point.
#   cmake -DSWEEP_PREDICT=... -DMESURE_MEMOIRE=... -DWORK=... -P sweep_predict_test.cmake
foreach(_v SWEEP_PREDICT MESURE_MEMOIRE WORK)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "FAILED: ${_v} is not given")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(_folder "${WORK}/sweep")

execute_process(COMMAND "${SWEEP_PREDICT}" "${_folder}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "FAILED: sweep_predict exited ${_rc}: ${_err}")
endif()

# A folder that exists is refused (exit 2), and nothing is written in it.
execute_process(COMMAND "${SWEEP_PREDICT}" "${_folder}" RESULT_VARIABLE _again ERROR_VARIABLE _again_err)
if(NOT _again EQUAL 2 OR NOT _again_err MATCHES "already exists; expected a new folder")
  message(FATAL_ERROR "FAILED: a second run into the same folder gave ${_again}: ${_again_err}")
endif()

file(READ "${_folder}/points.tsv" _tsv)
string(REGEX MATCHALL "\n[0-9]+\t[^\n]*" _lines "${_tsv}")
list(LENGTH _lines _count)
if(NOT _count EQUAL 4)
  message(FATAL_ERROR "FAILED: points.tsv has ${_count} points; expected 4:\n${_tsv}")
endif()

foreach(_index RANGE 3)
  set(_record_file "${_folder}/point-000${_index}.json")
  file(READ "${_record_file}" _record)
  string(JSON _outcome GET "${_record}" outcome)
  if(NOT _outcome STREQUAL "predicted")
    message(FATAL_ERROR "FAILED: ${_record_file}: outcome ${_outcome}; expected predicted")
  endif()
  foreach(_axis batch context width dtype warmup repeats)
    string(JSON _${_axis} GET "${_record}" point ${_axis})
  endforeach()
  string(JSON _reserved GET "${_record}" prediction peak_reserved_bytes)
  string(JSON _allocated GET "${_record}" prediction peak_allocated_bytes)

  execute_process(COMMAND "${MESURE_MEMOIRE}" plan --batch ${_batch} --context ${_context} --width ${_width}
                          --dtype ${_dtype} --warmup ${_warmup} --repeats ${_repeats} --json
    RESULT_VARIABLE _plan_rc OUTPUT_VARIABLE _plan ERROR_VARIABLE _plan_err)
  if(NOT _plan_rc EQUAL 0)
    message(FATAL_ERROR "FAILED: mesure_memoire plan exited ${_plan_rc}: ${_plan_err}")
  endif()
  string(JSON _plan_reserved GET "${_plan}" peak_reserved_bytes)
  # The plan's peak allocated: the largest of its phase rows'.
  string(JSON _rows LENGTH "${_plan}" phases)
  math(EXPR _last "${_rows} - 1")
  set(_plan_allocated 0)
  foreach(_row RANGE ${_last})
    string(JSON _a GET "${_plan}" phases ${_row} peak_allocated_bytes)
    if(_a GREATER _plan_allocated)
      set(_plan_allocated ${_a})
    endif()
  endforeach()
  if(NOT _reserved STREQUAL _plan_reserved OR NOT _allocated STREQUAL _plan_allocated)
    message(FATAL_ERROR "FAILED: point ${_index} (batch ${_batch}, context ${_context}): record peaks "
                        "${_allocated}/${_reserved}; mesure_memoire plan says ${_plan_allocated}/${_plan_reserved}")
  endif()
  if(NOT _out MATCHES "point ${_index}: [^\n]*predicted, predicted peak reserved ${_plan_reserved} bytes")
    message(FATAL_ERROR "FAILED: the output does not give point ${_index}'s peak ${_plan_reserved}:\n${_out}")
  endif()
  file(READ "${_folder}/point-000${_index}.prediction.json" _prediction)
  string(JSON _file_reserved GET "${_prediction}" peak_reserved_bytes)
  if(NOT _file_reserved STREQUAL _plan_reserved)
    message(FATAL_ERROR "FAILED: point ${_index}'s prediction file says ${_file_reserved}; expected ${_plan_reserved}")
  endif()
endforeach()

foreach(_file summary.csv plot.svg index.html)
  if(NOT EXISTS "${_folder}/${_file}")
    message(FATAL_ERROR "FAILED: ${_file} was not written")
  endif()
endforeach()
file(STRINGS "${_folder}/summary.csv" _summary)
list(LENGTH _summary _summary_lines)
if(NOT _summary_lines EQUAL 5)
  message(FATAL_ERROR "FAILED: summary.csv has ${_summary_lines} lines; expected a header and 4 points")
endif()
message(STATUS "sweep_predict: 4 points, each agreeing with mesure_memoire plan")
