# Inputs the programs must refuse, for the cli cases that need files: FIFOs
# where regular files are expected (opening a FIFO to read waits for a
# writer, so a program that opened one without O_NONBLOCK would hang there;
# those cases have a timeout), a planned sweep, and JSON with a key given
# twice. -DPROGRAM=mesure_memoire -DDIR=folder to make, emptied first.
foreach(_v IN ITEMS PROGRAM DIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "make_refused_inputs.cmake: -D${_v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/points-fifo")
function(_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_refused_inputs.cmake: ${ARGN} failed (${rc}): ${out}")
  endif()
endfunction()
# A FIFO of its own; a sweep folder whose points.tsv is one; a planned sweep
# whose first record is one.
_run(mkfifo "${DIR}/fifo" "${DIR}/points-fifo/points.tsv")
_run("${PROGRAM}" sweep --plan-only --output-dir "${DIR}/record-fifo" --batch 1,2)
_run(mkfifo "${DIR}/record-fifo/point-0000.json")
# And regular files for the other refusals of the readers: a planned sweep
# (collect given it twice), JSON with a key given twice (a document, and a
# sweep whose first record is one).
_run("${PROGRAM}" sweep --plan-only --output-dir "${DIR}/planned" --batch 1,2)
file(WRITE "${DIR}/duplicate-key.json" "{\"schema_version\": 2, \"environment\": {\"a\": 1, \"a\": 2}}\n")
_run("${PROGRAM}" sweep --plan-only --output-dir "${DIR}/record-duplicate-key" --batch 1,2)
file(WRITE "${DIR}/record-duplicate-key/point-0000.json" "{\"index\": 0, \"index\": 0}\n")
# A file of holes one byte over the 2 GiB a snapshot may take: refused by
# its size, unread (reading it would take seconds and gigabytes).
_run(truncate -s 2147483649 "${DIR}/over-2-gib")
