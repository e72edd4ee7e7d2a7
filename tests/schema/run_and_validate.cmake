# cmake -DPROGRAM=... -DARGS=a|||b -DSCHEMA=... -DOUT=file -DPYTHON=... -DVALIDATE=... -P run_and_validate.cmake
# Runs PROGRAM, which must exit 0 and print one JSON document (or, with
# -DFROM_FILE=path, write it to that file), and validates it against SCHEMA.
string(REPLACE "|||" ";" ARGS "${ARGS}")
if(FROM_FILE)
  file(REMOVE "${FROM_FILE}")
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${ARGS} exited ${rc}:\n${err}")
endif()
if(FROM_FILE)
  set(document "${FROM_FILE}")
else()
  file(WRITE "${OUT}" "${out}")
  set(document "${OUT}")
endif()
execute_process(COMMAND "${PYTHON}" "${VALIDATE}" "${SCHEMA}" "${document}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${document} does not follow ${SCHEMA}:\n${out}")
endif()
