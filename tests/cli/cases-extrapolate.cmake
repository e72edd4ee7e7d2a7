# mesure_memoire extrapolate: snapshots of one program at several sizes,
# matched, fitted and built at other sizes, with no GPU; and calcul_forfaits
# --fits FILE --size N reading its JSON. The snapshots under
# tests/data/extrapolate/ are written by make_fixtures.py there: a program
# whose requests are constant, affine and quadratic in the size (at 1, 2, 3
# and 4: a fourth size confirms a quadratic); the same with a workspace that
# follows no function of it; the program at 2 with a scratch buffer more.
set(_ex "${PROJECT_SOURCE_DIR}/tests/data/extrapolate")
set(_ex_affine "${_ex}/affine.b1.json" "${_ex}/affine.b2.json" "${_ex}/affine.b3.json" "${_ex}/affine.b4.json")
set(_ex_workspace "${_ex}/workspace.b1.json" "${_ex}/workspace.b2.json" "${_ex}/workspace.b3.json"
    "${_ex}/workspace.b4.json")

iteragpu_cli_case(extrapolate_help PROGRAM mesure_memoire EXIT 0
  STDOUT "--capacity-bytes.*--capacity-gib.*--memory-fraction.*--card-gib.*--largest.*--gpu ID.*may repeat.*--verbose"
  ARGS extrapolate --help)
# Every request explained: one figure per size, exact; at 4, the recorded
# trace itself; each size's line says which cards hold it.
iteragpu_cli_case(extrapolate_affine_text PROGRAM mesure_memoire EXIT 0
  STDOUT "^Extrapolation of 4 snapshots at sizes 1, 2, 3, 4; the requests of '[^']*affine\\.b4\\.json' \\(size 4\\) are followed \\(a prediction\\)\nsize 4, recorded settings, capacity unlimited: peak allocated 58720256 bytes \\(56\\.00 MiB\\), peak reserved 71303168 bytes \\(68\\.00 MiB\\), 0 allocation retries; fits every card judged\nsize 16, recorded settings, capacity unlimited: peak allocated 612368384 bytes \\(584\\.00 MiB\\), peak reserved 643825664 bytes \\(614\\.00 MiB\\), 0 allocation retries; fits every card judged\nAssumed: 718077952 bytes outside the allocator on every card \\(the CUDA context and library handles of PyTorch 2\\.11 measured on an H200; another card, driver or PyTorch differs: --outside-bytes to change it\\); settings replayed: recorded settings\nMemory rule.*\nModel: 7 requests of the reference \\(size 4\\): 1 constant, 4 affine, 2 quadratic; its path holds from size 1\n$"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --to 4 --to 16)
# The same through three sizes only: a parabola through three points is not
# confirmed, so the quadratic requests are ranges, never an error.
iteragpu_cli_case(extrapolate_three_point_quadratic_is_a_range PROGRAM mesure_memoire EXIT 0
  STDOUT "size 16, recorded settings, capacity unlimited: peak allocated 92275200 bytes \\(88\\.00 MiB\\), peak reserved 106954752 bytes \\(102\\.00 MiB\\) to 291504128 bytes \\(278\\.00 MiB\\) \\(a range\\).*1 constant, 4 affine, 2 unexplained"
  ARGS extrapolate "${_ex}/affine.b1.json" "${_ex}/affine.b2.json" "${_ex}/affine.b4.json" --sizes 1,2,4 --to 16)
iteragpu_cli_case(extrapolate_affine_json PROGRAM mesure_memoire EXIT 0
  STDOUT "\"predictions\":\\[\\{\"size\":4,\"alloc_conf\":\"\",\"capacity_bytes\":100000000,\"peak_allocated_bytes\":58720256,\"peak_reserved_bytes\":71303168,\"alloc_retries\":0,\"oom\":false,\"exact\":true\\},\\{\"size\":4,\"alloc_conf\":\"expandable_segments:True\",\"capacity_bytes\":100000000,\"peak_allocated_bytes\":58720256,\"peak_reserved_bytes\":62914560,\"alloc_retries\":0,\"oom\":false,\"exact\":true\\}\\]"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --to 4 --alloc-conf= --alloc-conf expandable_segments:True
       --capacity-bytes 100000000 --device-memory-bytes 150109880320 --json)
