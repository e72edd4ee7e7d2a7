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
# A negative capacity and a zero one are refused with one text of what is
# accepted: 0 parses as a decimal but is no capacity.
set(_gib_accepted "expected a decimal of GiB of at least one byte and under 2\\^64 bytes, such as 80 or 0\\.5 \\(no sign, no exponent\\)\n$")
iteragpu_cli_case(replay_negative_capacity_gib PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: --capacity-gib: '-1' is not a plain decimal; ${_gib_accepted}"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --capacity-gib -1)
iteragpu_cli_case(replay_zero_capacity_gib PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: --capacity-gib: '0' is below one byte; ${_gib_accepted}"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --capacity-gib 0)
# An unknown flag followed by a value is named, never its value or the
# snapshot (the value would otherwise be taken for the snapshot).
foreach(_case "cap|--cap|100|${_snapshots}/snapshot_protocol4.pickle" "capacity|--capacity|100|${_snapshots}/snapshot_protocol4.pickle"
    "output|--output|x.json|${_snapshots}/snapshot_protocol4.pickle")
  string(REPLACE "|" ";" _c "${_case}")
  list(GET _c 0 _name)
  list(GET _c 1 _flag)
  list(GET _c 2 _value)
  list(GET _c 3 _file)
  iteragpu_cli_case(replay_unknown_flag_${_name}_before_the_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY
    ONE_LINE_STDERR STDERR "^mesure_memoire replay: unknown flag '${_flag}'; see --help for the accepted flags\n$"
    ARGS replay ${_flag} ${_value} "${_file}")
  iteragpu_cli_case(replay_unknown_flag_${_name}_after_the_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY
    ONE_LINE_STDERR STDERR "^mesure_memoire replay: unknown flag '${_flag}'; see --help for the accepted flags\n$"
    ARGS replay "${_file}" ${_flag} ${_value})
endforeach()
iteragpu_cli_case(replay_no_such_device PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--device-index 3: .* has no trace events for that device"
  ARGS replay "${_snapshots}/snapshot_protocol4.pickle" --device-index 3)
iteragpu_cli_case(replay_self_check_fails_with_exit_4 PROGRAM mesure_memoire EXIT 4 ONE_LINE_STDERR
  STDOUT "\"self_check\":\\{\"passed\":false,.*\"first_divergence\":\\{\"event\":1,\"recorded\":\\[\\{\"action\":\"segment_alloc\""
  STDERR "the self-check failed: the replay under the recorded settings does not make the recorded segment events at event 1"
  ARGS replay "${_snapshots}/snapshot.json" --json --device-memory-bytes 150109880320)
# Its recorded settings are expandable segments, which the device's memory
# sizes: without a card or its memory the replay is refused, naming the flags.
iteragpu_cli_case(replay_expandable_without_device_memory PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: the recorded settings: expandable segments reserve an address space of 9/8 of the device's memory, which no flag gives; expected --device-memory-bytes N, --gpu ID or --card-gib X\n$"
  ARGS replay "${_snapshots}/snapshot.json" --json)
iteragpu_cli_case(replay_device_memory_with_a_card PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire replay: --card-gib and --device-memory-bytes do not go together \\(the card gives the device's memory\\)\n$"
  ARGS replay "${_snapshots}/snapshot.json" --card-gib 80 --device-memory-bytes 150109880320)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate.json"
  "{\"device_traces\": [[]], \"device_traces\": [[]]}")
iteragpu_cli_case(replay_duplicate_key PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "replay-duplicate\\.json' is refused: .*device_traces"
  ARGS replay "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate.json")
# The duplicate check reads as deep as the snapshot reader (512): a member
# nested 40 deep does not hide a duplicate key.
string(REPEAT "[" 40 _open)
string(REPEAT "]" 40 _close)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate-deep.json"
  "{\"deep\": ${_open}${_close}, \"device_traces\": [[]], \"device_traces\": [[]]}")
iteragpu_cli_case(replay_duplicate_key_beside_a_deep_member PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "replay-duplicate-deep\\.json' is refused: the key at '/device_traces' is given twice in its object\n$"
  ARGS replay "${CMAKE_CURRENT_BINARY_DIR}/replay-duplicate-deep.json")

# The traces recorded on the H200 (tests/data/traces/record.py): every one
# replays under its recorded settings to the run's own peaks with a passing
# self-check, under expandable_segments:True, max_split_size_mb:64 and
# roundup_power2_divisions:4 to the peaks of a fresh run under that setting,
# and under the capacities of the capped runs to their out-of-memory verdict;
# the snapshots of measure --torchscript replay to their measured peaks; the
# trace whose ring buffer wrapped replays from the rebuilt state.
set(_traces "${PROJECT_SOURCE_DIR}/tests/data/traces")
find_program(_replay_python NAMES python3)
if(_replay_python)
  add_test(NAME cli.replay_recorded_traces_match_the_runs
    COMMAND "${_replay_python}" "${_traces}/check_replay.py" "$<TARGET_FILE:mesure_memoire>" "${_traces}")
  set_tests_properties(cli.replay_recorded_traces_match_the_runs PROPERTIES LABELS cli
    PASS_REGULAR_EXPRESSION "37 comparisons, 0 failed")
endif()
# The smallest capacity of each setting, and the least need, from a
# convolutional network's training steps: the recorded settings fit in
# 213,909,504 bytes (less than their peak reserved, 255,852,544, since the
# allocator releases its cache when short), expandable segments in their
# peak, 216,006,656.
iteragpu_cli_case(replay_smallest_capacity PROGRAM mesure_memoire EXIT 0
  STDOUT "\"alloc_conf\":\"\",\"capacity_bytes\":null,\"peak_allocated_bytes\":187175936,\"peak_reserved_bytes\":255852544,.*\"smallest_capacity_bytes\":213909504,.*\"alloc_conf\":\"expandable_segments:True\",.*\"smallest_capacity_bytes\":216006656,.*\"memory_need\":\\{\"bytes\":931987456,"
  ARGS replay "${_traces}/conv_train.recorded.pickle" --alloc-conf= --alloc-conf expandable_segments:True
       --device-memory-bytes 150109880320 --smallest-capacity --json)
iteragpu_cli_case(replay_out_of_memory_names_the_request PROGRAM mesure_memoire EXIT 0
  STDOUT "\n  OUT OF MEMORY at event 205: a request of 33554432 bytes \\(32\\.00 MiB\\) on stream 0, after 1 allocation retry\n"
  ARGS replay "${_traces}/transformer_train.recorded.pickle" --capacity-bytes 219037107)
# A setting that fits says so: the headroom under the capacity asked, and
# the allocation retries; sizes as PyTorch writes them, the bytes beside.
iteragpu_cli_case(replay_fits_names_its_headroom_and_retries PROGRAM mesure_memoire EXIT 0
  STDOUT "\nrecorded settings, capacity 300000000 bytes \\(286\\.10 MiB\\)\n  peak allocated 187175936 bytes \\(178\\.50 MiB\\) \\(event 486\\), peak reserved 255852544 bytes \\(244\\.00 MiB\\) \\(event 300\\)\n  fits: 44147456 bytes \\(42\\.10 MiB\\) of headroom under the capacity, 0 allocation retries\n"
  ARGS replay "${_traces}/conv_train.recorded.pickle" --capacity-bytes 300000000)
# The retries beside the smallest capacity are those at that capacity (the
# allocator releases its cache to fit it), in text and in JSON.
iteragpu_cli_case(replay_smallest_capacity_gives_its_retries PROGRAM mesure_memoire EXIT 0
  STDOUT "\n  fits \\(no capacity asked\\), 0 allocation retries\n  smallest capacity: 213909504 bytes \\(204\\.00 MiB\\), 4 allocation retries at that capacity\n"
  ARGS replay "${_traces}/conv_train.recorded.pickle" --smallest-capacity)
iteragpu_cli_case(replay_smallest_capacity_gives_its_retries_in_json PROGRAM mesure_memoire EXIT 0
  STDOUT "\"alloc_retries\":0,.*\"smallest_capacity_bytes\":213909504,\"smallest_capacity_retries\":4,"
  ARGS replay "${_traces}/conv_train.recorded.pickle" --smallest-capacity --json)
iteragpu_cli_case(replay_text_names_the_gpus PROGRAM mesure_memoire EXIT 0
  STDOUT "self-check: passed.*GPUs on record that hold it: .*h200"
  ARGS replay "${_traces}/mlp_infer.recorded.pickle")
iteragpu_cli_case(replay_starts_late PROGRAM mesure_memoire EXIT 0
  STDOUT "\"starts_late\":true,\"rebuilt_segments\":18,"
  ARGS replay "${_traces}/transformer_train.wrapped.pickle" --json)
# calcul_forfaits --fits reads a replay's JSON: the packages that hold it.
add_test(NAME cli.fits_reads_a_replay
  COMMAND "${CMAKE_COMMAND}" "-DMESURE=$<TARGET_FILE:mesure_memoire>" "-DCALCUL=$<TARGET_FILE:calcul_forfaits>"
          "-DSNAPSHOT=${_traces}/conv_train.recorded.pickle" "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/fits-replay"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/replay_fits.cmake")
set_tests_properties(cli.fits_reads_a_replay PROPERTIES LABELS cli
  PASS_REGULAR_EXPRESSION "Packages of at least 1 GPU that holds 931987456 bytes \\(888\\.81 MiB\\).*need +replay --json: its memory_need\\.bytes[^\n]*\n  setting   the one setting replayed, under the recorded settings: run with PYTORCH_CUDA_ALLOC_CONF unset \\(PyTorch's defaults, as recorded\\)\n.*rtx-4090")

# The snapshot of an AOTInductor package measured on the H200 replays to the
# measured peaks (tests/data/aoti/README.md), its self-check passing.
iteragpu_cli_case(replay_of_an_aoti_measurement_gives_its_peaks PROGRAM mesure_memoire EXIT 0
  STDOUT "\"self_check\":\\{\"passed\":true,\"peak_allocated_bytes\":56434688,\"peak_reserved_bytes\":58720256"
  ARGS replay "${PROJECT_SOURCE_DIR}/tests/data/aoti/h200-conv-aoti.pickle" --json)

# A card instead of a capacity: --gpu (the catalog's memory rule) or --card-gib.
add_test(NAME cli.replay_card_capacity
  COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:mesure_memoire>"
          "-DSNAPSHOT=${_traces}/conv_train.recorded.pickle" -P "${CMAKE_CURRENT_SOURCE_DIR}/replay_card.cmake")
set_tests_properties(cli.replay_card_capacity PROPERTIES LABELS cli)
iteragpu_cli_case(replay_card_gpu_json PROGRAM mesure_memoire EXIT 0
  STDOUT "\"capacity_gpu\":\"h100-sxm\",\"capacity_basis\":\"the low end of its memory under the memory rule, 84170432839 bytes, less the memory outside the allocator, 718077952 bytes\""
  ARGS replay "${_traces}/conv_train.recorded.pickle" --gpu h100-sxm --json)
function(_replay_card_refused name message)
  iteragpu_cli_case(replay_card_${name} PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "${message}" ARGS replay "${_snapshots}/snapshot_protocol4.pickle" ${ARGN})
endfunction()
_replay_card_refused(and_bytes "--gpu and --capacity-bytes or --capacity-gib do not go together" --gpu h200 --capacity-bytes 5)
_replay_card_refused(two_cards "--gpu and --card-gib do not go together" --gpu h200 --card-gib 24)
_replay_card_refused(catalog_alone "--catalog goes with --gpu; expected --gpu ID too" --catalog x.csv)
_replay_card_refused(unknown_gpu "--gpu: 'h999' is not in the catalog; expected one of: " --gpu h999)
_replay_card_refused(too_small "--card-gib: a card of 0\\.5 GiB as its runtime reports it, 536870912 bytes, less the memory outside the allocator, 718077952 bytes leaves no byte to the allocator"
  --card-gib 0.5)
_replay_card_refused(not_a_number "--card-gib: '24GB' .*expected the GiB a card's runtime reports" --card-gib 24GB)

# --on-gpu: PyTorch's own allocator beside the simulation. Where the build
# has no LibTorch with CUDA it cannot be reached: exit 2, one line, after the
# input is checked (the GPU side is checked by gpu.replay_on_gpu_*).
if(NOT ITERAGPU_HAS_TORCH_CUDA)
  iteragpu_cli_case(replay_on_gpu_without_cuda PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "--on-gpu: .*; expected a build against a LibTorch with CUDA and a GPU it can reach"
    ARGS replay "${_traces}/conv_train.recorded.pickle" --on-gpu --alloc-conf expandable_segments:True)
endif()
iteragpu_cli_case(replay_on_gpu_checks_the_file_first PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'missing\\.pickle' does not exist; expected a snapshot file" ARGS replay missing.pickle --on-gpu)
iteragpu_cli_case(replay_on_gpu_not_with_smallest_capacity PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--on-gpu and --smallest-capacity do not go together" ARGS replay missing.pickle --on-gpu --smallest-capacity)
