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