# The largest size under 1 GiB: 21 completes, 22 does not; its margin.
iteragpu_cli_case(extrapolate_largest_capacity PROGRAM mesure_memoire EXIT 0
  STDOUT "Largest size, recorded settings:\n  --capacity-bytes 1073741824, capacity 1073741824 bytes \\(1\\.00 GiB\\): 21, margin 16777216 bytes \\(16\\.00 MiB\\); 22 does not fit\n"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --largest --capacity-bytes 1073741824)
# The same capacity in GiB, and as PyTorch's fraction of a card's memory:
# 0.25 of an H100's 85017493504 bytes is 21254373376.
iteragpu_cli_case(extrapolate_largest_capacity_gib PROGRAM mesure_memoire EXIT 0
  STDOUT "--capacity-gib 1, 1073741824 bytes \\(rounded down\\), capacity 1073741824 bytes \\(1\\.00 GiB\\): 21,"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --largest --capacity-gib 1)
iteragpu_cli_case(extrapolate_largest_memory_fraction PROGRAM mesure_memoire EXIT 0
  STDOUT "--memory-fraction 0\\.25 of 85017493504 bytes, 21254373376 bytes as set_per_process_memory_fraction computes it"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --largest --memory-fraction 0.25 --device-memory-bytes 85017493504)
# --gpu repeats: one answer per card, and the JSON carries each card's verdicts.
iteragpu_cli_case(extrapolate_largest_gpu PROGRAM mesure_memoire EXIT 0
  STDOUT "\"largest\":\\[\\{\"capacity_bytes\":83452354887,\"alloc_conf\":\"\",\"gpu\":\"h100-sxm\",\"size\":198,\"at_limit\":false,\"exact\":true,\"margin_bytes\":174448967\\},\\{\"capacity_bytes\":[0-9]+,\"alloc_conf\":\"\",\"gpu\":\"l4\",\"size\":[0-9]+"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --largest --gpu h100-sxm --gpu l4 --json)
iteragpu_cli_case(extrapolate_largest_every_gpu PROGRAM mesure_memoire EXIT 0
  STDOUT "  h200, capacity 147803439104 bytes \\(137\\.65 GiB\\): 264, margin 233144320 bytes \\(222\\.34 MiB\\); 265 does not fit\n.*  l4, capacity"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --largest)
# A workspace that follows no function: a range, summarised; --verbose lists it.
iteragpu_cli_case(extrapolate_unexplained_range PROGRAM mesure_memoire EXIT 0
  STDOUT "size 8, recorded settings, capacity unlimited: peak allocated 176160768 bytes \\(168\\.00 MiB\\), peak reserved 209715200 bytes \\(200\\.00 MiB\\) to 220200960 bytes \\(210\\.00 MiB\\) \\(a range\\).*  2 unexplained \\(no confirmed function: each a range, from the largest sizes seen\\), 35\\.71 % of the reference's peak of bytes asked at once at most; the largest: event 3 \\(3145728 at 1, 17825792 at 2, 5242880 at 3, 10485760 at 4\\).*--verbose lists"
  STDOUT_NOT "unexplained: event"
  ARGS extrapolate ${_ex_workspace} --sizes 1,2,3,4 --to 8)
iteragpu_cli_case(extrapolate_unexplained_verbose PROGRAM mesure_memoire EXIT 0
  STDOUT "  unexplained: event 3, sizes 3145728 at 1, 17825792 at 2, 5242880 at 3, 10485760 at 4; 17\\.85 % of the reference's peak of requested bytes\n"
  ARGS extrapolate ${_ex_workspace} --sizes 1,2,3,4 --to 8 --verbose)
