# cmake -DBUILD_DIR=... -DWORK=... -DBINDIR=... -DDATADIR=... -P calcul_forfaits_installed.cmake
# Installs the build into WORK/prefix, moves it to WORK/moved, and runs the
# moved calcul_forfaits from WORK/elsewhere: the default catalog must be the
# one installed beside it, found relative to the program. The installed copy
# gets one price a cent higher, so that the result shows which file was
# read; the output names it as the shipped catalog, never by its path.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/elsewhere")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK}/prefix"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed (${rc}):\n${out}")
endif()
file(RENAME "${WORK}/prefix" "${WORK}/moved")
set(catalog "${WORK}/moved/${DATADIR}/iteragpu/tarifs-forfaits.csv")
foreach(shipped tarifs-forfaits.csv resultats-bruts.csv protocole-qualite.md README.md)
  if(NOT EXISTS "${WORK}/moved/${DATADIR}/iteragpu/${shipped}")
    message(FATAL_ERROR "${shipped} is not installed in ${DATADIR}/iteragpu")
  endif()
endforeach()

file(READ "${catalog}" text)
string(REPLACE ",b200,NVIDIA B200,180,2,7,168000" ",b200,NVIDIA B200,180,2,7,168001" marked "${text}")
if(marked STREQUAL text)
  message(FATAL_ERROR "the installed catalog has no 7-day b200 row at 168000 cents")
endif()
file(WRITE "${catalog}" "${marked}")

set(program "${WORK}/moved/${BINDIR}/calcul_forfaits")
execute_process(COMMAND "${program}" --gpu b200 --days 7 --lots 2
  WORKING_DIRECTORY "${WORK}/elsewhere" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "${WORK}" path_at)
if(NOT rc EQUAL 0 OR NOT out MATCHES "total price   3360\\.02 USD" OR NOT out MATCHES "\\(the shipped illustrative catalog\\)"
   OR NOT path_at EQUAL -1)
  message(FATAL_ERROR "the installed program did not read ${catalog}, or printed its path (exit ${rc}):\n${out}${err}")
endif()
execute_process(COMMAND "${program}" --gpu b200 --days 7 --lots 2 --accepted-results 3 --json
  WORKING_DIRECTORY "${WORK}/elsewhere" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"total_gpus\":4,.*\"total_price_cents\":336002,.*\"unit_cost_cents\":\"112000\\.6667\"")
  message(FATAL_ERROR "unexpected JSON from the installed program (exit ${rc}):\n${out}${err}")
endif()
message(STATUS "installed calcul_forfaits read ${catalog}")
