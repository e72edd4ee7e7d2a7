#!/usr/bin/env bash
# tests/scripts/cases.sh SOURCE_DIR WORK_DIR CASE [PYTHON3]: one check of the
# decisions in scripts/setup.sh, with nothing installed or built: scripts/run
# runs in dry-run mode (ITERAGPU_DRY_RUN=1) from a copy of scripts/ under
# WORK_DIR (so that the python3 probe's cache stays there), or the decision
# functions are called directly. PYTHON3 is the real interpreter behind the
# fake python3 that each LibTorch case puts first on PATH: it runs with -S
# (no site-packages, so no real PyTorch is seen) and with PYTHONPATH on a
# fake torch package written by the case. Prints "CASE: ok" or
# "CASE: FAILED: why" and exits non-zero on failure.
set -uo pipefail
src=$1 work=$2 case=$3 python=${4:-}

rm -rf "$work" && mkdir -p "$work/root" "$work/bin" "$work/site" || exit 1
cp -r "$src/scripts" "$work/root/" || exit 1
unset ITERAGPU_LIBTORCH ITERAGPU_DRY_RUN ITERAGPU_OS_RELEASE CXX
export CMAKE_PREFIX_PATH="$work/system"
releases="$src/tests/scripts/os-release"

fail() {
  printf '%s: FAILED: %s\n' "$case" "$*"
  if [ -f "$work/stderr" ]; then
    printf -- '--- stderr:\n'
    cat "$work/stderr"
  fi
  exit 1
}

# --- fixtures ------------------------------------------------------------------

# A CMake prefix holding a TorchConfig.cmake; with_abi=1 writes the line by
# which TorchConfig sets the libstdc++ ABI on its target, as PyTorch's does.
# write_torch_config DIR VERSION WITH_ABI
write_torch_config() {
  mkdir -p "$1" || exit 1
  {
    printf 'set(TORCH_FOUND TRUE)\n'
    [ "$3" = 1 ] && printf 'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=1")\n'
  } >"$1/TorchConfig.cmake"
  printf 'set(PACKAGE_VERSION "%s")\n' "$2" >"$1/TorchConfigVersion.cmake"
}

# The system LibTorch every LibTorch case sees first: a CPU build, 1.13.0,
# found through CMAKE_PREFIX_PATH as CMake would.
write_torch_config "$work/system/share/cmake/Torch" 1.13.0 1

# python3 that sees only the fake site folder.
cat >"$work/bin/python3" <<EOF
#!/bin/sh
PYTHONPATH="$work/site" exec "$python" -S "\$@"
EOF
chmod +x "$work/bin/python3"

# fake_torch VERSION CUDA HIP ABI CONFIG_WITH_ABI: a torch package whose
# cmake_prefix_path is $work/torch-prefix (CUDA and HIP: a version or None).
fake_torch() {
  mkdir -p "$work/site/torch/utils" || exit 1
  cat >"$work/site/torch/__init__.py" <<EOF
from . import utils, version
__version__ = version.__version__
def compiled_with_cxx11_abi():
    return $4
EOF
  cat >"$work/site/torch/version.py" <<EOF
__version__ = "$1"
cuda = $2
hip = $3
EOF
  printf 'cmake_prefix_path = "%s"\n' "$work/torch-prefix" >"$work/site/torch/utils/__init__.py"
  write_torch_config "$work/torch-prefix/Torch" "${1%%+*}" "$5"
}

# dry_run [VAR=VALUE...]: scripts/run mesure_memoire in dry-run mode with the
# fake python3 first on PATH; stderr to $work/stderr, exit code to $rc.
dry_run() {
  env "$@" PATH="$work/bin:$PATH" ITERAGPU_DRY_RUN=1 \
    "$work/root/scripts/run" mesure_memoire estimate --parameters 7 >"$work/stdout" 2>"$work/stderr"
  rc=$?
}