iteragpu_cli_case(extrapolate_unexplained_json PROGRAM mesure_memoire EXIT 0
  STDOUT "\"unexplained\":\\[\\{\"event\":3,\"observed_bytes\":\\[3145728,17825792,5242880,10485760\\],\"reference_bytes\":10485760,\"reference_peak_requested_bytes\":58720256\\}.*\"exact\":false,\"peak_reserved_bytes_upper\":220200960,\"upper\":\\{\"peak_allocated_bytes\":176160768,\"peak_reserved_bytes\":220200960,\"alloc_retries\":0,\"oom\":false\\}"
  ARGS extrapolate ${_ex_workspace} --sizes 1,2,3,4 --to 8 --json)
# Under a capacity the range's lower end holds and its upper end does not:
# the prediction runs out of memory (oom true), and the text says which end.
# Weights of 100 MiB and a workspace of 10, 30 and 20 MiB at 1, 2 and 3
# (no function): at 6, from 20 to 40 MiB beside the weights; 130 MiB hold
# the lower end only.
set(_ex_ws "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-ws")
foreach(_pair "1:10485760" "2:31457280" "3:20971520")
  string(REPLACE ":" ";" _pair "${_pair}")
  list(GET _pair 0 _n)
  list(GET _pair 1 _w)
  file(WRITE "${_ex_ws}${_n}.json"
    "{\"segments\": [], \"device_traces\": [[{\"action\": \"alloc\", \"addr\": 4096, \"size\": 104857600, \"stream\": 0}, {\"action\": \"alloc\", \"addr\": 8192, \"size\": ${_w}, \"stream\": 0}, {\"action\": \"free_completed\", \"addr\": 8192, \"size\": ${_w}, \"stream\": 0}, {\"action\": \"free_completed\", \"addr\": 4096, \"size\": 104857600, \"stream\": 0}]]}")
endforeach()
iteragpu_cli_case(extrapolate_range_hides_no_oom PROGRAM mesure_memoire EXIT 0
  STDOUT "\"peak_reserved_bytes\":125829120,\"alloc_retries\":0,\"oom\":true,\"exact\":false,\"peak_reserved_bytes_upper\":104857600,\"upper\":\\{\"peak_allocated_bytes\":104857600,\"peak_reserved_bytes\":104857600,\"alloc_retries\":1,\"oom\":true\\}"
  ARGS extrapolate "${_ex_ws}1.json" "${_ex_ws}2.json" "${_ex_ws}3.json" --sizes 1,2,3 --to 6 --capacity-bytes 136314880 --json)
iteragpu_cli_case(extrapolate_range_oom_text PROGRAM mesure_memoire EXIT 0
  STDOUT "size 6, recorded settings, capacity 136314880 bytes \\(130\\.00 MiB\\): peak allocated 125829120 bytes \\(120\\.00 MiB\\), peak reserved 125829120 bytes \\(120\\.00 MiB\\); the upper end of the range runs out of memory, 0 allocation retries\n"
  STDOUT_NOT " to 104857600"
  ARGS extrapolate "${_ex_ws}1.json" "${_ex_ws}2.json" "${_ex_ws}3.json" --sizes 1,2,3 --to 6 --capacity-bytes 136314880)
iteragpu_cli_case(extrapolate_unmatched PROGRAM mesure_memoire EXIT 0
  STDOUT "unmatched: 1 request\\(s\\) of '[^']*extra\\.b2\\.json' \\(size 2\\) from request 3 \\(event 3\\)"
  ARGS extrapolate "${_ex}/affine.b1.json" "${_ex}/extra.b2.json" "${_ex}/affine.b4.json" --sizes 1,2,4 --to 8 --verbose)

# Bad input: one line naming it, exit 2, nothing on stdout.
function(_ex_refused name message)
  iteragpu_cli_case(extrapolate_${name} PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "${message}" ARGS extrapolate ${ARGN})
