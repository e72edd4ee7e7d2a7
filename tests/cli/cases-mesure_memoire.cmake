# mesure_memoire environment and measure on a machine without a GPU (or in a
# build without LibTorch): the guards, for real.
set(_out "${CMAKE_CURRENT_BINARY_DIR}/measure-out")
file(MAKE_DIRECTORY "${_out}")
set(_seed_small --batch 1 --context 16 --width 64 --dtype float32 --warmup 1 --repeats 2)

if(ITERAGPU_HAS_TORCH)
  set(_why "LibTorch has no GPU runtime|sees no GPU|is not visible")
else()
  set(_why "this build has no LibTorch")
endif()
if(NOT ITERAGPU_HAS_TORCH_CUDA)
  # Where a GPU could be reachable (a CUDA LibTorch), these runs would
  # measure; the GPU tests cover that machine.
  iteragpu_cli_case(measure_without_gpu_exits_2 PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "cuda:0 cannot be measured: .*(${_why}).*no file was written"
    ABSENT "${_out}/mesures-petit-essai.json"
    ARGS measure --device cuda:0 ${_seed_small} --output "${_out}/mesures-petit-essai.json")
  iteragpu_cli_case(environment_without_gpu_exits_0 PROGRAM mesure_memoire EXIT 0
    STDOUT "\"device\":\\{\"requested\":\"cuda:0\",\"available\":false,\"reason\":\"[^\"]*(${_why})"
    ARGS environment --device cuda:0)
endif()
iteragpu_cli_case(measure_refuses_cpu PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--device: 'cpu' is not accepted" ABSENT "${_out}/cpu.json"
  ARGS measure --device cpu ${_seed_small} --output "${_out}/cpu.json")
iteragpu_cli_case(measure_refuses_an_existing_output PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "already exists" EXISTING "${_out}/existing.json"
  ARGS measure --device cuda:0 ${_seed_small} --output "${_out}/existing.json")
iteragpu_cli_case(measure_refuses_a_missing_folder PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "does not exist" ABSENT "${_out}/missing"
  ARGS measure --device cuda:0 ${_seed_small} --output "${_out}/missing/m.json")
iteragpu_cli_case(measure_bad_dtype PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--dtype: 'half'" ABSENT "${_out}/half.json"
  ARGS measure --device cuda:0 --dtype half --output "${_out}/half.json")
iteragpu_cli_case(measure_help PROGRAM mesure_memoire EXIT 0 STDOUT "--repeats" ARGS measure --help)
# One byte is "1 byte": 8 bits per parameter, and 16 bits for the plural.
iteragpu_cli_case(estimate_says_1_byte_per_parameter PROGRAM mesure_memoire EXIT 0
  STDOUT "8 bits -> 1 byte per parameter" ARGS estimate --parameters 1 --bits 8)
iteragpu_cli_case(estimate_says_2_bytes_per_parameter PROGRAM mesure_memoire EXIT 0
  STDOUT "16 bits -> 2 bytes per parameter" ARGS estimate --parameters 1 --bits 16)
