# The help of both programs: every exit code the programs can return, a
# usage line for every command, and flag values named for what they take.

# The top-level help lists every code: those of outcome.hpp, replay's
# self-check (4) and an interrupted sweep (128 + SIGINT or SIGTERM).
iteragpu_cli_case(program_help_lists_every_exit_code PROGRAM mesure_memoire EXIT 0
  STDOUT "exit codes: 0 success, 1 internal error, 2 bad input or no LibTorch/GPU, 3 failure while measuring,\n  4 replay: the self-check found the replay differs from the recorded segment events,\n  5 measure, environment: another process took the --output name \\(the result is kept under a new name\\),\n  6 replay --on-gpu: PyTorch's own allocator and the simulation differ,\n  130, 143 sweep: stopped by SIGINT or SIGTERM \\(docs/conventions\\.md\\)\n"
  ARGS --help)
iteragpu_cli_case(calcul_forfaits_help_lists_every_exit_code PROGRAM calcul_forfaits EXIT 0
  STDOUT "exit codes: 0 success, 2 bad input or an invalid catalog \\(one line on stderr\\), 1 internal error\n"
  ARGS --help)

# Every command's help opens with its usage, and names each flag's value for
# what it takes (N, X, FILE, ...), never Boost's `arg`.
foreach(_command estimate plan environment measure compare sweep collect replay extrapolate)
  iteragpu_cli_case(${_command}_help_opens_with_its_usage PROGRAM mesure_memoire EXIT 0
    STDOUT "^usage: mesure_memoire ${_command} " STDOUT_NOT "--[a-z-]+ arg " ARGS ${_command} --help)
endforeach()
iteragpu_cli_case(calcul_forfaits_help_opens_with_its_usage PROGRAM calcul_forfaits EXIT 0
  STDOUT "^usage: calcul_forfaits --gpu ID --days N --lots N " STDOUT_NOT "--[a-z-]+ arg " ARGS --help)
iteragpu_cli_case(replay_help_names_flag_values PROGRAM mesure_memoire EXIT 0
  STDOUT "--device-index N .*--alloc-conf CONF .*--capacity-bytes N .*--capacity-gib X .*--gpu ID .*--catalog PATH "
  ARGS replay --help)
iteragpu_cli_case(sweep_help_names_flag_values PROGRAM mesure_memoire EXIT 0
  STDOUT "--device cuda:N .*--devices LIST .*--output-dir DIR .*--batch LIST .*--run-point N .*--point-program FILE "
  ARGS sweep --help)
iteragpu_cli_case(calcul_forfaits_help_names_flag_values PROGRAM calcul_forfaits EXIT 0
  STDOUT "--gpu ID .*--days N .*--fits FILE .*--fits-gib X .*--gpu-hours H .*--catalog PATH "
  ARGS --help)

# A misspelt flag is named with the one flag it is a likely typo of (at most
# two edits, fewer than half its length); a word close to two flags, or to
# none, gets no guess. Before the snapshot or after it, the snapshot is never
# blamed.
set(_snapshot "${PROJECT_SOURCE_DIR}/tests/data/snapshots/snapshot_protocol4.pickle")
iteragpu_cli_case(replay_misspelt_flag_before_the_file_names_the_likely_flag PROGRAM mesure_memoire EXIT 2
  STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: unknown flag '--capacity-gb' \\(did you mean --capacity-gib\\?\\); see --help for the accepted flags\n$"
  ARGS replay --capacity-gb 1 "${_snapshot}")
iteragpu_cli_case(replay_misspelt_flag_after_the_file_names_the_likely_flag PROGRAM mesure_memoire EXIT 2
  STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: unknown flag '--capacity-byte' \\(did you mean --capacity-bytes\\?\\); see --help for the accepted flags\n$"
  ARGS replay "${_snapshot}" --capacity-byte 5)
iteragpu_cli_case(replay_swapped_letters_name_the_likely_flag PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: unknown flag '--capacity-gbi' \\(did you mean --capacity-gib\\?\\);"
  ARGS replay "${_snapshot}" --capacity-gbi=1)
iteragpu_cli_case(estimate_misspelt_flag_names_the_likely_flag PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire estimate: unknown flag '--paramters' \\(did you mean --parameters\\?\\); see --help for the accepted flags\n$"
  ARGS estimate --paramters 7 --bits 16)
iteragpu_cli_case(compare_misspelt_flag_names_the_likely_flag PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire compare: unknown flag '--jsn' \\(did you mean --json\\?\\); see --help for the accepted flags\n$"
  ARGS compare a.json b.json --jsn)
iteragpu_cli_case(calcul_forfaits_misspelt_flag_names_the_likely_flag PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY
  ONE_LINE_STDERR
  STDERR "^calcul_forfaits: unknown flag '--dyas' \\(did you mean --days\\?\\); see --help for the accepted flags\n$"
  ARGS --gpu b200 --dyas 7 --lots 1)
iteragpu_cli_case(flag_close_to_two_flags_gets_no_guess PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire sweep: unknown flag '--devicex'; see --help for the accepted flags\n$"
  ARGS sweep --devicex cuda:0 --output-dir unused)
iteragpu_cli_case(flag_far_from_every_flag_gets_no_guess PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire estimate: unknown flag '--x'; see --help for the accepted flags\n$"
  ARGS estimate --x 1 --parameters 7 --bits 16)