endfunction()
# Expandable segments are sized by the device's memory, which no default
# stands for: a prediction under them names the card's memory, and --gpu,
# which gives its own, takes no other.
_ex_refused(expandable_without_device_memory
  "^mesure_memoire extrapolate: --alloc-conf 'expandable_segments:True': expandable segments reserve an address space of 9/8 of the device's memory, which no flag gives; expected --device-memory-bytes N\n$"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --alloc-conf expandable_segments:True)
_ex_refused(device_memory_with_gpu "--gpu and --device-memory-bytes do not go together"
  ${_ex_affine} --sizes 1,2,3,4 --largest --gpu h100-sxm --device-memory-bytes 150109880320)
_ex_refused(device_memory_zero "--device-memory-bytes"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --device-memory-bytes 0)
_ex_refused(one_snapshot "expected two snapshot files or more \\(one per size of --sizes\\), got 1"
  "${_ex}/affine.b1.json" --sizes 1 --to 2)
_ex_refused(missing_file "'missing\\.json' does not exist; expected a snapshot file"
  missing.json "${_ex}/affine.b2.json" --sizes 1,2 --to 4)
_ex_refused(not_a_snapshot "LICENSE\\.txt': byte 0 is 0x4d: neither a pickle"
  "${_ex}/affine.b1.json" "${PROJECT_SOURCE_DIR}/LICENSE.txt" --sizes 1,2 --to 4)
_ex_refused(sizes_missing "--sizes is required; expected comma-separated positive integers up to 1000000"
  ${_ex_affine} --to 4)
_ex_refused(sizes_count "--sizes: 2 size\\(s\\) for 4 snapshots; expected one size per snapshot, in order"
  ${_ex_affine} --sizes 1,2 --to 4)
_ex_refused(sizes_repeated "--sizes: 2 is given twice; expected one snapshot per size, each size once"
  ${_ex_affine} --sizes 1,2,2,4 --to 4)
_ex_refused(size_zero "--sizes: '0' is too small; expected comma-separated positive integers up to 1000000"
  ${_ex_affine} --sizes 0,2,3,4 --to 4)
_ex_refused(to_past_limit "--to: '1000001' is too large; expected comma-separated positive integers up to 1000000"
  ${_ex_affine} --sizes 1,2,3,4 --to 1000001)
_ex_refused(nothing_asked "nothing asked; expected --to N \\(sizes to predict\\) or --largest"
  ${_ex_affine} --sizes 1,2,3,4)
_ex_refused(unknown_gpu "--gpu: 'nope' is not in the catalog; expected one of: b300, b200, h200"
  ${_ex_affine} --sizes 1,2,3,4 --largest --gpu nope)
_ex_refused(unknown_setting "--alloc-conf 'max_split:64': PYTORCH_CUDA_ALLOC_CONF: unknown key 'max_split'"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --alloc-conf max_split:64)
_ex_refused(setting_without_value "--alloc-conf needs a value; got the flag --json"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --alloc-conf --json)
_ex_refused(capacity_zero "--capacity-bytes: '0' is too small; expected a positive integer"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --capacity-bytes 0)
_ex_refused(no_such_device "--device-index 2: '[^']*affine\\.b1\\.json' has no trace events for that device"
  ${_ex_affine} --sizes 1,2,3,4 --to 4 --device-index 2)
# A trace whose first event frees a block no event allocated.
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-late.json"
  "{\"segments\": [], \"device_traces\": [[{\"action\": \"free_completed\", \"addr\": 4096, \"size\": 512, \"stream\": 0}]]}")
_ex_refused(starts_late "'[^']*extrapolate-late\\.json': event 0 frees a block no earlier event allocated \\(the trace starts late\\)"
  "${_ex}/affine.b1.json" "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-late.json" --sizes 1,2 --to 4)
# A snapshot holding a segment no event of its trace reserved.
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-held.json"
  "{\"segments\": [{\"device\": 0, \"address\": 28672, \"total_size\": 2097152, \"stream\": 0, \"segment_type\": \"small\", \"blocks\": []}], \"device_traces\": [[{\"action\": \"alloc\", \"addr\": 4096, \"size\": 512, \"stream\": 0}]]}")