# call FUNCTION ARGS...: one function of setup.sh in a fresh shell; stdout to
# $out, stderr to $work/stderr, exit code to $rc.
call() {
  out=$(bash -c 'source "$1/scripts/setup.sh"; shift; "$@"' call "$work/root" "$@" 2>"$work/stderr")
  rc=$?
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit code $rc, expected $1"; }
# expect_line TEXT: stderr has the line "iteragpu: TEXT", exactly.
expect_line() { grep -qxF "iteragpu: $1" "$work/stderr" || fail "no stderr line 'iteragpu: $1'"; }
expect_no_text() { ! grep -qF -- "$1" "$work/stderr" || fail "stderr has '$1'"; }
expect_one_line() {
  [ "$(wc -l <"$work/stderr")" = 1 ] || fail "stderr has $(wc -l <"$work/stderr") lines, expected 1"
  [ ! -s "$work/stdout" ] || fail "stdout is not empty"
}
expect_out() { [ "$out" = "$1" ] || fail "printed '$out', expected '$1'"; }

system_torch="LibTorch 1.13.0 at $work/system/share/cmake/Torch, CPU only"
run_line="dry run: would run: $work/root/build"

# --- cases ---------------------------------------------------------------------

case "$case" in
  # The LibTorch choice, through the dry run of scripts/run.
  python_without_torch_keeps_the_system_libtorch)
    dry_run
    expect_rc 0
    expect_line "using the system LibTorch ($system_torch): python3 has no PyTorch"
    expect_line "dry run: preset default (build/default)"
    expect_line "dry run: would build: cmake --build --preset default --target mesure_memoire"
    expect_line "$run_line/default/examples/mesure_memoire estimate --parameters 7"
    ;;
  python_torch_that_fails_to_import_keeps_the_system_libtorch)
    mkdir -p "$work/site/torch"
    printf 'raise ImportError("libcudart.so.13: cannot open shared object file")\n' >"$work/site/torch/__init__.py"
    dry_run
    expect_rc 0
    expect_line "using the system LibTorch ($system_torch): python3 cannot import torch (ImportError: libcudart.so.13: cannot open shared object file)"
    expect_line "dry run: preset default (build/default)"
    ;;
  cpu_only_torch_keeps_the_system_libtorch)
    fake_torch 2.5.1+cpu None None True 1
    dry_run
    expect_rc 0
    expect_line "using the system LibTorch ($system_torch): python3's PyTorch 2.5.1 is built without CUDA"
    expect_line "dry run: preset default (build/default)"
    ;;
  cuda_torch_selects_the_gpu_preset_against_its_prefix)
    fake_torch 2.11.0+cu130 '"13.0"' None True 1
    dry_run
    expect_rc 0
    expect_line "using the LibTorch of python3's PyTorch 2.11.0 (CUDA 13.0) at $work/torch-prefix: it is built for CUDA GPUs"
    expect_line "dry run: preset gpu (build/gpu)"
    # TorchConfig sets the ABI itself: no flag is added.
    expect_line "dry run: would configure: ITERAGPU_TORCH_PREFIX=$work/torch-prefix cmake --preset gpu"
    expect_line "dry run: would build: cmake --build --preset gpu --target mesure_memoire"
    expect_line "$run_line/gpu/examples/mesure_memoire estimate --parameters 7"
    [ "$(grep -c '^iteragpu: using' "$work/stderr")" = 1 ] || fail "not exactly one line says which LibTorch"
    ;;
  scripts_test_runs_the_gpu_suite_in_place_of_the_default_one)
    fake_torch 2.11.0+cu130 '"13.0"' None True 1
    env PATH="$work/bin:$PATH" ITERAGPU_DRY_RUN=1 "$work/root/scripts/test" >"$work/stdout" 2>"$work/stderr"
    rc=$?
    expect_rc 0
    expect_line "dry run: would build: cmake --build --preset gpu"
    expect_line "dry run: would test: ctest --preset gpu"
    expect_line "dry run: would run: asan preset: the build without LibTorch, its ctest under AddressSanitizer + UndefinedBehaviorSanitizer"
    expect_no_text "ctest --preset no-torch"
    expect_no_text "preset default"
    ;;
  torch_config_without_abi_gets_the_abi_python_reports)
    fake_torch 2.11.0+cu130 '"13.0"' None True 0
    dry_run
    expect_rc 0
    expect_line "dry run: would configure: ITERAGPU_TORCH_PREFIX=$work/torch-prefix cmake --preset gpu -DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=1"
    ;;
  pre_cxx11_abi_cuda_torch_keeps_the_system_libtorch)
    fake_torch 2.4.0+cu121 '"12.1"' None False 1
    dry_run
    expect_rc 0
    expect_line "using the system LibTorch ($system_torch): python3's PyTorch 2.4.0 (CUDA 12.1) uses the pre-C++11 ABI of libstdc++, which the packaged Boost libraries cannot be linked with"
    expect_line "dry run: preset default (build/default)"
    ;;
  rocm_torch_selects_the_gpu_preset_and_says_it_is_untried)
    fake_torch 2.5.1+rocm6.2 None '"6.2.41133"' True 1
    dry_run
    expect_rc 0
    expect_line "using the LibTorch of python3's PyTorch 2.5.1 (ROCm, HIP 6.2.41133) at $work/torch-prefix: it is built for ROCm GPUs (untried: no ROCm machine was available to this project)"
    expect_line "dry run: preset gpu (build/gpu)"
    ;;
  probe_answer_is_reused_until_torch_changes)
    fake_torch 2.11.0+cu130 '"13.0"' None True 1
    dry_run
    expect_rc 0
    [ -f "$work/root/build/python-torch.txt" ] || fail "no probe cache in build/"
    # A new version.py alone is not seen: the cache is keyed on torch's
    # __init__.py (path and time).
    printf '__version__ = "2.12.0"\ncuda = "13.0"\nhip = None\n' >"$work/site/torch/version.py"
    dry_run
    expect_line "using the LibTorch of python3's PyTorch 2.11.0 (CUDA 13.0) at $work/torch-prefix: it is built for CUDA GPUs"
    touch -d '+1 minute' "$work/site/torch/__init__.py"
    dry_run
    expect_line "using the LibTorch of python3's PyTorch 2.12.0 (CUDA 13.0) at $work/torch-prefix: it is built for CUDA GPUs"
    ;;

  # ITERAGPU_LIBTORCH overrides.
  libtorch_system_overrides_a_cuda_torch)
    fake_torch 2.11.0+cu130 '"13.0"' None True 1
    dry_run ITERAGPU_LIBTORCH=system
    expect_rc 0
    expect_line "using the system LibTorch ($system_torch): ITERAGPU_LIBTORCH=system"
    expect_line "dry run: preset default (build/default)"
    ;;
  libtorch_python_takes_even_a_cpu_only_torch)
    fake_torch 2.5.1+cpu None None True 1
    dry_run ITERAGPU_LIBTORCH=python
    expect_rc 0
    expect_line "using the LibTorch of python3's PyTorch 2.5.1 (CPU only) at $work/torch-prefix: ITERAGPU_LIBTORCH=python"
    expect_line "dry run: preset gpu (build/gpu)"
    ;;
  libtorch_python_without_torch_exits_2)
    dry_run ITERAGPU_LIBTORCH=python
    expect_rc 2
    expect_one_line
    expect_line "ITERAGPU_LIBTORCH=python, but python3 has no PyTorch"
    ;;
  libtorch_path_selects_the_gpu_preset_against_that_prefix)
    write_torch_config "$work/libtorch/share/cmake/Torch" 2.4.0 1
    mkdir -p "$work/libtorch/lib" && : >"$work/libtorch/lib/libtorch_cuda.so"
    dry_run ITERAGPU_LIBTORCH="$work/libtorch"
    expect_rc 0
    expect_line "using the LibTorch that ITERAGPU_LIBTORCH names (LibTorch 2.4.0 at $work/libtorch/share/cmake/Torch, CUDA)"
    expect_line "dry run: would configure: ITERAGPU_TORCH_PREFIX=$work/libtorch cmake --preset gpu"
    ;;
  libtorch_path_without_torch_config_exits_2)
    mkdir -p "$work/empty"
    dry_run ITERAGPU_LIBTORCH="$work/empty"
    expect_rc 2
    expect_one_line
    expect_line "ITERAGPU_LIBTORCH is '$work/empty', a path without TorchConfig.cmake (looked in Torch/, share/cmake/Torch/, lib/cmake/Torch/); expected system, python or the CMake prefix of a LibTorch"
    ;;
  libtorch_unknown_value_exits_2)
    dry_run ITERAGPU_LIBTORCH=cuda
    expect_rc 2
    expect_one_line
    expect_line "ITERAGPU_LIBTORCH is 'cuda'; expected system, python or the path of a LibTorch CMake prefix"
    ;;

  # Packages per distribution (iteragpu_packages NEED...).
  debian_12_packages_are_the_versioned_boost_1_81_set)
    export ITERAGPU_OS_RELEASE="$releases/debian-12"
    call iteragpu_packages cxx cmake ninja boost libtorch
    expect_rc 0
    expect_out "g++ cmake ninja-build libboost1.81-dev libboost-program-options1.81-dev libboost-json1.81-dev libboost-test1.81-dev libtorch-dev"
    call iteragpu_packages clang clang-rt clang-tidy clang-format cppcheck python3
    expect_out "clang-14 libclang-rt-14-dev clang-tidy-14 clang-format-19 cppcheck python3"
    ;;
  packages_are_announced_grouped_before_any_install)
    export ITERAGPU_OS_RELEASE="$releases/debian-12"
    call iteragpu_announce "for the tests only" chromium slurm doxygen rsvg fonts jsonschema
    expect_rc 0
    expect_line "to install, for the tests only:"
    expect_line "  chromium: the page rendering test (leave out: ITERAGPU_LEAVE_OUT=browser)"
    expect_line "  slurm-wlm munge: the Slurm job-array test (leave out: ITERAGPU_LEAVE_OUT=slurm)"
    expect_line "  doxygen: the API reference"
    expect_line "  librsvg2-bin: the plot rendering test"
    expect_line "  fonts-dejavu-core: text in the rendered plot and page"
    expect_line "  python3-jsonschema: the JSON schema tests"
    [ "$(wc -l <"$work/stderr")" = 7 ] || fail "stderr has $(wc -l <"$work/stderr") lines, expected 7"
    ;;
  leave_out_drops_the_browser_and_slurm_needs)
    # An empty PATH for the tools: chromium and Slurm are needs, unless left out.
    call eval 'PATH=/nonexistent; iteragpu_missing_needs test'
    [[ " $out " == *" chromium "* && " $out " == *" slurm "* ]] || fail "needs '$out' lack chromium or slurm"
    export ITERAGPU_LEAVE_OUT="browser, slurm"
    call eval 'PATH=/nonexistent; iteragpu_missing_needs test'
    [[ " $out " != *" chromium "* && " $out " != *" slurm "* ]] || fail "needs '$out' keep what was left out"
    [[ " $out " == *" rsvg "* ]] || fail "needs '$out' lost rsvg"
    export ITERAGPU_LEAVE_OUT=slurmish
    call iteragpu_left_out slurm
    expect_rc 1
    ;;
  skipped_tests_allows_gpu_and_left_out_tests_only)
    cat >"$work/junit.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite tests="4">
  <testcase name="unit.ok" status="run"><system-out>fine</system-out></testcase>
  <testcase name="gpu.small_trial" status="notrun"><skipped message="SKIP_REGULAR_EXPRESSION_MATCHED"/><system-out>ITERAGPU-SKIP: no GPU</system-out></testcase>
  <testcase name="slurm.sweep_job_array" status="notrun"><skipped/><system-out>ITERAGPU-SKIP: left out by ITERAGPU_LEAVE_OUT=slurm</system-out></testcase>
  <testcase name="sweep.index_html" status="notrun"><skipped/><system-out>ITERAGPU-SKIP: chromium is missing</system-out></testcase>
