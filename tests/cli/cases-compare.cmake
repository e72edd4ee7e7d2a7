# mesure_memoire compare, end to end: the committed measurements of
# tests/data/measurements/ (README.md there says where each comes from).
set(_measurements "${PROJECT_SOURCE_DIR}/tests/data/measurements")

iteragpu_cli_case(compare_same_configuration PROGRAM mesure_memoire EXIT 0
  STDOUT "\nverdict: B against A: memory SAME \\(14 rows; 10 warm_forward rows only in A\\), time SAME \\(gpu_seconds of warm_forward, median \\+0\\.0 %\\), environment same, configuration same\n$"
  ARGS compare "${_measurements}/fake-small-float32-repeats20.json" "${_measurements}/fake-small-float32-auto.json")
# Times in the unit that reads them, with four significant digits: 30.00 µs, not 3.000e-05 s.
iteragpu_cli_case(compare_times_in_microseconds PROGRAM mesure_memoire EXIT 0
  STDOUT "\n  gpu_seconds: A 30\\.00 µs \\[29\\.97, 30\\.06\\] n=20; B 33\\.00 µs \\[32\\.97, 33\\.07\\] n=20: SLOWER "
  ARGS compare "${_measurements}/fake-small-float32-repeats20.json" "${_measurements}/fake-small-float32-slower.json")
iteragpu_cli_case(compare_faster_on_another_driver PROGRAM mesure_memoire EXIT 0
  STDOUT "  driver      580\\.00\\.00 +575\\.57\\.08 +different\n.*time FASTER \\(gpu_seconds of warm_forward, median -10\\.0 %\\), environment differs in driver,"
  ARGS compare "${_measurements}/fake-small-float32-repeats20.json"
       "${_measurements}/fake-small-float32-faster-other-driver.json")
iteragpu_cli_case(compare_float16_bfloat16_json PROGRAM mesure_memoire EXIT 0
  STDOUT "\"configuration\":\\{\"same\":false,\"differences\":\\[\\{\"setting\":\"dtype\",\"a\":\"float16\",\"b\":\"bfloat16\"\\}\\]\\}.*\"memory\":\\{\"verdict\":\"SAME\""
  ARGS compare "${_measurements}/fake-rate-float16.json" "${_measurements}/fake-rate-bfloat16.json" --json)
# A schema-1 file from the H200 against the schema-2 file of the same shape
# (its rows are the prediction): the same bytes; 5 repeats give no interval.
iteragpu_cli_case(compare_schema_1_with_schema_2 PROGRAM mesure_memoire EXIT 0
  STDOUT "A: h200-rate-float16-v1\\.json: schema 1, .*statistics computed from the rows\n.*memory SAME \\(9 rows; 5 warm_forward rows only in B\\), time AMBIGUOUS \\(gpu_seconds of warm_forward, no confidence interval: 5 repeats or fewer\\)"
  ARGS compare "${_measurements}/h200-rate-float16-v1.json" "${_measurements}/fake-rate-float16.json")
iteragpu_cli_case(compare_different_memory PROGRAM mesure_memoire EXIT 0
  STDOUT "  model_load: end_allocated_bytes 132608 -> 268476416 \\(\\+268343808\\);.*memory DIFFERENT \\(6 of 6 rows; 3 warm_forward rows only in B\\)"
  ARGS compare "${_measurements}/h200-small-float32-v1.json" "${_measurements}/h200-rate-float16-v1.json")

# What is not a measurement: exit 2, one line naming the file, nothing on
# stdout, in either place.
set(_good "${_measurements}/h200-small-float32-v1.json")
foreach(_case
    "not-json|is not JSON \\(syntax error at byte 0 of 42\\)"
    "array|the top level is an array"
    "missing-phases|the document has no \"phases\""
    "phase-wrong-type|phases\\[2\\]\\.phase is the number 7; expected a string"
    "negative-bytes|phases\\[1\\]\\.end_allocated_bytes is the number -136704"
    "unknown-schema-version|schema_version is the number 3, not one this program reads"
    "estimate|it is the weight estimate mesure_memoire estimate --json prints"
    "plan|it is the prediction mesure_memoire plan --json prints"
    "truncated|is not JSON \\(incomplete JSON at byte 1586 of 1586\\)"
    "empty|is empty; expected a measurement")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _says)
  set(_bad "${_measurements}/malformed/${_name}.json")
  iteragpu_cli_case(compare_refuses_${_name}_as_b PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "^mesure_memoire compare: '[^']*/malformed/${_name}\\.json' .*${_says}" ARGS compare "${_good}" "${_bad}")
  iteragpu_cli_case(compare_refuses_${_name}_as_a PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "^mesure_memoire compare: '[^']*/malformed/${_name}\\.json' .*${_says}" ARGS compare "${_bad}" "${_good}"
    --json)
endforeach()
iteragpu_cli_case(compare_refuses_a_missing_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'[^']*/no-such-measurement\\.json' does not exist; expected a measurement, the JSON file mesure_memoire measure --output writes"
  ARGS compare "${_good}" "${_measurements}/no-such-measurement.json")
iteragpu_cli_case(compare_refuses_a_folder PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'[^']*/measurements' is a folder; expected a measurement" ARGS compare "${_measurements}" "${_good}")
iteragpu_cli_case(compare_needs_two_files PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "expected two measurement files, A\\.json B\\.json; got one" ARGS compare "${_good}")
iteragpu_cli_case(compare_refuses_a_third_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "unexpected word 'c\\.json'" ARGS compare "${_good}" "${_good}" c.json)
iteragpu_cli_case(compare_help PROGRAM mesure_memoire EXIT 0 STDOUT "usage: mesure_memoire compare A\\.json B\\.json \\[--json\\]"
  ARGS compare --help)
iteragpu_cli_case(stdout_full_compare PROGRAM mesure_memoire EXIT 1 STDOUT_FILE /dev/full ONE_LINE_STDERR
  STDERR "could not be written to standard output" ARGS compare "${_good}" "${_good}")