_ex_refused(segment_unexplained "'[^']*extrapolate-held\\.json': the snapshot holds the segment at address 28672 that no event of its trace reserved \\(the trace starts late\\)"
  "${_ex}/affine.b1.json" "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-held.json" --sizes 1,2 --to 4)
# 90 bytes at 1, 80 at 2: 100 - 10·n is below 0 past 10. Never an error:
# from 11 the request is a range from 0 to the most seen.
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-falling-1.json"
  "{\"segments\": [], \"device_traces\": [[{\"action\": \"alloc\", \"addr\": 4096, \"size\": 90, \"stream\": 0}]]}")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-falling-2.json"
  "{\"segments\": [], \"device_traces\": [[{\"action\": \"alloc\", \"addr\": 4096, \"size\": 80, \"stream\": 0}]]}")
iteragpu_cli_case(extrapolate_falling_fit_is_a_range PROGRAM mesure_memoire EXIT 0
  STDOUT "size 11, recorded settings, capacity unlimited: peak allocated 0 bytes, peak reserved 0 bytes to 2097152 bytes \\(2\\.00 MiB\\) \\(a range\\)"
  ARGS extrapolate "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-falling-1.json"
       "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-falling-2.json" --sizes 1,2 --to 10,11)
# An action PyTorch does not write is refused where it stands, not skipped;
# a trace that allocates nothing is refused as a reference.
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-unknown-action.json"
  "{\"segments\": [], \"device_traces\": [[{\"action\": \"alloc\", \"addr\": 4096, \"size\": 90, \"stream\": 0}, {\"action\": \"allocate\", \"addr\": 8192, \"size\": 90, \"stream\": 0}]]}")
_ex_refused(unknown_action "extrapolate-unknown-action\\.json' is not a memory snapshot: device_traces\\[0\\]\\[1\\]\\.action holds a word this reader does not know"
  "${_ex}/affine.b1.json" "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-unknown-action.json" --sizes 1,2 --to 4)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-segments-only.json"
  "{\"segments\": [], \"device_traces\": [[{\"action\": \"segment_alloc\", \"addr\": 4096, \"size\": 2097152, \"stream\": 0}, {\"action\": \"segment_free\", \"addr\": 4096, \"size\": 2097152, \"stream\": 0}]]}")
_ex_refused(no_allocation "extrapolate-segments-only\\.json': its trace makes no allocation"
  "${_ex}/affine.b1.json" "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-segments-only.json" --sizes 1,2 --to 4)
# The capacities: each refused with its flag, before any file is read.
_ex_refused(outside_larger_than_card
  "^mesure_memoire extrapolate: --gpu l4: the low end of its memory under the memory rule, 23417987058 bytes, less the memory outside the allocator, 30000000000 bytes leaves no byte to the allocator; expected a card with more memory, or a smaller --outside-bytes\n$"
  ${_ex_affine} --sizes 1,2,3,4 --largest --gpu l4 --outside-bytes 30000000000)
_ex_refused(fraction_without_device_memory "--memory-fraction '0\\.25': a fraction of the device's memory, which no flag gives; expected --device-memory-bytes N too"
  ${_ex_affine} --sizes 1,2,3,4 --largest --memory-fraction 0.25)
_ex_refused(fraction_out_of_range "--memory-fraction: '1\\.5' is outside \\(0, 1\\]; expected a decimal above 0 and at most 1"
  ${_ex_affine} --sizes 1,2,3,4 --largest --memory-fraction 1.5 --device-memory-bytes 85017493504)
_ex_refused(capacity_gib_zero "--capacity-gib: '0' is below one byte"
  ${_ex_affine} --sizes 1,2,3,4 --largest --capacity-gib 0)
_ex_refused(gpu_twice "--gpu: 'h200' is given twice; expected each GPU once"
  ${_ex_affine} --sizes 1,2,3,4 --largest --gpu h200 --gpu h200)
