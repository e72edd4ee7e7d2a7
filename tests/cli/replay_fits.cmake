# mesure_memoire replay --smallest-capacity --json into a file, then
# calcul_forfaits --fits that file: prints what calcul_forfaits printed.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${MESURE}" replay "${SNAPSHOT}" --smallest-capacity --json
  OUTPUT_FILE "${OUT}/replay.json" RESULT_VARIABLE replay_rc)
if(NOT replay_rc EQUAL 0)
  message(FATAL_ERROR "mesure_memoire replay exited ${replay_rc}")
endif()
execute_process(COMMAND "${CALCUL}" --fits "${OUT}/replay.json" --days 7 RESULT_VARIABLE fits_rc
  OUTPUT_VARIABLE fits_out ERROR_VARIABLE fits_err)
message("${fits_out}${fits_err}")
if(NOT fits_rc EQUAL 0)
  message(FATAL_ERROR "calcul_forfaits --fits exited ${fits_rc}")
endif()