iteragpu_cli_case(environment_malformed_device PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--device: 'cuda'" ARGS environment --device cuda)
iteragpu_cli_case(environment_refuses_an_existing_output PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "already exists" EXISTING "${_out}/env-existing.json"
  ARGS environment --output "${_out}/env-existing.json")
# Output paths that cannot be written: a folder, and a folder of the kernel's
# (files cannot be created in /proc, even by root).
iteragpu_cli_case(environment_output_is_a_folder PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "already exists" ARGS environment --output "${_out}")
iteragpu_cli_case(environment_output_unwritable PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "cannot write '/proc/iteragpu-environment.json'" ABSENT "/proc/iteragpu-environment.json"
  ARGS environment --output /proc/iteragpu-environment.json)
iteragpu_cli_case(measure_output_is_a_folder PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "already exists" ARGS measure --device cuda:0 --output "${_out}")
iteragpu_cli_case(measure_repeated_flag PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--width" ABSENT "${_out}/repeated.json"
  ARGS measure --device cuda:0 --width 64 --width 128 --output "${_out}/repeated.json")
iteragpu_cli_case(measure_trailing_junk PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--batch: '2x'" ABSENT "${_out}/junk.json"
  ARGS measure --device cuda:0 --batch 2x --output "${_out}/junk.json")

# measure --torchscript and --aoti: the file and the inputs are checked
# without LibTorch and before any GPU is touched, so a machine without a GPU
# reports them. _measure_refused(NAME OUT MESSAGE ARG...): `measure ARG...
# --device cuda:0 --output OUT` exits 2 with MESSAGE on one line, nothing on
# stdout, and OUT is not written.
set(_torchscript_data "${PROJECT_SOURCE_DIR}/tests/data/torchscript")
function(_measure_refused name out message)
  iteragpu_cli_case(${name} PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR STDERR "${message}"
    ABSENT "${out}" ARGS measure ${ARGN} --device cuda:0 --output "${out}")
endfunction()
# What both formats check the same way: the flag, the output file, the
# words for what is expected and for the archive, a file of that format.
foreach(_format
    "torchscript|ts.json|a TorchScript file|a TorchScript archive|layout-only.pt"
    "aoti|aoti.json|an AOTInductor package|an AOTInductor package|aoti-layout-only.pt2")
  string(REPLACE "|" ";" _f "${_format}")
  list(GET _f 0 _flag)
  list(GET _f 1 _json)
  list(GET _f 2 _expected)
  list(GET _f 3 _archive)
  list(GET _f 4 _file)
  set(_json "${_out}/${_json}")
  get_filename_component(_ext "${_file}" LAST_EXT)
  _measure_refused(measure_${_flag}_missing_file "${_json}"
    "--${_flag}: 'missing${_ext}' does not exist; expected ${_expected}" --${_flag} missing${_ext} --input 8x512:int64)
  _measure_refused(measure_${_flag}_not_an_archive "${_json}"
    "--${_flag}: '[^']*cases-mesure_memoire.cmake' is not ${_archive} .not a zip file."
    --${_flag} "${CMAKE_CURRENT_LIST_FILE}" --input 8x512:int64)
  _measure_refused(measure_${_flag}_without_input "${_json}" "--${_flag} needs --input"
    --${_flag} "${_torchscript_data}/${_file}")
  if(NOT ITERAGPU_HAS_TORCH_CUDA)
    _measure_refused(measure_${_flag}_without_gpu_exits_2 "${_json}"
      "cuda:0 cannot be measured: .*(${_why}).*no file was written"
      --${_flag} "${_torchscript_data}/${_file}" --input 8x512:int64)
  endif()
endforeach()
iteragpu_cli_case(measure_torchscript_missing_file_alone PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--torchscript: 'missing.pt' does not exist" ARGS measure --torchscript missing.pt)
_measure_refused(measure_torchscript_weights_only "${_out}/ts.json"
  "/weights-only.pt' holds weights saved by torch.save, not a module saved by torch.jit.save"
  --torchscript "${_torchscript_data}/weights-only.pt" --input 8x512:int64)
_measure_refused(measure_torchscript_bad_input "${_out}/ts.json"
  "--input: '8x512:long' has an unknown dtype at column 7; expected SIZExSIZE...:DTYPE"
  --torchscript "${_torchscript_data}/layout-only.pt" --input 8x512:long)
_measure_refused(measure_input_without_torchscript "${_out}/ts.json"
  "--input goes with --torchscript or --aoti only" --input 8x512:int64)
_measure_refused(measure_aoti_given_a_torchscript_file "${_out}/aoti.json"
  "--aoti: '[^']*layout-only.pt' is a zip file without a data/aotinductor/ entry, not an AOTInductor package"
  --aoti "${_torchscript_data}/layout-only.pt" --input 8x512:int64)
_measure_refused(measure_aoti_refuses_train "${_out}/aoti.json" "--train: an AOTInductor package is compiled for inference"
  --aoti "${_torchscript_data}/aoti-layout-only.pt2" --input 8x512:int64 --train)
_measure_refused(measure_aoti_with_torchscript "${_out}/aoti.json" "--aoti and --torchscript: one model at a time"
  --aoti "${_torchscript_data}/aoti-layout-only.pt2" --torchscript "${_torchscript_data}/layout-only.pt"
  --input 8x512:int64)

# plan: the reference configuration of the H200 (anchors/reference-h200.md),
# predicted with no GPU: cold_forward peak allocated 5,940,264,960 and peak
# reserved 5,941,231,616, the warm baseline 1,645,297,664 (weights + input +
# the 34,603,008-byte workspaces).
iteragpu_cli_case(plan_reference_h200 PROGRAM mesure_memoire EXIT 0
  STDOUT "\"phase\":\"cold_forward\",\"repeat\":null,\"baseline_allocated_bytes\":1610694656,\"baseline_reserved_bytes\":1612709888,\"end_allocated_bytes\":2182168576,\"end_reserved_bytes\":5941231616,\"peak_allocated_bytes\":5940264960,\"peak_reserved_bytes\":5941231616\\}.*\"phase\":\"warm_forward\",\"repeat\":4,\"baseline_allocated_bytes\":1645297664,"
  ARGS plan --batch 8 --context 4096 --width 8192 --dtype bfloat16 --warmup 3 --repeats 5 --json)
iteragpu_cli_case(plan_text_says_predicted PROGRAM mesure_memoire EXIT 0
  STDOUT "PREDICTED, not measured.*cold_forward +- +136704 +2097152 +34743808 +35651584 +34772480 +35651584\n"
  ARGS plan)
iteragpu_cli_case(plan_largest_batch PROGRAM mesure_memoire EXIT 0
  STDOUT "largest batch that fits: [0-9]+; batch [0-9]+ on .*does not fit"
  ARGS plan --largest batch --memory-gib 139.8 --context 4096 --width 8192 --dtype bfloat16)
iteragpu_cli_case(plan_largest_needs_memory PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--largest needs --memory-gib" ARGS plan --largest batch)
iteragpu_cli_case(plan_largest_bad_dimension PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--largest: 'depth' is not accepted; expected batch, context or width" ARGS plan --largest depth --memory-gib 80)
iteragpu_cli_case(plan_bad_memory PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--memory-gib" ARGS plan --memory-gib -1)
iteragpu_cli_case(plan_zero_memory PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--memory-gib: '0' is not a memory size" ARGS plan --memory-gib 0)
iteragpu_cli_case(plan_too_large PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--batch/--context/--width" ARGS plan --width 4294967296)
iteragpu_cli_case(measure_min_repeats_without_auto PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--min-repeats goes with --repeats auto only" ABSENT "${_out}/auto.json"
  ARGS measure --device cuda:0 --min-repeats 5 --output "${_out}/auto.json")
iteragpu_cli_case(measure_bad_repeats_word PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--repeats: 'automatic' is not a whole number in digits; expected an integer from 1 to 10000 \\(the most passes a command runs\\), or auto"
  ABSENT "${_out}/auto.json" ARGS measure --device cuda:0 --repeats automatic --output "${_out}/auto.json")
iteragpu_cli_case(measure_bad_max_noise PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--max-noise: '0' is not above 0" ABSENT "${_out}/auto.json"
  ARGS measure --device cuda:0 --repeats auto --max-noise 0 --output "${_out}/auto.json")
iteragpu_cli_case(measure_max_below_min PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "max_repeats must be at least min_repeats" ABSENT "${_out}/auto.json"
  ARGS measure --device cuda:0 --repeats auto --min-repeats 20 --max-repeats 10 --output "${_out}/auto.json")

# Every count of passes has the limit of `measure --repeats auto`
# (pass_limit, 10000): above it, plan and sweep would simulate passes
# without end (a huge --warmup) or grow until the host runs out (a huge
# --repeats). The limit is in the message; the run is capped in memory and
# time so that a regression fails instead of taking the machine.
set(_passes "an integer from 1 to 10000, the most passes a command runs")
iteragpu_cli_case(plan_repeats_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  LIMIT_AS 4294967296 TIMEOUT 30
  STDERR "^mesure_memoire plan: --repeats: '18446744073709551615' is too large; expected ${_passes}\n$"
  ARGS plan --repeats 18446744073709551615)
iteragpu_cli_case(plan_warmup_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  LIMIT_AS 4294967296 TIMEOUT 30
  STDERR "^mesure_memoire plan: --warmup: '18446744073709551615' is too large; expected an integer from 0 to 10000, the most passes a command runs\n$"
  ARGS plan --warmup 18446744073709551615)
iteragpu_cli_case(plan_warmup_one_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 30 STDERR "--warmup: '10001' is too large" ARGS plan --warmup 10001)
iteragpu_cli_case(plan_at_the_pass_limit PROGRAM mesure_memoire EXIT 0 LIMIT_AS 4294967296 TIMEOUT 60
  STDOUT "\"phase\":\"warm_forward\",\"repeat\":9999,"
  ARGS plan --warmup 10000 --repeats 10000 --json)
iteragpu_cli_case(sweep_repeats_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 30 ABSENT "${_out}/sweep-repeats"
  STDERR "--repeats: '18446744073709551615' is not a positive integer up to 10000, or auto"
  ARGS sweep --predict-only --output-dir "${_out}/sweep-repeats" --repeats 18446744073709551615)
iteragpu_cli_case(sweep_warmup_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 30 ABSENT "${_out}/sweep-warmup"
  STDERR "--warmup: '18446744073709551615' is too large; expected an integer from 0 to 10000"
  ARGS sweep --predict-only --output-dir "${_out}/sweep-warmup" --warmup 18446744073709551615)
iteragpu_cli_case(measure_repeats_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--repeats: '10001' is too large; expected an integer from 1 to 10000" ABSENT "${_out}/passes.json"
  ARGS measure --device cuda:0 --repeats 10001 --output "${_out}/passes.json")
iteragpu_cli_case(measure_max_repeats_above_the_pass_limit PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--max-repeats: '10001' is too large; expected ${_passes}" ABSENT "${_out}/passes.json"
  ARGS measure --device cuda:0 --repeats auto --max-repeats 10001 --output "${_out}/passes.json")

# A workspace total whose cuBLAS part the caching allocator refuses (2^60
# bytes or more) is the fault of --workspace-bytes, not of the shape.
set(_workspace "a non-negative integer up to 1152921504607895551")
foreach(_total IN ITEMS 18446744073709551615 2305843009213693952 1152921504607895552)
  iteragpu_cli_case(plan_workspace_bytes_${_total} PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "^mesure_memoire plan: --workspace-bytes: '${_total}' is too large; expected ${_workspace} "
    ARGS plan --workspace-bytes ${_total})
endforeach()
iteragpu_cli_case(plan_workspace_bytes_largest_accepted PROGRAM mesure_memoire EXIT 0
  STDOUT "workspaces assumed: cuBLAS 1152921504606846975 \\+ cuBLASLt 1048576 bytes"
  ARGS plan --workspace-bytes 1152921504607895551)
iteragpu_cli_case(sweep_workspace_bytes_too_large PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  ABSENT "${_out}/sweep-workspace"
  STDERR "--workspace-bytes: '18446744073709551615' is too large; expected ${_workspace} "
  ARGS sweep --predict-only --output-dir "${_out}/sweep-workspace" --workspace-bytes 18446744073709551615)
iteragpu_cli_case(measure_workspace_bytes_too_large PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  ABSENT "${_out}/workspace.json"
  STDERR "--workspace-bytes: '2305843009213693952' is too large; expected ${_workspace} "
  ARGS measure --device cuda:0 --workspace-bytes 2305843009213693952 --output "${_out}/workspace.json")

# Non-regular files are refused and never waited on: every file the
# programs read is opened without blocking and refused unless it is a
# regular file, with the message --fits gives. Each case has a timeout, so
# that a regression (an open that waits for a FIFO's writer) fails.
set(_inputs "${CMAKE_CURRENT_BINARY_DIR}/refused-inputs")
add_test(NAME cli.make_refused_inputs
  COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:mesure_memoire>" "-DDIR=${_inputs}"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/make_refused_inputs.cmake")
set_tests_properties(cli.make_refused_inputs PROPERTIES FIXTURES_SETUP iteragpu_refused_inputs LABELS cli)
set(_not_regular "is not a regular file")
iteragpu_cli_case(compare_operand_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR TIMEOUT 20
  STDERR "'${_inputs}/fifo' ${_not_regular}; expected a measurement"
  ARGS compare "${PROJECT_SOURCE_DIR}/tests/data/measurements/fake-small-float32-repeats20.json" "${_inputs}/fifo")
iteragpu_cli_case(sweep_run_point_points_tsv_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/points-fifo/points.tsv' ${_not_regular}; expected the folder of a sweep"
  ARGS sweep --run-point 0 --output-dir "${_inputs}/points-fifo" --predict-only)
iteragpu_cli_case(sweep_resume_points_tsv_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/points-fifo/points.tsv' ${_not_regular}; expected the folder of a sweep"
  ARGS sweep --resume "${_inputs}/points-fifo" --predict-only)
iteragpu_cli_case(collect_points_tsv_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/points-fifo/points.tsv' ${_not_regular}; expected the folder of a sweep"
  ABSENT "${_inputs}/collected-1"
  ARGS collect "${_inputs}/points-fifo" --output-dir "${_inputs}/collected-1")
iteragpu_cli_case(sweep_run_point_record_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/record-fifo/point-0000.json' ${_not_regular}"
  ARGS sweep --run-point 0 --output-dir "${_inputs}/record-fifo" --predict-only)
iteragpu_cli_case(sweep_resume_record_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/record-fifo/point-0000.json' ${_not_regular}"
  ARGS sweep --resume "${_inputs}/record-fifo" --predict-only)
iteragpu_cli_case(collect_record_fifo PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "'${_inputs}/record-fifo/point-0000.json' ${_not_regular}" ABSENT "${_inputs}/collected-2"
  ARGS collect "${_inputs}/record-fifo" --output-dir "${_inputs}/collected-2")
iteragpu_cli_case(calcul_forfaits_fits_fifo PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR TIMEOUT 20
  STDERR "^calcul_forfaits: --fits: '${_inputs}/fifo' ${_not_regular}; expected " ARGS --fits "${_inputs}/fifo")
iteragpu_cli_case(calcul_forfaits_catalog_fifo PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR TIMEOUT 20
  STDERR "^calcul_forfaits: --catalog: '${_inputs}/fifo' ${_not_regular}; expected " ARGS --list --catalog "${_inputs}/fifo")
# Under a 1 GiB address-space cap, reading it would end in std::bad_alloc.
iteragpu_cli_case(replay_file_over_the_limit_refused_unread PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY
  ONE_LINE_STDERR TIMEOUT 3 LIMIT_AS 1073741824 STDERR "^mesure_memoire replay: '${_inputs}/over-2-gib' is larger than 2 GiB; expected a snapshot file\n$"
  ARGS replay "${_inputs}/over-2-gib")
set_tests_properties(cli.replay_file_over_the_limit_refused_unread cli.calcul_forfaits_fits_fifo
  cli.calcul_forfaits_catalog_fifo
  cli.compare_operand_fifo cli.sweep_run_point_points_tsv_fifo cli.sweep_resume_points_tsv_fifo
  cli.collect_points_tsv_fifo cli.sweep_run_point_record_fifo cli.sweep_resume_record_fifo cli.collect_record_fifo
  PROPERTIES FIXTURES_REQUIRED iteragpu_refused_inputs)

# collect given one folder twice, under two spellings, is refused: each
# point would be counted twice.
iteragpu_cli_case(collect_same_folder_twice PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR TIMEOUT 20
  STDERR "^mesure_memoire collect: '${_inputs}/planned/' is the folder '${_inputs}/planned' given again; expected each sweep folder once\n$"
  ABSENT "${_inputs}/collected-twice"
  ARGS collect "${_inputs}/planned" "${_inputs}/planned/" --output-dir "${_inputs}/collected-twice")
iteragpu_cli_case(collect_same_folder_through_dot_dot PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  TIMEOUT 20 STDERR "given again; expected each sweep folder once" ABSENT "${_inputs}/collected-twice"
  ARGS collect "${_inputs}/planned" "${_inputs}/points-fifo/../planned" --output-dir "${_inputs}/collected-twice")
set_tests_properties(cli.collect_same_folder_twice cli.collect_same_folder_through_dot_dot
  PROPERTIES FIXTURES_REQUIRED iteragpu_refused_inputs)

# A key given twice in one object of any JSON input is refused with its
# place (Boost.JSON alone would keep the last).
iteragpu_cli_case(compare_duplicate_key PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'${_inputs}/duplicate-key.json' is refused: the key at '/environment/a' is given twice in its object; expected a measurement"
  ARGS compare "${PROJECT_SOURCE_DIR}/tests/data/measurements/fake-small-float32-repeats20.json" "${_inputs}/duplicate-key.json")
iteragpu_cli_case(calcul_forfaits_fits_duplicate_key PROGRAM calcul_forfaits EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "^calcul_forfaits: --fits: '${_inputs}/duplicate-key.json': the key at '/environment/a' is given twice in its object \\(each key once\\); expected "
  ARGS --fits "${_inputs}/duplicate-key.json")
iteragpu_cli_case(collect_record_duplicate_key PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'${_inputs}/record-duplicate-key/point-0000.json': the key at '/index' is given twice in its object; expected each key once"
  ABSENT "${_inputs}/collected-duplicate"
  ARGS collect "${_inputs}/record-duplicate-key" --output-dir "${_inputs}/collected-duplicate")
iteragpu_cli_case(sweep_resume_record_duplicate_key PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "'${_inputs}/record-duplicate-key/point-0000.json': the key at '/index' is given twice"
  ARGS sweep --resume "${_inputs}/record-duplicate-key" --predict-only)
set_tests_properties(cli.compare_duplicate_key cli.calcul_forfaits_fits_duplicate_key cli.collect_record_duplicate_key
  cli.sweep_resume_record_duplicate_key PROPERTIES FIXTURES_REQUIRED iteragpu_refused_inputs)

# GiB typed by a person are echoed as typed, not as the GiB of the whole
# bytes they round to (139.799999999813735485076904296875).
iteragpu_cli_case(plan_memory_gib_echoed_as_typed PROGRAM mesure_memoire EXIT 0
  STDOUT "\nfits 139\\.8 GiB \\(150109106995 bytes\\): fits, 149355377459 bytes \\(139\\.10 GiB\\) of headroom\n"
  ARGS plan --memory-gib 139.8)
iteragpu_cli_case(plan_largest_memory_gib_echoed_as_typed PROGRAM mesure_memoire EXIT 0
  STDOUT "; batch [0-9]+ on 139\\.8 GiB \\(150109106995 bytes\\): does not fit"
  ARGS plan --largest batch --memory-gib 139.8 --context 4096 --width 8192 --dtype bfloat16)
# One byte of headroom reads "1 byte" (753729537 bytes, the need plus one).
iteragpu_cli_case(plan_one_byte_of_headroom PROGRAM mesure_memoire EXIT 0
  STDOUT "\nfits 0\\.701965332962572574615478515625 GiB \\(753729537 bytes\\): fits, 1 byte of headroom\n"
  ARGS plan --memory-gib 0.701965332962572574615478515625)

# A sweep or a collect whose standard output cannot be written (a full
# disk) still wrote its files: the message names them, complete.
iteragpu_cli_case(sweep_to_a_full_stdout_names_its_files PROGRAM mesure_memoire EXIT 1 STDOUT_FILE /dev/full
  STDERR "\nmesure_memoire sweep: the output could not be written to standard output; what was written is complete: the files of the sweep folder '${_inputs}/swept-full' \\(points\\.tsv, "
  ARGS sweep --predict-only --output-dir "${_inputs}/swept-full" --batch 1,2)
iteragpu_cli_case(collect_to_a_full_stdout_names_its_files PROGRAM mesure_memoire EXIT 1 STDOUT_FILE /dev/full
  STDERR "mesure_memoire collect: the output could not be written to standard output; what was written is complete: the files of '${_inputs}/collected-full' \\(summary\\.csv, plot\\.svg and index\\.html\\)\n$"
  ARGS collect "${_inputs}/planned" --output-dir "${_inputs}/collected-full")
set_tests_properties(cli.sweep_to_a_full_stdout_names_its_files cli.collect_to_a_full_stdout_names_its_files
  PROPERTIES FIXTURES_REQUIRED iteragpu_refused_inputs)
