# The help of both programs: every exit code the programs can return, a
# usage line for every command, and flag values named for what they take.

# The top-level help lists every code: those of outcome.hpp, replay's
# self-check (4) and an interrupted sweep (128 + SIGINT or SIGTERM).
iteragpu_cli_case(program_help_lists_every_exit_code PROGRAM mesure_memoire EXIT 0
  STDOUT "exit codes: 0 success, 1 internal error, 2 bad input or no LibTorch/GPU, 3 failure while measuring,\n  4 replay: the self-check found the replay differs from the recorded segment events,\n  5 measure, environment: another process took the --output name \\(the result is kept under a new name\\),\n  130, 143 sweep: stopped by SIGINT or SIGTERM \\(docs/conventions\\.md\\)\n"
  ARGS --help)
iteragpu_cli_case(calcul_forfaits_help_lists_every_exit_code PROGRAM calcul_forfaits EXIT 0
  STDOUT "exit codes: 0 success, 2 bad input or an invalid catalog \\(one line on stderr\\), 1 internal error\n"
  ARGS --help)