# --to with --gpu: the size's line says which of the cards hold it.
iteragpu_cli_case(extrapolate_to_on_cards PROGRAM mesure_memoire EXIT 0
  STDOUT "size 200, recorded settings, capacity unlimited: [^\n]*; fits h200; not rtx-4090\n"
  ARGS extrapolate ${_ex_affine} --sizes 1,2,3,4 --to 200 --gpu h200 --gpu rtx-4090)

# calcul_forfaits --fits FILE --size N: tests/data/fits/extrapolation.json is
# `extrapolate` of the workspace snapshots --to 8,64 --json, which judges
# every card of the catalog at those sizes; calcul_forfaits lists the cards
# judged to hold the size, each with the need of its own replay.
set(_ex_fits "${PROJECT_SOURCE_DIR}/tests/data/fits/extrapolation.json")
iteragpu_cli_case(calcul_forfaits_fits_extrapolation PROGRAM calcul_forfaits EXIT 0
  STDOUT "holds 9991684096 bytes \\(9\\.31 GiB\\).*need +extrapolate --json at size 64, judged GPU by GPU: the trace at that size replayed under each GPU's capacity \\(its memory's low end less the 718077952 bytes outside the allocator it assumed\\)"
  ARGS --fits "${_ex_fits}" --size 64)
function(_ex_cf_refused name message)
  iteragpu_cli_case(calcul_forfaits_${name} PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "${message}" ARGS ${ARGN})
endfunction()
# Every key read is checked for presence and type; a range's upper end below its lower end is refused.
_ex_cf_refused(extrapolation_oom_missing "extrapolation-oom-missing\\.json': extrapolate --json whose cards\\[2\\] at size 64 has no oom \\(expected true or false\\)"
  --fits "${PROJECT_SOURCE_DIR}/tests/data/fits/extrapolation-oom-missing.json" --size 64)
_ex_cf_refused(extrapolation_oom_text "extrapolation-oom-text\\.json': extrapolate --json whose cards\\[2\\] at size 64 has a oom that is not true or false"
  --fits "${PROJECT_SOURCE_DIR}/tests/data/fits/extrapolation-oom-text.json" --size 64)
_ex_cf_refused(extrapolation_range_without_upper "extrapolation-range-without-upper\\.json': extrapolate --json whose cards\\[2\\] at size 64 is a range \\(exact false\\) with no upper object"
  --fits "${PROJECT_SOURCE_DIR}/tests/data/fits/extrapolation-range-without-upper.json" --size 64)
_ex_cf_refused(extrapolation_upper_below_lower "extrapolation-upper-below-lower\\.json': extrapolate --json whose cards\\[2\\] at size 64 has an upper end of 8948547583 bytes below its lower end of 8948547584"
  --fits "${PROJECT_SOURCE_DIR}/tests/data/fits/extrapolation-upper-below-lower.json" --size 64)
_ex_cf_refused(extrapolation_without_size
  "extrapolation\\.json': extrapolate --json, which gives a need only at one size \\(expected --size N\\)"
  --fits "${_ex_fits}")
_ex_cf_refused(extrapolation_other_size
  "extrapolate --json with no card judged at size 9 under the recorded settings \\(run mesure_memoire extrapolate with --to 9\\)"
  --fits "${_ex_fits}" --size 9)
_ex_cf_refused(size_with_plan "plan\\.json': a document that is not extrapolate --json, which --size N does not go with"
  --fits "${PROJECT_SOURCE_DIR}/tests/data/fits/plan.json" --size 8)
_ex_cf_refused(size_without_fits "--size goes with --fits FILE" --fits-gib 3 --size 8)
_ex_cf_refused(size_with_quote "--size goes with --fits FILE" --gpu h200 --days 3 --lots 1 --size 2)
_ex_cf_refused(size_zero "--size: '0' is too small; expected a positive integer" --fits "${_ex_fits}" --size 0)

