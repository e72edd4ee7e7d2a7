# mesure_memoire replay: a PyTorch memory snapshot replayed with no GPU. The
# traces under tests/data/traces/ were recorded on an H200 with PyTorch 2.11
# (tests/data/traces/record.py); tests/data/snapshots/ holds a made-up
# snapshot whose recorded settings (expandable segments) do not match its
# events (a plain segment_alloc): the self-check must fail there.
set(_snapshots "${PROJECT_SOURCE_DIR}/tests/data/snapshots")
iteragpu_cli_case(replay_help PROGRAM mesure_memoire EXIT 0 STDOUT "--smallest-capacity" ARGS replay --help)
iteragpu_cli_case(replay_missing_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'missing\\.pickle' does not exist; expected a snapshot file" ARGS replay missing.pickle)
iteragpu_cli_case(replay_no_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "expected a snapshot file" ARGS replay --json)
iteragpu_cli_case(replay_two_files PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "unexpected word 'b\\.pickle'; expected one snapshot file" ARGS replay a.pickle b.pickle)
iteragpu_cli_case(replay_not_a_snapshot PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "neither a pickle \\(first byte 0x80\\) nor JSON" ARGS replay "${PROJECT_SOURCE_DIR}/LICENSE.txt")
iteragpu_cli_case(replay_a_folder PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "is not a regular file" ARGS replay "${_snapshots}")
iteragpu_cli_case(replay_unknown_setting PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--alloc-conf 'max_split:64': PYTORCH_CUDA_ALLOC_CONF: unknown key 'max_split'"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --alloc-conf max_split:64)
iteragpu_cli_case(replay_setting_without_value PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--alloc-conf needs a value; got the flag --json"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --alloc-conf --json)
iteragpu_cli_case(replay_two_capacities PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--capacity-bytes and --capacity-gib do not go together"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --capacity-bytes 1 --capacity-gib 1)
iteragpu_cli_case(replay_capacity_below_a_byte PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--capacity-gib: '0\\.0000000001' is below one byte"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --capacity-gib 0.0000000001)
iteragpu_cli_case(replay_no_such_device PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--device-index 3: .* has no trace events for that device"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --device-index 3)
iteragpu_cli_case(replay_self_check_fails_with_exit_4 PROGRAM mesure_memoire EXIT 4 ONE_LINE_STDERR
  STDOUT "\"self_check\":\\{\"passed\":false,.*\"first_divergence\":\\{\"event\":1,\"recorded\":\\[\\{\"action\":\"segment_alloc\""
  STDERR "the self-check failed: the replay under the recorded settings does not make the recorded segment events at event 1"
  ARGS replay "${_snapshots}/snapshot.json" --json)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate.json"
  "{\"device_traces\": [[]], \"device_traces\": [[]]}")
iteragpu_cli_case(replay_duplicate_key PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "replay-duplicate\\.json' is refused: .*device_traces"
  ARGS replay "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate.json")
