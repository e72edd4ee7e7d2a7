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

# measure --torchscript: the file and the inputs are checked without LibTorch
# and before any GPU is touched, so a machine without a GPU reports them.
set(_torchscript_data "${PROJECT_SOURCE_DIR}/tests/data/torchscript")
iteragpu_cli_case(measure_torchscript_missing_file PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--torchscript: 'missing.pt' does not exist; expected a TorchScript file" ABSENT "${_out}/ts.json"
  ARGS measure --torchscript missing.pt --input 8x512:int64 --device cuda:0 --output "${_out}/ts.json")
iteragpu_cli_case(measure_torchscript_missing_file_alone PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--torchscript: 'missing.pt' does not exist" ARGS measure --torchscript missing.pt)
iteragpu_cli_case(measure_torchscript_not_an_archive PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--torchscript: '[^']*cases-mesure_memoire.cmake' is not a TorchScript archive .not a zip file."
  ABSENT "${_out}/ts.json"
  ARGS measure --torchscript "${CMAKE_CURRENT_LIST_FILE}" --input 8x512:int64 --device cuda:0
  --output "${_out}/ts.json")
iteragpu_cli_case(measure_torchscript_weights_only PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "/weights-only.pt' holds weights saved by torch.save, not a module saved by torch.jit.save"
  ABSENT "${_out}/ts.json"
  ARGS measure --torchscript "${_torchscript_data}/weights-only.pt" --input 8x512:int64 --device cuda:0
  --output "${_out}/ts.json")
iteragpu_cli_case(measure_torchscript_bad_input PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--input: '8x512:long' has an unknown dtype at column 7; expected SIZExSIZE...:DTYPE"
  ABSENT "${_out}/ts.json"
  ARGS measure --torchscript "${_torchscript_data}/layout-only.pt" --input 8x512:long --device cuda:0
  --output "${_out}/ts.json")
iteragpu_cli_case(measure_torchscript_without_input PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--torchscript needs --input" ABSENT "${_out}/ts.json"
  ARGS measure --torchscript "${_torchscript_data}/layout-only.pt" --device cuda:0 --output "${_out}/ts.json")
iteragpu_cli_case(measure_input_without_torchscript PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--input goes with --torchscript only" ABSENT "${_out}/ts.json"
  ARGS measure --input 8x512:int64 --device cuda:0 --output "${_out}/ts.json")
if(NOT ITERAGPU_HAS_TORCH_CUDA)
  iteragpu_cli_case(measure_torchscript_without_gpu_exits_2 PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
    STDERR "cuda:0 cannot be measured: .*(${_why}).*no file was written" ABSENT "${_out}/ts.json"
    ARGS measure --torchscript "${_torchscript_data}/layout-only.pt" --input 8x512:int64 --device cuda:0
    --output "${_out}/ts.json")
endif()

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
  STDERR "--repeats: 'automatic' is not a whole number in digits; expected a positive integer, or auto"
  ABSENT "${_out}/auto.json" ARGS measure --device cuda:0 --repeats automatic --output "${_out}/auto.json")
iteragpu_cli_case(measure_bad_max_noise PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "--max-noise: '0' is not above 0" ABSENT "${_out}/auto.json"
  ARGS measure --device cuda:0 --repeats auto --max-noise 0 --output "${_out}/auto.json")
iteragpu_cli_case(measure_max_below_min PROGRAM mesure_memoire EXIT 2 STDOUT_EMPTY ONE_LINE_STDERR
  STDERR "max_repeats must be at least min_repeats" ABSENT "${_out}/auto.json"
  ARGS measure --device cuda:0 --repeats auto --min-repeats 20 --max-repeats 10 --output "${_out}/auto.json")