# --torchscript: the snapshots recorded by `measure`, one process per size.
add_test(NAME cli.extrapolate_torchscript_records_each_size
  COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:mesure_memoire>" "-DSOURCE=${PROJECT_SOURCE_DIR}"
          "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/extrapolate-recording"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/extrapolate_recording.cmake")
set_tests_properties(cli.extrapolate_torchscript_records_each_size PROPERTIES LABELS cli)
# Without a GPU (or a LibTorch that records the allocator's history), the
# first size's `measure` says so: its exit code and its words, and no folder.
iteragpu_cli_case(extrapolate_torchscript_without_gpu PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^mesure_memoire extrapolate: size 1: `measure` exited 2: mesure_memoire measure: "
  ABSENT "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-no-gpu"
  ARGS extrapolate --torchscript "${PROJECT_SOURCE_DIR}/tests/data/torchscript/layout-only.pt" --input Bx8:int64
       --sizes 1,2 --traces "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-no-gpu" --to 4)
_ex_refused(torchscript_no_size_letter "--input: no input has a dimension B; expected B where the size goes"
  --torchscript model.pt --input 8x128:int64 --sizes 1,2 --traces t --to 4)
_ex_refused(torchscript_bad_input "--input: 'Bx:int64' .*; expected .*, B standing for the size"
  --torchscript model.pt --input Bx:int64 --sizes 1,2 --traces t --to 4)
_ex_refused(torchscript_one_size "--sizes: --torchscript needs two sizes or more to record; expected e.g. 2,3,4,16"
  --torchscript model.pt --input Bx8:int64 --sizes 1 --traces t --to 4)
_ex_refused(torchscript_and_files "unexpected word '[^']*affine\\.b1\\.json'; --torchscript records the snapshots"
  "${_ex}/affine.b1.json" --torchscript model.pt --input Bx8:int64 --sizes 1,2 --traces t --to 4)
_ex_refused(torchscript_no_traces "--traces is required; expected a new folder for the recorded snapshots"
  --torchscript model.pt --input Bx8:int64 --sizes 1,2 --to 4)
_ex_refused(input_without_torchscript "--input goes with --torchscript; expected --torchscript FILE too"
  ${_ex_affine} --sizes 1,2,3,4 --input Bx8:int64 --to 4)

# One answer from a trace to a package, on every card of the shipped catalog
# (extrapolate_agreement.py): --largest, --to N --gpu C, calcul_forfaits
# --fits --size N and replay --gpu C agree on the committed transformer
# encoder traces, and the text answer of --largest fits in 25 lines.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME cli.extrapolate_agrees_with_calcul_forfaits
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/extrapolate_agreement.py"
            "$<TARGET_FILE:mesure_memoire>" "$<TARGET_FILE:calcul_forfaits>" "${PROJECT_SOURCE_DIR}/tests/data/sizes"
            "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-agreement")
  # 96 s under the sanitizers against 4 s: the asan preset leaves it out (label whole_catalog).
  set_tests_properties(cli.extrapolate_agrees_with_calcul_forfaits PROPERTIES LABELS "cli;whole_catalog"
    PASS_REGULAR_EXPRESSION "16 cards: --largest, --to --gpu, calcul_forfaits --fits --size and replay --gpu agree")
endif()

# `replay` reads snapshots with the same reader: an action PyTorch does not
# write is refused where it stands (exit 2), never skipped into peaks of 0.
iteragpu_cli_case(replay_unknown_action PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "extrapolate-unknown-action\\.json' is not a memory snapshot: device_traces\\[0\\]\\[1\\]\\.action holds a word this reader does not know"
  ARGS replay "${CMAKE_CURRENT_BINARY_DIR}/extrapolate-unknown-action.json")
# --gpu repeats on replay too: one replay per card, each with its capacity line.
iteragpu_cli_case(replay_gpu_repeated PROGRAM mesure_memoire EXIT 0
  STDOUT "^Capacity: 22699909106 bytes \\(21\\.14 GiB\\) on l4: [^\n]*\n.*\n\nCapacity: 24414411161 bytes \\(22\\.74 GiB\\) on rtx-4090: "
  ARGS replay "${PROJECT_SOURCE_DIR}/tests/data/sizes/encoder_train.b64.pickle" --gpu l4 --gpu rtx-4090)