</testsuite>
XML
    out=$("${python:-python3}" "$src/tests/scripts/skipped_tests.py" "$work/junit.xml" gpu.small_trial gpu.other 2>"$work/stderr")
    rc=$?
    expect_rc 0
    expect_out "sweep.index_html"
    out=$("${python:-python3}" "$src/tests/scripts/skipped_tests.py" "$work/missing.xml" 2>"$work/stderr")
    rc=$?
    expect_rc 2
    ;;
  ubuntu_24_04_packages_boost_1_83_and_no_libtorch)
    export ITERAGPU_OS_RELEASE="$releases/ubuntu-24.04"
    call iteragpu_packages cxx cmake ninja boost libtorch
    expect_rc 0
    expect_out "g++ cmake ninja-build libboost1.83-dev libboost-program-options1.83-dev libboost-json1.83-dev libboost-test1.83-dev"
    expect_line "Ubuntu 24.04 packages no libtorch-dev; building without LibTorch"
    call iteragpu_packages clang clang-rt clang-tidy clang-format cppcheck python3
    expect_out "clang-14 libclang-rt-14-dev clang-tidy-14 clang-format-19 cppcheck python3"
    ;;
  ubuntu_22_04_refuses_what_it_cannot_provide_in_one_line)
    export ITERAGPU_OS_RELEASE="$releases/ubuntu-22.04"
    call iteragpu_packages cxx cmake ninja boost
    expect_rc 1
    expect_out ""
    expect_one_line
    expect_line "Ubuntu 22.04 packages no CMake >= 3.25 (it has 3.22) and no Boost >= 1.81 with Boost.JSON (it has 1.74); install by hand: cmake >= 3.25, Boost >= 1.81 (json, program_options, unit_test_framework)"
    # What it can provide, it provides: g++ 12 beside its g++ 11.
    call iteragpu_packages cxx ninja clang clang-rt
    expect_rc 0
    expect_out "g++-12 ninja-build clang-14 libclang-common-14-dev"
    # clang-format 19 it lacks: the format check is skipped, the rest installed.
    call iteragpu_packages clang-tidy clang-format cppcheck
    expect_rc 0
    expect_out "clang-tidy-14 cppcheck"
    expect_one_line
    expect_line "Ubuntu 22.04 packages clang-format 15 at most, older than the 19 the format check needs; its step will be skipped"
    ;;
  fedora_is_refused_naming_what_to_install)
    export ITERAGPU_OS_RELEASE="$releases/fedora-40"
    call iteragpu_packages cxx cmake ninja boost
    expect_rc 1
    expect_one_line
    expect_line "Fedora Linux 40 (Forty) is not a system these scripts install packages on (Debian 12, Ubuntu 22.04, Ubuntu 24.04); install by hand: g++ >= 12, cmake >= 3.25, ninja, Boost >= 1.81 (json, program_options, unit_test_framework)"
    # Nothing missing, nothing refused.
    call iteragpu_packages
    expect_rc 0
    expect_out ""
    ;;
  distribution_is_read_from_os_release)
    for release in debian-12:"Debian 12" ubuntu-22.04:"Ubuntu 22.04" ubuntu-24.04:"Ubuntu 24.04" \
      fedora-40:"other Fedora Linux 40 (Forty)"; do
      export ITERAGPU_OS_RELEASE="$releases/${release%%:*}"
      call eval 'iteragpu_os_detect; [ "$iteragpu_os" = other ] && printf "other "; printf "%s" "$iteragpu_os_name"'
      expect_out "${release#*:}"
    done
    export ITERAGPU_OS_RELEASE="$work/none"
    call eval 'iteragpu_os_detect; printf "%s %s" "$iteragpu_os" "$iteragpu_os_name"'
    expect_out "other this system ($work/none unreadable)"
    ;;

  # Needs: tools by their version on PATH, Boost by its CMake files.
  tools_too_old_on_path_are_needs)
    for tool in g++ g++-12 g++-13 g++-14; do
      printf '#!/bin/sh\necho 11.4.0\n' >"$work/bin/$tool"
    done
    printf '#!/bin/sh\necho "cmake version 3.22.1"\n' >"$work/bin/cmake"
    printf '#!/bin/sh\necho 1.10.1\n' >"$work/bin/ninja"
    chmod +x "$work/bin"/*
    PATH="$work/bin:$PATH" call iteragpu_missing_needs build
    case " $out " in *" cxx "*) ;; *) fail "needs '$out' lack cxx" ;; esac
    case " $out " in *" cmake "*) ;; *) fail "needs '$out' lack cmake" ;; esac
    case " $out " in *" ninja "*) fail "needs '$out' count ninja, which is on PATH" ;; esac
    # A newer g++-13 and cmake 4 meet them; CXX names the compiler chosen.
    printf '#!/bin/sh\necho 13.3.0\n' >"$work/bin/g++-13"
    printf '#!/bin/sh\necho "cmake version 4.4.3"\n' >"$work/bin/cmake"
    PATH="$work/bin:$PATH" call iteragpu_missing_needs build
    case " $out " in *" cxx "* | *" cmake "*) fail "needs '$out' still count cxx or cmake" ;; esac
    PATH="$work/bin:$PATH" call iteragpu_find_cxx
    expect_out g++-13
    ;;
  boost_is_found_only_with_its_three_components)
    boost_dirs() {
      local version=$1 component
      shift
      mkdir -p "$work/boost$version/lib/cmake/Boost-$version"
      : >"$work/boost$version/lib/cmake/Boost-$version/BoostConfig.cmake"
      for component in "$@"; do mkdir -p "$work/boost$version/lib/cmake/boost_$component-$version"; done
    }
    boost_dirs 1.83.0 json program_options unit_test_framework
    boost_dirs 1.84.0 program_options unit_test_framework
    boost_dirs 1.74.0 json program_options unit_test_framework
    CMAKE_PREFIX_PATH="$work/boost1.83.0" call iteragpu_find_boost
    expect_out "$work/boost1.83.0/lib/cmake/Boost-1.83.0"
    # Without json, or older than 1.81: not taken (the search goes on to the
    # system, whatever it has).
    CMAKE_PREFIX_PATH="$work/boost1.84.0:$work/boost1.74.0" call iteragpu_find_boost
    case "$out" in "$work"/*) fail "took $out" ;; esac
    ;;
  packaged_libtorch_is_described_by_its_own_version)
    # A packaged LibTorch whose package version (1.13.1) is not the version
    # it gives itself (1.13.0), as Debian's libtorch-dev: the line says the
    # latter, the one CMake finds and --version prints.
    config="$work/system/share/cmake/Torch"
    printf '#!/bin/sh\ncase "$1" in\n  -S) echo "libtorch-dev:amd64: %s/TorchConfig.cmake" ;;\n  -W) printf 1.13.1+dfsg-4 ;;\nesac\n' \
      "$config" >"$work/bin/dpkg-query"
    chmod +x "$work/bin/dpkg-query"
    PATH="$work/bin:$PATH" call iteragpu_describe_torch "$config"
    expect_out "LibTorch 1.13.0 (package libtorch-dev), CPU only"
    ;;
  *)
    fail "unknown case"
    ;;
esac
printf '%s: ok\n' "$case"
