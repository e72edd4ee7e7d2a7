# `replay --gpu ID` and `replay --card-gib X` replay under the capacity the
# card leaves to the allocator, say so on a first line, and otherwise answer
# as `replay --capacity-bytes` with that capacity does, line for line.
function(_replay_same name first_line)
  execute_process(COMMAND "${PROGRAM}" replay "${SNAPSHOT}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE card)
  string(REGEX MATCH "^Capacity: ([0-9]+) bytes" _ "${card}")
  set(bytes "${CMAKE_MATCH_1}")
  if(NOT card MATCHES "^${first_line}\n" OR bytes STREQUAL "")
    message(FATAL_ERROR "${name}: exit ${rc}, first line not '${first_line}':\n${card}")
  endif()
  execute_process(COMMAND "${PROGRAM}" replay "${SNAPSHOT}" --capacity-bytes ${bytes} RESULT_VARIABLE rc2
                  OUTPUT_VARIABLE plain)
  string(FIND "${card}" "\n" first_end)
  math(EXPR first_end "${first_end} + 1")
  string(SUBSTRING "${card}" ${first_end} -1 card_rest)
  if(NOT rc EQUAL rc2 OR NOT card_rest STREQUAL plain)
    message(FATAL_ERROR "${name}: not the answer of --capacity-bytes ${bytes}:\n${card}\n---\n${plain}")
  endif()
  message(STATUS "${name}: ${bytes} bytes, the answer of --capacity-bytes ${bytes}")
endfunction()
_replay_same(card_gib "Capacity: 248289689 bytes \\(236\\.79 MiB\\): a card of 0\\.9 GiB as its runtime reports it, 966367641 bytes, less the memory outside the allocator, 718077952 bytes"
  --card-gib 0.9)
_replay_same(gpu "Capacity: 83452354887 bytes \\(77\\.72 GiB\\) on h100-sxm: the low end of its memory under the memory rule, 84170432839 bytes, less the memory outside the allocator, 718077952 bytes"
  --gpu h100-sxm)
