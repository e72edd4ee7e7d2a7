# Files that are FIFOs where the programs expect regular files, for the
# cli.*_fifo cases: opening a FIFO to read waits for a writer, so a program
# that opened one without O_NONBLOCK would hang there (the cases have a
# timeout). -DPROGRAM=mesure_memoire -DDIR=folder to make, emptied first.
foreach(_v IN ITEMS PROGRAM DIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "make_fifos.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/points-fifo")
function(_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_fifos.cmake: ${ARGN} failed (${rc}): ${out}")
  endif()
endfunction()
# A FIFO of its own; a sweep folder whose points.tsv is one; a planned sweep
# whose first record is one.
_run(mkfifo "${DIR}/fifo" "${DIR}/points-fifo/points.tsv")
_run("${PROGRAM}" sweep --plan-only --output-dir "${DIR}/record-fifo" --batch 1,2)
_run(mkfifo "${DIR}/record-fifo/point-0000.json")
